// Issue 15 in the browser: a family applies with "remember my number on this device"; a later
// visit (a new page of the same browser, so no tab memory) shows the lot as applied for with the
// place in the queue; "forget" removes the number from the device and the page stops showing it.
import { dialog, visible } from '../support/browser';
import { startsWith, t } from '../support/i18n';
import type { World } from '../support/world';

const PHONE_NUMBER = '0176 2345 6799';
const DIGITS = '17623456799';

/** Every value of the page's local and session storage, joined. */
const stored = (where: 'localStorage' | 'sessionStorage') =>
  `Object.values(window.${where}).join('\\n')`;

export function returningFamilyScenario(world: World): void {
  test('a family applies with "remember my number", a later visit shows "already applied" and its place, and "forget" removes the number from the device', () =>
    world.scenario('remember my number', async () => {
      const lot = await world.admin.createLot({
        category_id: 2,
        status: 'available',
        name: { de: 'Kinderbett mit Matratze', uk: 'Дитяче ліжко з матрацом' },
        description: { de: '70 × 140 cm.', uk: '70 × 140 см.' },
      });
      await world.waitForApplicable(lot.id);
      const context = await world.phone();

      // the first visit: apply with the box ticked (it starts unticked)
      const first = await context.newPage();
      await first.goto(`/lots/${lot.id}`);
      await visible(first.getByRole('heading', { level: 1, name: lot.name.de }));
      await first.getByRole('button', { name: t('de', 'public:lot.actions.apply') }).click();
      const form = await dialog(first, t('de', 'public:apply.title'));
      await form.getByLabel(startsWith(t('de', 'public:apply.fields.name'))).fill('Daryna Savchuk');
      await form.getByLabel(startsWith(t('de', 'public:apply.fields.phone'))).fill(PHONE_NUMBER);
      await form.getByRole('button', { name: t('de', 'public:apply.sameAsPhone') }).click();
      const remember = form.getByRole('checkbox', {
        name: startsWith(t('de', 'public:remember.label')),
      });
      expect(await remember.isChecked()).toBe(false);
      await remember.check();
      await visible(form.getByText(t('de', 'public:apply.canApply')));
      await form.getByRole('button', { name: t('de', 'public:apply.submit') }).click();
      await visible(
        first.getByRole('status').filter({ hasText: t('de', 'public:apply.successTitle') }),
      );
      expect(await first.evaluate(stored('localStorage'))).toContain(DIGITS);
      await first.close();

      // a later visit: a new page has no tab memory, the device remembers the number
      const later = await context.newPage();
      await later.goto(`/lots/${lot.id}`);
      expect(await later.evaluate(stored('sessionStorage'))).not.toContain(DIGITS);
      const mine = await visible(
        later.getByRole('status').filter({ hasText: t('de', 'public:queue.alreadyApplied') }),
      );
      await visible(mine.getByText(t('de', 'public:queue.position', { position: 1 })));
      expect(
        await later.getByRole('button', { name: t('de', 'public:lot.actions.apply') }).count(),
      ).toBe(0);

      // forget: the number leaves the device and the page no longer says "already applied"
      await later.getByRole('button', { name: t('de', 'public:remember.forget') }).click();
      await visible(later.getByRole('button', { name: t('de', 'public:lot.actions.apply') }));
      expect(await later.getByText(t('de', 'public:queue.alreadyApplied')).count()).toBe(0);
      expect(await later.evaluate(stored('localStorage'))).not.toContain(DIGITS);
      await later.reload();
      await visible(later.getByRole('button', { name: t('de', 'public:lot.actions.apply') }));
      expect(await later.getByText(t('de', 'public:queue.alreadyApplied')).count()).toBe(0);
      expect(await later.evaluate(stored('localStorage'))).not.toContain(DIGITS);
    }));
}
