// The back-office's date filters in an English browser: typed and shown as TT.MM.JJJJ (German)
// or ДД.ММ.РРРР (Ukrainian), never the browser's "mm/dd/yyyy"; a wrong date says why.
import { DESKTOP, visible } from '../support/browser';
import { t } from '../support/i18n';
import type { World } from '../support/world';
import { logInAs } from './screenshots';

export function dateInputScenario(world: World): void {
  test('the date filters of the lots are typed and shown in German / Ukrainian order in an English browser', () =>
    world.scenario('date filters', async () => {
      const lot = world.lots[0]!;
      const page = await (await world.context(DESKTOP, 'en-US')).newPage();
      await page.goto('/admin/lots');
      await page.waitForURL('**/admin/login');
      await logInAs(page, 'de', world.stack.admin.email, world.stack.admin.password);
      await page.waitForURL('**/admin/lots');
      const main = page.getByRole('main');
      await visible(main.getByText(lot.name.de));

      const from = page.getByLabel(t('de', 'admin:lots.dateFrom'), { exact: true });
      const to = page.getByLabel(t('de', 'admin:lots.dateTo'), { exact: true });
      expect(await from.getAttribute('type')).toBe('text');
      expect(await from.getAttribute('placeholder')).toBe(t('de', 'date.placeholder'));

      // a wrong day is refused with a reason, the list stays as it was
      await from.fill('31.02.2026');
      await from.press('Tab');
      expect(await from.getAttribute('aria-invalid')).toBe('true');
      await visible(page.getByText(t('de', 'date.invalid')));
      await visible(main.getByText(lot.name.de));

      // lots created from 1 January 2020 on: all; up to 1 January 2020: none
      await from.fill('01.01.2020');
      await from.press('Tab');
      expect(await from.getAttribute('aria-invalid')).toBeNull();
      await visible(main.getByText(lot.name.de));
      await to.fill('1.1.2020');
      await visible(main.getByText(t('de', 'admin:lots.empty')));
      const stored = await page.evaluate(() => localStorage.getItem('lot-management'));
      expect(JSON.parse(stored!)).toMatchObject({ dateFrom: '2020-01-01', dateTo: '2020-01-01' });

      // in Ukrainian the same fields say ДД.ММ.РРРР and keep the typed days
      await page.getByRole('button', { name: 'UA Українська', exact: true }).first().click();
      const fromUk = page.getByLabel(t('uk', 'admin:lots.dateFrom'), { exact: true });
      await visible(fromUk);
      expect(await fromUk.getAttribute('placeholder')).toBe(t('uk', 'date.placeholder'));
      expect(await fromUk.inputValue()).toBe('01.01.2020');
      await page.getByRole('button', { name: 'DE Deutsch', exact: true }).first().click();
      await visible(page.getByLabel(t('de', 'admin:lots.dateFrom'), { exact: true }));
    }));
}
