// An administrator on a desktop: log in, create a lot, upload two photos (with progress shown),
// set the second as the main photo; the public lot page follows. Staff on a phone: a 12-MP
// photo goes up shrunk to 2560 px, one the server could not take is sent again (issue 46).
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, enabled, screenshot, settle, visible } from '../support/browser';
import { containing, startsWith, t } from '../support/i18n';
import { writeJpegs } from '../support/photos';
import { progressSeen, recordProgressBars, recordSentFiles, sentFiles } from '../support/uploads';
import { logIn, type World } from '../support/world';

/** The photo tiles of the lot form, in gallery order (the first is the main photo). */
async function tileSources(page: Page): Promise<string[]> {
  const gallery = page.getByRole('region', { name: t('de', 'admin:photos.title') });
  return gallery
    .getByRole('listitem')
    .locator('img')
    .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''))
    .then((sources) => sources.map(thumb));
}

export function adminLotScenario(world: World): void {
  test('an admin logs in, creates a lot, uploads two photos with progress shown and sets the main photo', () =>
    world.scenario('admin creates a lot', async () => {
      const category = world.category(4);
      const name = { de: 'Kleiderschrank mit Spiegel', uk: 'Шафа для одягу з дзеркалом' };

      // /admin/lots without a session → login → back on /admin/lots
      const page = await world.adminPage('/admin/lots');
      await visible(page.getByRole('heading', { level: 1, name: t('de', 'admin:lots.title') }));

      await page.getByRole('link', { name: t('de', 'admin:lots.create') }).click();
      await page.waitForURL('**/admin/lots/new');
      const form = page.getByRole('main');
      await form.getByLabel(startsWith(t('de', 'admin:lots.fields.nameDe'))).fill(name.de);
      await form.getByLabel(startsWith(t('de', 'admin:lots.fields.nameUk'))).fill(name.uk);
      await form
        .getByLabel(startsWith(t('de', 'admin:lots.fields.descriptionDe')))
        .fill('Zweitüriger Schrank mit Spiegel, Einlegeböden und Kleiderstange.');
      await form
        .getByLabel(startsWith(t('de', 'admin:lots.fields.descriptionUk')))
        .fill('Двостулкова шафа з дзеркалом, полицями та штангою для одягу.');
      await form
        .getByLabel(startsWith(t('de', 'admin:lots.fields.categoryId')))
        .selectOption({ value: String(category.id) });
      await form
        .getByLabel(startsWith(t('de', 'admin:lots.fields.dimensions')))
        .fill('100 × 60 × 190');
      await form.getByLabel(startsWith(t('de', 'admin:lots.fields.location'))).fill('10115');
      await form.getByRole('button', { name: t('de', 'admin:lots.createSubmit') }).click();

      // back on the list, with a confirmation and the new row
      await page.waitForURL('**/admin/lots');
      await visible(
        page
          .getByRole('status')
          .filter({ hasText: t('de', 'admin:lots.created', { name: name.de }) }),
      );
      const row = await visible(page.getByRole('row').filter({ hasText: name.de }));
      const edit = row.getByRole('link', { name: /bearbeiten/ });
      const href = (await edit.getAttribute('href')) ?? '';
      const lotId = Number(/\/admin\/lots\/(\d+)\/edit$/.exec(href)?.[1]);
      expect(lotId).toBeGreaterThan(0);
      await visible(row.getByText(t('de', 'admin:lotStatus.available'), { exact: true }));

      // edit: two photos through the file picker, each with its progress bar
      await edit.click();
      await page.waitForURL(`**/admin/lots/${lotId}/edit`);
      await visible(
        page.getByRole('heading', { name: t('de', 'admin:lots.editTitle', { id: lotId }) }),
      );
      await visible(page.getByText(t('de', 'admin:photos.none')));
      const { paths } = await writeJpegs([
        { name: 'schrank-vorne.jpg', kind: 'wardrobe', hue: 25 },
        { name: 'schrank-offen.jpg', kind: 'wardrobe', hue: 200 },
      ]);
      await recordProgressBars(page);
      await page.getByLabel(t('de', 'admin:photos.choose')).setInputFiles(paths);
      await visible(
        page.getByRole('progressbar', {
          name: t('de', 'admin:photos.uploading', { file: 'schrank-vorne.jpg' }),
        }),
      );
      const gallery = page.getByRole('region', { name: t('de', 'admin:photos.title') });
      await visible(gallery.getByRole('img', { name: t('de', 'admin:photos.photoN', { n: 2 }) }));
      // both bars reached 100 % and are gone a second later
      await page.getByRole('progressbar').first().waitFor({ state: 'detached' });
      const seen = await progressSeen(page);
      for (const file of ['schrank-vorne.jpg', 'schrank-offen.jpg']) {
        const values = seen[t('de', 'admin:photos.uploading', { file })];
        expect(values?.[0]).toBe(0);
        expect(values?.at(-1)).toBe(100);
      }
      // the first upload is the main photo; the media service and the catalogue agree on both
      await visible(gallery.getByText(t('de', 'admin:photos.main'), { exact: true }));
      await world.waitForLot(lotId, (lot) => lot.photos.length === 2);
      await page.reload();
      // the tiles are final once the media service's list is in (set-main is enabled then)
      const setMain = await visible(
        gallery.getByRole('button', { name: t('de', 'admin:photos.setMain') }),
      );
      await enabled(setMain);
      const before = await tileSources(page);
      expect(before).toHaveLength(2);
      await settle(page);
      await screenshot(page, 'flow-admin-lot-photos-desktop');

      // the second photo becomes the main one
      await setMain.click();
      await page.waitForFunction(
        ([first]) => {
          const img = document.querySelector('section[aria-labelledby="lot-photos"] li img');
          return img?.getAttribute('src')?.endsWith(first!) ?? false;
        },
        [before[1]!.split('/').pop()],
      );
      expect(await tileSources(page)).toEqual([before[1], before[0]]);
      const lot = await world.waitForLot(lotId, (l) => thumb(l.photos[0]) === before[1]);
      expect(lot.photos.map(thumb)).toEqual([before[1], before[0]]);

      // the family sees it: the lot in its category, the new main photo first
      const family = await (await world.phone()).newPage();
      await family.goto(`/categories/${category.id}`);
      const card = await visible(
        family.getByRole('main').getByRole('link', { name: containing(name.de) }),
      );
      expect(thumb((await card.locator('img').getAttribute('src')) ?? '')).toBe(before[1]);
      await card.click();
      await visible(family.getByRole('heading', { level: 1, name: name.de }));
      const main = family
        .getByRole('region', { name: t('de', 'public:gallery.label') })
        .locator('img');
      expect(thumb((await main.first().getAttribute('src')) ?? '')).toBe(before[1]);
    }));

  test('staff on a 390 px phone upload a 12-MP photo and a small one to a lot: the big one goes up shrunk to 2560 px as WebP; its first attempt the server could not take shows "try again", which sends it; axe with the failed photo at 390 and 1366 px', () =>
    world.scenario('staff phone photos', async () => {
      const lot = await world.admin.createLot({
        category_id: world.category(4).id,
        status: 'available',
        name: { de: 'Kommode mit drei Schubladen', uk: 'Комод із трьома шухлядами' },
        description: { de: 'Helles Holz, gut erhalten.', uk: 'Світле дерево, добрий стан.' },
      });
      const url = `/admin/lots/${lot.id}/edit`;
      const page = await (await world.context(PHONE, 'de-DE')).newPage();
      await page.goto(url);
      await page.waitForURL(/\/admin\/login$/);
      await logIn(page, world.stack.admin.email, world.stack.admin.password);
      await page.waitForURL((u) => u.pathname === url);
      await visible(page.getByText(t('de', 'admin:photos.none')));

      const { paths } = await writeJpegs([
        {
          name: 'kommode-handy.jpg',
          kind: 'wardrobe',
          hue: 140,
          size: { width: 4000, height: 3000 },
        },
        { name: 'kommode-klein.jpg', kind: 'wardrobe', hue: 300 },
      ]);
      // the first upload meets a media service that is away (503), as the gateway answers then
      let refused = 0;
      await page.route('**/api/v1/lots/*/photos', (route) =>
        route.request().method() === 'POST' && refused++ === 0
          ? route.fulfill({
              status: 503,
              contentType: 'application/json',
              body: JSON.stringify({
                success: false,
                code: 'SERVICE_UNAVAILABLE',
                message: 'Der Dienst ist vorübergehend nicht erreichbar.',
              }),
            })
          : route.fallback(),
      );
      await recordSentFiles(page);
      await page.getByLabel(t('de', 'admin:photos.choose')).setInputFiles(paths);
      const rows = page.getByRole('list', { name: t('de', 'admin:photos.uploads') });
      const retry = await visible(
        rows.getByRole('button', { name: `${t('de', 'upload.retry')} (kommode-handy.jpg)` }),
      );
      const gallery = page.getByRole('region', { name: t('de', 'admin:photos.title') });
      await visible(gallery.getByRole('img', { name: t('de', 'admin:photos.photoN', { n: 1 }) }));
      await screenshot(page, 'flow-admin-photo-retry-phone');
      await expectAccessible(page, 'admin-lot-photo-failed-phone');
      await page.setViewportSize(DESKTOP.viewport!);
      await expectAccessible(page, 'admin-lot-photo-failed-desktop');

      await retry.click();
      await visible(gallery.getByRole('img', { name: t('de', 'admin:photos.photoN', { n: 2 }) }));
      await rows.waitFor({ state: 'detached' });
      // the phone's photo went up shrunk (both attempts), the small one as it was
      const shrunk = {
        name: expect.stringMatching(/^photo_\d+\.webp$/),
        type: 'image/webp',
        width: 2560,
        height: 1920,
        sha256: expect.any(String),
      };
      expect(await sentFiles(page)).toEqual([
        shrunk,
        {
          name: 'kommode-klein.jpg',
          type: 'image/jpeg',
          width: 1200,
          height: 800,
          sha256: expect.any(String),
        },
        shrunk,
      ]);
      // the media service took the 2560 px photo
      const photos = await world.admin.call<{ data: { width: number; height: number }[] }>(
        'GET',
        `/lots/${lot.id}/photos`,
      );
      expect(photos.data.map((p) => `${p.width}x${p.height}`).sort()).toEqual([
        '1200x800',
        '2560x1920',
      ]);
    }));
}

/** The thumbnail address of a photo address (the media service's naming). */
const thumb = (url: string | undefined) =>
  (url ?? '').replace(/-(medium|large)\.webp$/, '-thumbnail.webp');
