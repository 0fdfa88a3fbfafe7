// A family on a 390x844 phone (Ukrainian browser) sends a furniture wish from the header's menu.
import type { Page } from 'playwright-core';
import { dialog, screenshot, visible } from '../support/browser';
import { startsWith, t } from '../support/i18n';
import type { World } from '../support/world';

async function openWishFromHeader(page: Page) {
  const header = page.getByRole('banner');
  await header.getByRole('button', { name: t('uk', 'nav.openMenu') }).click();
  const menu = await visible(header.getByRole('navigation', { name: t('uk', 'nav.mobile') }));
  await menu.getByRole('button', { name: t('uk', 'wish.button') }).click();
  return dialog(page, t('uk', 'public:wish.title'));
}

export function wishScenario(world: World): void {
  test('the wish modal works from the header on a phone-sized viewport', () =>
    world.scenario('wish on a phone', async () => {
      const category = world.category(2);
      const wish = {
        name: 'Оксана Гнатюк',
        whatsapp: '+49 160 4567 8908',
        description: 'Дитяче ліжко для дворічної дитини, з матрацом.',
      };
      const page = await (await world.phone('uk-UA')).newPage();
      await page.goto('/');
      await visible(page.getByRole('heading', { level: 1, name: t('uk', 'public:home.title') }));
      // on a phone the header's wish button sits in its menu
      const inHeader = page
        .getByRole('banner')
        .getByRole('button', { name: t('uk', 'wish.button') });
      expect(await inHeader.isVisible()).toBe(false);

      let form = await openWishFromHeader(page);
      // the dialog fits the phone, and the page behind it does not scroll
      const submit = form.getByRole('button', { name: t('uk', 'public:wish.submit') });
      for (const part of [
        form.getByRole('heading', { name: t('uk', 'public:wish.title') }),
        submit,
      ]) {
        const box = (await part.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
        'hidden',
      );

      // sending it empty: every field says what is missing
      await submit.click();
      await visible(form.locator('[aria-invalid="true"]'));
      expect(await form.locator('[aria-invalid="true"]').count()).toBe(4);
      expect(await form.getByText(t('uk', 'validation.required'), { exact: true }).count()).toBe(4);
      await screenshot(page, 'flow-wish-errors-phone', { fullPage: false });
      const name = form.getByLabel(startsWith(t('uk', 'public:wish.fields.applicantName')));
      await name.fill(wish.name);
      expect(await name.getAttribute('aria-invalid')).toBeNull();

      // Escape closes it and unlocks the page; the menu opens it again
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });
      expect(
        await page.evaluate(() => getComputedStyle(document.documentElement).overflow),
      ).not.toBe('hidden');
      form = await openWishFromHeader(page);
      await form
        .getByLabel(startsWith(t('uk', 'public:wish.fields.applicantName')))
        .fill(wish.name);
      await form
        .getByLabel(startsWith(t('uk', 'public:wish.fields.applicantWhatsApp')))
        .fill(wish.whatsapp);
      await form
        .getByLabel(startsWith(t('uk', 'public:wish.fields.furnitureCategory')))
        .selectOption({ label: category.name.uk });
      await form
        .getByLabel(startsWith(t('uk', 'public:wish.fields.furnitureDescription')))
        .fill(wish.description);
      await form.getByRole('button', { name: t('uk', 'public:wish.submit') }).click();
      await visible(form.getByRole('status').getByText(t('uk', 'public:wish.successTitle')));
      await screenshot(page, 'flow-wish-sent-phone', { fullPage: false });
      await form
        .getByRole('button', { name: t('uk', 'actions.close'), exact: true })
        .last()
        .click();
      await form.waitFor({ state: 'detached' });

      // staff find it with the chosen category
      const found = await world.admin.call<{
        wishes: {
          applicant_name: string;
          furniture_category: number;
          furniture_description: string;
        }[];
      }>('GET', `/wishes/?search=${encodeURIComponent('Гнатюк')}`);
      expect(found.wishes).toEqual([
        expect.objectContaining({
          applicant_name: wish.name,
          furniture_category: category.id,
          furniture_description: wish.description,
        }),
      ]);
    }));
}
