// A family on a phone: browse a category, open a lot, apply, try again (duplicate dialog), and
// find the application on /check-status.
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { dialog, screenshot, visible } from '../support/browser';
import { containing, exactly, startsWith, t, type Lang } from '../support/i18n';
import type { World } from '../support/world';

/** the phone of the family of the first scenario (its application is on /check-status) */
export const FAMILY_PHONE = '0176 2345 6701';

export interface Applicant {
  name: string;
  phone: string;
  email: string;
  city?: string;
}

/**
 * Fills the apply form of the open lot page and sends it; answers the application number shown
 * in the success message.
 */
export async function applyForLot(
  page: Page,
  lang: Lang,
  // a family without e-mail leaves the field empty (issue 30)
  who: Omit<Applicant, 'email'> & { email?: string },
): Promise<number> {
  await page.getByRole('button', { name: t(lang, 'public:lot.actions.apply') }).click();
  const form = await dialog(page, t(lang, 'public:apply.title'));
  await form.getByLabel(startsWith(t(lang, 'public:apply.fields.name'))).fill(who.name);
  await form.getByLabel(startsWith(t(lang, 'public:apply.fields.phone'))).fill(who.phone);
  await form.getByRole('button', { name: t(lang, 'public:apply.sameAsPhone') }).click();
  if (who.email) {
    await form.getByLabel(startsWith(t(lang, 'public:apply.fields.email'))).fill(who.email);
  }
  if (who.city) {
    await form.getByLabel(startsWith(t(lang, 'public:apply.fields.city'))).fill(who.city);
  }
  // the phone-based eligibility check answers while the family types
  await visible(form.getByText(t(lang, 'public:apply.canApply')));
  await form.getByRole('button', { name: t(lang, 'public:apply.submit') }).click();
  const done = await visible(
    page.getByRole('status').filter({ hasText: t(lang, 'public:apply.successTitle') }),
  );
  await form.waitFor({ state: 'detached' });
  const text = (await done.textContent()) ?? '';
  const id = /(\d+)/.exec(text.replace(t(lang, 'public:apply.successTitle'), ''))?.[1];
  if (!id) throw new Error(`no application number in "${text}"`);
  return Number(id);
}

/** Opens the mobile menu and follows one of its links. */
export async function viaPhoneMenu(page: Page, lang: Lang, link: string): Promise<void> {
  await page.getByRole('button', { name: t(lang, 'nav.openMenu') }).click();
  const menu = await visible(page.getByRole('navigation', { name: t(lang, 'nav.mobile') }));
  await menu.getByRole('link', { name: link }).click();
}

/** /check-status for a phone number: answers the result list items. */
export async function checkStatus(page: Page, lang: Lang, phone: string) {
  await visible(page.getByRole('heading', { level: 1, name: t(lang, 'public:checkStatus.title') }));
  await page.getByLabel(startsWith(t(lang, 'public:checkStatus.phoneLabel'))).fill(phone);
  await page
    .getByRole('main')
    .getByRole('button', { name: t(lang, 'public:checkStatus.submit') })
    .click();
  const results = await visible(
    page.getByRole('region', { name: t(lang, 'public:checkStatus.resultsTitle') }),
  );
  return results.getByRole('listitem');
}

