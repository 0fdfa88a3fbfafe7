// Screenshots of the main pages at desktop (1366x900) and phone (390x844) width, in German, into
// test-output/e2e/<page>-<size>.png (the data the scenarios before left behind is on them).
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { DESKTOP, PHONE, SCREENSHOT_DIR, screenshot, visible } from '../support/browser';
import { containing, startsWith, t } from '../support/i18n';
import { logIn, type World } from '../support/world';
import { FAMILY_PHONE } from './family';

const SIZES: [string, BrowserContextOptions][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

export function screenshotsScenario(world: World): void {
  test('screenshots of the main pages at desktop and phone width', () =>
    world.scenario('screenshots', async () => {
      const lot = world.lots[0]!;
      const category = world.category(lot.category_id);
      const saved: string[] = [];
      for (const [size, options] of SIZES) {
        const page = await (await world.context(options)).newPage();
        const shot = async (name: string) => {
          saved.push(await screenshot(page, `${name}-${size}`));
        };
        const h1 = (name: string) => visible(page.getByRole('heading', { level: 1, name }));

        await page.goto('/');
        await h1(t('de', 'public:home.title'));
        await visible(
          page.getByRole('main').getByRole('link', { name: containing(category.name.de) }),
        );
        await shot('home');

        await page.goto(`/categories/${category.id}`);
        await h1(category.name.de);
        await visible(page.getByRole('main').getByRole('img', { name: lot.name.de }));
        await shot('category');

        await page.goto(`/lots/${lot.id}`);
        await h1(lot.name.de);
        await shot('lot');

        await page.goto('/check-status');
        await h1(t('de', 'public:checkStatus.title'));
        await page
          .getByLabel(startsWith(t('de', 'public:checkStatus.phoneLabel')))
          .fill(FAMILY_PHONE);
        await page
          .getByRole('main')
          .getByRole('button', { name: t('de', 'public:checkStatus.submit') })
          .click();
        await visible(
          page.getByRole('region', { name: t('de', 'public:checkStatus.resultsTitle') }),
        );
        await shot('check-status');

        await adminLogin(page, world, '/admin/lots');
        await h1(t('de', 'admin:lots.title'));
        await visible(page.getByRole('main').getByText(lot.name.de));
        await shot('admin-lots');

        await page.goto('/admin/applications');
        await h1(t('de', 'admin:applications.title'));
        await visible(page.getByRole('region'));
        await shot('admin-applications');

        await page.goto(`/admin/lots/${lot.id}/edit`);
        await h1(t('de', 'admin:lots.editTitle', { id: lot.id }));
        await visible(
          page
            .getByRole('region', { name: t('de', 'admin:photos.title') })
            .getByRole('img', { name: t('de', 'admin:photos.photoN', { n: 1 }) }),
        );
        await shot('admin-lot-form');
      }
      expect(saved.map((file) => path.basename(file)).sort()).toEqual(
        [
          'home',
          'category',
          'lot',
          'check-status',
          'admin-lots',
          'admin-applications',
          'admin-lot-form',
        ]
          .flatMap((name) => SIZES.map(([size]) => `${name}-${size}.png`))
          .sort(),
      );
      for (const file of saved) {
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
        expect(path.dirname(file)).toBe(SCREENSHOT_DIR);
      }
    }));
}

/** The admin's login in this context (its own session), landing on `url`. */
async function adminLogin(page: Page, world: World, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForURL('**/admin/login');
  await logIn(page, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL(`**${url}`);
}
