// Every main page of both portals at desktop (1366x900) and phone (390x844) width, in German and
// in Ukrainian: a screenshot into test-output/e2e/<page>-<size>-<lang>.png and an axe check
// (no serious or critical finding). What support/seed.ts put on the platform is on them.
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, SCREENSHOT_DIR, screenshot, visible } from '../support/browser';
import { dialogRoundTrip } from '../support/dialogs';
import { containing, startsWith, t, type Lang } from '../support/i18n';
import type { World } from '../support/world';
import { FAMILY_PHONE } from './family';

export const SIZES: [string, BrowserContextOptions][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];
export const LANGS: [Lang, 'de-DE' | 'uk-UA'][] = [
  ['de', 'de-DE'],
  ['uk', 'uk-UA'],
];

export const PUBLIC_PAGES = [
  'home',
  'categories',
  'category',
  'lot',
  'check-status',
  'donate',
  'terms',
  'privacy',
  'not-found',
] as const;
export const ADMIN_PAGES = [
  'admin-login',
  'admin-lots',
  'admin-lot',
  'admin-lot-form',
  'admin-lot-new',
  'admin-applications',
  'admin-categories',
  'admin-category-form',
  'admin-wishes',
  'admin-wish',
  'admin-donations',
  'admin-donation',
  'admin-donation-lot',
  'admin-users',
  'admin-activity',
  'admin-impact',
  'admin-privacy',
  'admin-messages',
  'admin-profile',
] as const;

export function screenshotsScenario(world: World): void {
  for (const [size, options] of SIZES) {
    for (const [lang, locale] of LANGS) {
      test(
        `every main page at ${size} width in ${lang}: screenshot, no serious axe finding`,
        () =>
          world.scenario(`pages ${size} ${lang}`, async () => {
            const page = await (await world.context(options, locale)).newPage();
            const saved = await visitEveryPage(world, page, lang, `${size}-${lang}`);
            expect(saved.map((file) => path.basename(file)).sort()).toEqual(
              [...PUBLIC_PAGES, ...ADMIN_PAGES].map((name) => `${name}-${size}-${lang}.png`).sort(),
            );
            for (const file of saved) {
              expect(fs.statSync(file).size).toBeGreaterThan(10_000);
              expect(path.dirname(file)).toBe(SCREENSHOT_DIR);
            }
          }),
        // about 30 pages, each with a screenshot and an axe pass: 1–2 minutes alone, over 5 when
        // make test runs the fault tests beside it on two cores
        600_000,
      );
    }
  }
}

