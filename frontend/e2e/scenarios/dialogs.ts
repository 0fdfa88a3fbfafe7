// Every dialog of both portals at desktop and phone width, in German and Ukrainian, on a page
// loaded fresh (the first opening of a lazily loaded dialog is the one that used to lose focus):
// opened from the keyboard, no serious axe finding while open, Escape closes it and focus is
// back on the element that opened it.
import type { Page } from 'playwright-core';
import { visible } from '../support/browser';
import { dialogRoundTrip } from '../support/dialogs';
import { t, type Lang } from '../support/i18n';
import type { World } from '../support/world';
import { LANGS, SIZES, logInAs } from './screenshots';

export function dialogsScenario(world: World): void {
  for (const [size, options] of SIZES) {
    for (const [lang, locale] of LANGS) {
      test(
        `every dialog at ${size} width in ${lang}: no serious axe finding, focus back on its opener`,
        () =>
          world.scenario(`dialogs ${size} ${lang}`, async () => {
            const page = await (await world.context(options, locale)).newPage();
            await publicDialogs(world, page, lang, `${size}-${lang}`, size === 'phone');
            await adminDialogs(world, page, lang, `${size}-${lang}`, size === 'phone');
          }),
        180_000,
      );
    }
  }
}

async function publicDialogs(world: World, page: Page, lang: Lang, suffix: string, phone: boolean) {
  const header = page.getByRole('banner');
  const wishTitle = t(lang, 'public:wish.title');
  const wishDialog = page.getByRole('dialog', { name: wishTitle });

  // the wish dialog, first opening on a freshly loaded page
  await page.goto('/');
  await visible(page.getByRole('heading', { level: 1, name: t(lang, 'public:home.title') }));
  if (phone) {
    // on a phone the wish button sits in the menu, which it closes: focus returns to the menu's button
    const menuButton = header.getByRole('button', { name: t(lang, 'nav.openMenu') });
    await dialogRoundTrip(page, `wish-${suffix}`, {
      opener: menuButton,
      open: async () => {
        await menuButton.click();
        const menu = await visible(header.getByRole('navigation', { name: t(lang, 'nav.mobile') }));
        await menu.getByRole('button', { name: t(lang, 'wish.button') }).click();
      },
      dialog: wishDialog,
      returnTo: header.getByRole('button', { name: t(lang, 'nav.openMenu') }),
    });
  } else {
    await dialogRoundTrip(page, `wish-${suffix}`, {
      opener: header.getByRole('button', { name: t(lang, 'wish.button') }),
      dialog: wishDialog,
    });
    // and a second time
    await dialogRoundTrip(page, `wish-again-${suffix}`, {
      opener: header.getByRole('button', { name: t(lang, 'wish.button') }),
      dialog: wishDialog,
    });
  }
  // from the footer
  await dialogRoundTrip(page, `wish-footer-${suffix}`, {
    opener: page.getByRole('contentinfo').getByRole('button', { name: t(lang, 'wish.button') }),
    dialog: wishDialog,
  });

  // the apply dialog and the photo viewer of a lot this browser has not applied for
  const lot = world.lots[3]!;
  await page.goto(`/lots/${lot.id}`);
  await visible(page.getByRole('heading', { level: 1, name: lot.name[lang] }));
  await dialogRoundTrip(page, `apply-${suffix}`, {
    opener: page.getByRole('button', { name: t(lang, 'public:lot.actions.apply') }),
    dialog: page.getByRole('dialog', { name: t(lang, 'public:apply.title') }),
  });
  await dialogRoundTrip(page, `photo-viewer-${suffix}`, {
    opener: page.getByRole('button', {
      name: t(lang, 'public:gallery.openFullscreen', { n: 1, count: lot.photos.length }),
    }),
    dialog: page.getByRole('dialog'),
  });
}

async function adminDialogs(world: World, page: Page, lang: Lang, suffix: string, phone: boolean) {
  const lot = world.lots[3]!;
  await page.goto('/admin/lots');
  await page.waitForURL('**/admin/login');
  await logInAs(page, lang, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL('**/admin/lots');
  await visible(page.getByRole('heading', { level: 1, name: t(lang, 'admin:lots.title') }));

  const deleteButton = await visible(
    page.getByRole('button', { name: t(lang, 'admin:lots.deleteOne', { id: lot.id }) }),
  );
  await dialogRoundTrip(page, `admin-delete-lot-${suffix}`, {
    opener: deleteButton,
    dialog: page.getByRole('alertdialog', { name: t(lang, 'admin:lots.deleteTitle') }),
  });

  if (phone) {
    await dialogRoundTrip(page, `admin-menu-${suffix}`, {
      opener: page.getByRole('button', { name: t(lang, 'admin:layout.openMenu') }),
      dialog: page.getByRole('dialog'),
    });
  }

  // the family of the first scenario still waits for the first lot
  await page.goto('/admin/applications');
  await visible(page.getByRole('heading', { level: 1, name: t(lang, 'admin:applications.title') }));
  const approve = await visible(
    page.getByRole('button', { name: t(lang, 'admin:applications.actions.approve') }),
  );
  await dialogRoundTrip(page, `admin-approve-${suffix}`, {
    opener: approve,
    dialog: page.getByRole('dialog').or(page.getByRole('alertdialog')),
  });

  await page.goto('/admin/users');
  await visible(page.getByRole('heading', { level: 1, name: t(lang, 'admin:users.title') }));
  await dialogRoundTrip(page, `admin-user-form-${suffix}`, {
    opener: page.getByRole('button', { name: t(lang, 'admin:users.add') }),
    dialog: page.getByRole('dialog', { name: t(lang, 'admin:users.addTitle') }),
  });
}