export function familyScenario(world: World): void {
  test('a family browses a category, opens a lot, applies, is refused a second application with the duplicate dialog and finds the application on /check-status', () =>
    world.scenario('family applies', async () => {
      const lot = world.lots[0]!;
      const category = world.category(lot.category_id);
      const family: Applicant = {
        name: 'Olena Kowalenko',
        phone: FAMILY_PHONE,
        email: 'olena.kowalenko@familie.example',
        city: 'Berlin',
      };
      const page = await (await world.phone()).newPage();

      // home → all categories → the category → the lot
      await page.goto('/');
      await page.getByRole('link', { name: t('de', 'public:home.browse') }).click();
      await page.waitForURL('**/categories');
      await visible(
        page.getByRole('heading', { level: 1, name: t('de', 'public:categories.title') }),
      );
      // the page asks for its first 24 lots; the gateway passes the category's total on
      const firstPage = page.waitForResponse((r) =>
        r.url().endsWith(`/api/v1/lots/category/${category.id}?limit=24`),
      );
      await page
        .getByRole('main')
        .getByRole('link', { name: containing(category.name.de) })
        .click();
      await page.waitForURL(`**/categories/${category.id}`);
      await visible(page.getByRole('heading', { level: 1, name: category.name.de }));
      const ofCategory = world.lots.filter((l) => l.category_id === category.id);
      expect((await firstPage).headers()['x-total-count']).toBe(String(ofCategory.length));
      // fewer than a page: no "show more" (more lots: frontend and catalog tests)
      expect(
        await page.getByRole('button', { name: t('de', 'public:categoryLots.showMore') }).count(),
      ).toBe(0);
      // every lot of the category has its card, with its status
      for (const other of ofCategory) {
        const card = await visible(
          page.getByRole('main').getByRole('link', { name: containing(other.name.de) }),
        );
        await visible(card.getByText(t('de', `public:lotStatus.${other.status}`), { exact: true }));
      }
      await page.getByRole('link', { name: containing(lot.name.de) }).click();
      await page.waitForURL(`**/lots/${lot.id}`);
      await visible(page.getByRole('heading', { level: 1, name: lot.name.de }));
      await visible(page.getByText(t('de', 'public:lot.id', { id: lot.id })));
      // the gallery shows the lot's first photo
      const photo = page
        .getByRole('region', { name: t('de', 'public:gallery.label') })
        .locator('img');
      expect([lot.photos[0], lot.gallery_photos[0]]).toContain(
        await photo.first().getAttribute('src'),
      );

      const applicationId = await applyForLot(page, 'de', family);
      await screenshot(page, 'flow-lot-applied-phone');

      // after applying, the lot page shows the application's status and place in the queue
      // where the apply button was, also after a reload
      await page.reload();
      await visible(page.getByRole('heading', { level: 1, name: lot.name.de }));
      const mine = await visible(
        page.getByRole('status').filter({ hasText: t('de', 'public:queue.alreadyApplied') }),
      );
      await visible(mine.getByText(t('de', 'public:applicationStatus.pending'), { exact: true }));
      await visible(mine.getByText(t('de', 'public:queue.position', { position: 1 })));
      expect(
        await page.getByRole('button', { name: t('de', 'public:lot.actions.apply') }).count(),
      ).toBe(0);
      await screenshot(page, 'flow-lot-after-apply-phone');

      // a second application for the same lot from another tab (which does not know the first):
      // the check says why, sending opens the duplicate dialog
      const tab = await page.context().newPage();
      await tab.goto(`/lots/${lot.id}`);
      await visible(tab.getByRole('heading', { level: 1, name: lot.name.de }));
      await tab.getByRole('button', { name: t('de', 'public:lot.actions.apply') }).click();
      const form = await dialog(tab, t('de', 'public:apply.title'));
      await form.getByLabel(startsWith(t('de', 'public:apply.fields.name'))).fill(family.name);
      await form.getByLabel(startsWith(t('de', 'public:apply.fields.phone'))).fill(family.phone);
      await form.getByRole('button', { name: t('de', 'public:apply.sameAsPhone') }).click();
      await form.getByLabel(startsWith(t('de', 'public:apply.fields.email'))).fill(family.email);
      await visible(form.getByText(t('de', 'public:apply.reasons.already_applied')));
      // the button is aria-disabled (announced as unavailable) but can still be pressed
      const submit = form.getByRole('button', { name: t('de', 'public:apply.submit') });
      expect(await submit.getAttribute('aria-disabled')).toBe('true');
      await submit.click({ force: true });
      const duplicate = await dialog(tab, t('de', 'public:duplicate.title'), 'alertdialog');
      await visible(duplicate.getByText(t('de', 'public:duplicate.text')));
      await visible(duplicate.getByText(t('de', 'public:duplicate.noResubmit')));
      await screenshot(tab, 'flow-duplicate-dialog-phone', { fullPage: false });
      await expectAccessible(tab, 'dialog-duplicate-phone-de');
      await duplicate.getByRole('button', { name: t('de', 'public:duplicate.understood') }).click();
      await duplicate.waitFor({ state: 'detached' });
      expect(await tab.getByRole('dialog').count()).toBe(0);
      // focus is back on the apply button that opened the form the duplicate dialog replaced
      await tab.waitForFunction(() => document.activeElement?.tagName === 'BUTTON');
      expect(await tab.evaluate(() => document.activeElement?.textContent?.trim())).toBe(
        t('de', 'public:lot.actions.apply'),
      );
      await tab.close();
      // and nothing was stored twice
      const stored = await world.admin.applications(lot.id);
      expect(stored.applications.map((a) => a.id)).toEqual([applicationId]);

      // /check-status through the phone menu
      await viaPhoneMenu(page, 'de', t('de', 'nav.checkStatus'));
      await page.waitForURL('**/check-status');
      const items = await checkStatus(page, 'de', family.phone);
      expect(await items.count()).toBe(1);
      const item = items.first();
      await visible(
        item.getByText(t('de', 'public:checkStatus.applicationNumber', { id: applicationId })),
      );
      await visible(item.getByRole('link', { name: exactly(lot.name.de) }));
      await visible(item.getByText(t('de', 'public:applicationStatus.pending'), { exact: true }));
      await visible(item.getByText(t('de', 'public:checkStatus.explain.pending')));
      await screenshot(page, 'flow-check-status-phone');
    }));
}