async function visitEveryPage(world: World, page: Page, lang: Lang, suffix: string) {
  const lot = world.lots[0]!;
  const category = world.category(lot.category_id);
  const saved: string[] = [];
  const check = async (name: string) => {
    saved.push(await screenshot(page, `${name}-${suffix}`));
    await expectAccessible(page, `${name}-${suffix}`);
  };
  const h1 = (name?: string) =>
    visible(page.getByRole('heading', { level: 1, ...(name ? { name } : {}) }));
  const main = () => page.getByRole('main');

  await page.goto('/');
  await h1(t(lang, 'public:home.title'));
  await visible(main().getByRole('link', { name: containing(category.name[lang]) }));
  await check('home');

  await page.goto('/categories');
  await h1(t(lang, 'public:categories.title'));
  await visible(main().getByRole('link', { name: containing(category.name[lang]) }));
  await check('categories');

  await page.goto(`/categories/${category.id}`);
  await h1(category.name[lang]);
  await visible(main().getByRole('img', { name: lot.name[lang] }));
  await check('category');

  await page.goto(`/lots/${lot.id}`);
  await h1(lot.name[lang]);
  await visible(page.getByText(t(lang, 'public:lot.id', { id: lot.id })));
  await check('lot');

  await page.goto('/check-status');
  await h1(t(lang, 'public:checkStatus.title'));
  await page.getByLabel(startsWith(t(lang, 'public:checkStatus.phoneLabel'))).fill(FAMILY_PHONE);
  await main()
    .getByRole('button', { name: t(lang, 'public:checkStatus.submit') })
    .click();
  await visible(page.getByRole('region', { name: t(lang, 'public:checkStatus.resultsTitle') }));
  await check('check-status');

  await page.goto('/donate');
  await h1(t(lang, 'donate:title'));
  await visible(
    main().getByRole('combobox', { name: startsWith(t(lang, 'donate:item.category')) }),
  );
  await check('donate');

  await page.goto('/terms-and-delivery');
  await h1(t(lang, 'public:terms.title'));
  await check('terms');

  await page.goto('/privacy-policy');
  await h1(t(lang, 'public:privacy.title'));
  await check('privacy');

  await page.goto('/no-such-page');
  await h1();
  await check('not-found');

  // the back-office, in this browser's language
  await page.goto('/admin/lots');
  await page.waitForURL('**/admin/login');
  await h1(t(lang, 'admin:login.title'));
  await check('admin-login');
  await logInAs(page, lang, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL('**/admin/lots');
  await h1(t(lang, 'admin:lots.title'));
  await visible(main().getByText(lot.name.de));
  await check('admin-lots');

  await page.goto(`/admin/lots/${lot.id}`);
  await h1();
  await visible(main().getByText(lot.name.de));
  await check('admin-lot');

  await page.goto(`/admin/lots/${lot.id}/edit`);
  await h1(t(lang, 'admin:lots.editTitle', { id: lot.id }));
  await visible(
    page
      .getByRole('region', { name: t(lang, 'admin:photos.title') })
      .getByRole('img', { name: t(lang, 'admin:photos.photoN', { n: 1 }) }),
  );
  await check('admin-lot-form');

  await page.goto('/admin/lots/new');
  await h1(t(lang, 'admin:lots.newTitle'));
  await check('admin-lot-new');

  await page.goto('/admin/applications');
  await h1(t(lang, 'admin:applications.title'));
  await visible(page.getByRole('region'));
  await check('admin-applications');

  await page.goto('/admin/categories');
  await h1(t(lang, 'admin:categories.title'));
  await visible(main().getByText(category.name.de));
  await check('admin-categories');

  await page.goto('/admin/categories/new');
  await h1();
  await check('admin-category-form');

  await page.goto('/admin/wishes');
  await h1(t(lang, 'admin:wishes.title'));
  await check('admin-wishes');

  const wishes = await world.admin.call<{ wishes: { id: number }[] }>('GET', '/wishes/');
  const wish = wishes.wishes[0];
  if (!wish) throw new Error('no wish stored: the wish scenario runs before this one');
  await page.goto(`/admin/wishes/${wish.id}`);
  await h1();
  await check('admin-wish');

  // the donors' offers (support/seed.ts): one waiting, one accepted
  const donations = await world.admin.call<{
    donations: { id: number; status: string; donor_name: string; items: { id: number }[] }[];
  }>('GET', '/donations/');
  const waiting = donations.donations.find((d) => d.status === 'submitted');
  const accepted = donations.donations.find((d) => d.status === 'accepted');
  if (!waiting || !accepted) throw new Error('the seeded donations are missing');
  await page.goto('/admin/donations');
  await h1(t(lang, 'admin:donations.title'));
  await visible(main().getByRole('link', { name: waiting.donor_name }));
  await check('admin-donations');

  await page.goto(`/admin/donations/${waiting.id}`);
  await h1(t(lang, 'admin:donations.detailTitle', { id: waiting.id }));
  await visible(
    main().getByRole('img', { name: t(lang, 'admin:donations.photoN', { n: 1, item: 1 }) }),
  );
  await check('admin-donation');
  // the accept and decline dialogs, opened from the keyboard
  for (const status of ['accepted', 'declined'] as const) {
    await dialogRoundTrip(page, `admin-donation-${status}-${suffix}`, {
      opener: main().getByRole('button', { name: t(lang, `admin:donations.actions.${status}`) }),
      dialog: page.getByRole('dialog', {
        name: t(lang, `admin:donations.actionTitle.${status}`, { id: waiting.id }),
      }),
    });
  }

  await page.goto(`/admin/donations/${accepted.id}/items/${accepted.items[0]!.id}/lot`);
  await h1(t(lang, 'admin:donations.lotTitle', { n: 1, id: accepted.id }));
  await visible(main().getByRole('img', { name: t(lang, 'admin:photos.photoN', { n: 2 }) }));
  await check('admin-donation-lot');

  await page.goto('/admin/users');
  await h1(t(lang, 'admin:users.title'));
  await visible(main().getByText(world.stack.admin.email));
  await check('admin-users');

  await page.goto('/admin/activity');
  await h1(t(lang, 'admin:activity.title'));
  await check('admin-activity');

  await page.goto('/admin/impact');
  await h1(t(lang, 'admin:impact.title'));
  await check('admin-impact');

  await page.goto('/admin/privacy');
  await h1(t(lang, 'admin:privacy.title'));
  await check('admin-privacy');

  // WhatsApp and SMS (issue 30): the channels, the failed messages, the opt-out lookup
  await page.goto('/admin/messages');
  await h1(t(lang, 'admin:messages.title'));
  await visible(main().getByRole('region', { name: t(lang, 'admin:messages.channel.sms') }));
  await check('admin-messages');

  await page.goto('/admin/profile');
  await h1(t(lang, 'admin:profile.title'));
  await check('admin-profile');
  return saved;
}

/** The back-office login form in the page's language. */
export async function logInAs(
  page: Page,
  lang: Lang,
  email: string,
  password: string,
): Promise<void> {
  await visible(page.getByRole('heading', { level: 1 }));
  await page.getByLabel(t(lang, 'admin:login.email')).fill(email);
  await page.getByLabel(t(lang, 'admin:login.password')).fill(password);
  await page.getByRole('button', { name: t(lang, 'admin:login.submit') }).click();
}
