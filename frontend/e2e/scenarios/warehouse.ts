// Issue 45: a volunteer on a 390 px phone points the camera at a printed lot label (Chromium's
// fake camera plays a video made in the test from the label PDF the API printed), sees the lot
// with its place, moves it to another place by that place's code and sees it there; the driver's
// item scan before "erledigt" warns about another lot by name; axe on the new pages and dialog at
// 390 and 1366 px.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { decodeQr, renderPdf, y4mOf } from '@furniture/infra';
import { eventually } from '../support/api';
import { expectAccessible } from '../support/axe';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  DESKTOP,
  PHONE,
  dialog,
  newContext,
  screenshot,
  visible,
} from '../support/browser';
import { containing, startsWith, t } from '../support/i18n';
import { logIn, type World } from '../support/world';

interface Place {
  id: number;
  name: string;
  code: string;
}
interface PlacedLot {
  id: number;
  name: { de: string; uk: string };
  label_code: string;
  storage_place_id: number | null;
}

/** A day in Berlin as YYYY-MM-DD. */
const berlinDay = (date: Date) => date.toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

/** A staff member's page in `browser` at this width, logged in, on `url`. */
async function staffPage(
  world: World,
  browser: Browser,
  size: BrowserContextOptions,
  url: string,
): Promise<Page> {
  const context = await newContext(browser, world.stack.baseUrl, size, 'de-DE');
  await context.grantPermissions(['camera']);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForURL(/\/admin\/login$/);
  await logIn(page, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL((u) => u.pathname === url.split('?')[0]);
  return page;
}

export function warehouseScenario(world: World): void {
  test(
    'a volunteer scans a printed lot label with a 390 px phone camera, moves the lot to another place by its code and sees it there; a wrong item at the handover is named; axe on the new pages at 390 and 1366 px',
    async () => {
      let camera: Browser | null = null;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-label-'));
      try {
        await world.scenario('warehouse', async () => {
          // staff (API): a location with two places, a lot on the first, another similar lot
          const location = await world.admin.call<{ id: number; name: string }>(
            'POST',
            '/locations/',
            { body: { name: 'Halle Süd', address: 'Hafenstraße 9', city: 'Leipzig' } },
          );
          const place = (name: string) =>
            world.admin.call<Place>('POST', '/storage-places/', {
              body: { name, location_id: location.id },
            });
          const shelf = await place('Halle B / Regal 3');
          const floor = await place('Halle B / Boden');
          const lot = await world.admin.createLot({
            category_id: 4,
            status: 'available',
            name: { de: 'Kleiderschrank weiß, 2-türig', uk: 'Шафа біла, дводверна' },
            description: { de: 'Buche, mit Spiegel.', uk: 'Бук, із дзеркалом.' },
          });
          const other = await world.admin.createLot({
            category_id: 4,
            status: 'available',
            name: { de: 'Kleiderschrank weiß, 3-türig', uk: 'Шафа біла, тридверна' },
            description: { de: 'Buche.', uk: 'Бук.' },
          });
          await world.admin.call('PATCH', `/lots/${lot.id}`, {
            body: { storage_place_id: shelf.id },
          });
          const placed = await world.admin.call<PlacedLot>('GET', `/lots/${lot.id}`);
          const otherCode = (await world.admin.call<PlacedLot>('GET', `/lots/${other.id}`))
            .label_code;

          // the printed label, filmed: its QR code opens the lot's scan page
          const [label] = await renderPdf(await world.admin.bytes(`/lots/${lot.id}/label.pdf`));
          expect(decodeQr(label!)).toBe(`${world.stack.baseUrl}/admin/scan/${placed.label_code}`);
          const video = path.join(dir, 'label.y4m');
          fs.writeFileSync(video, y4mOf(label!, { frames: 5, fps: 5 }));
          camera = await chromium.launch({
            executablePath: CHROMIUM,
            args: [
              ...CHROMIUM_ARGS,
              '--use-fake-device-for-media-stream',
              '--use-fake-ui-for-media-stream',
              `--use-file-for-fake-video-capture=${video}`,
            ],
          });

          // a volunteer's phone: the scan page, the camera, the lot with its place
          const phone = await staffPage(world, camera, PHONE, '/admin/scan');
          await visible(
            phone.getByRole('heading', { level: 1, name: t('de', 'admin:warehouse.scan.title') }),
          );
          await phone
            .getByRole('button', { name: t('de', 'admin:warehouse.scanner.start') })
            .click();
          await phone.waitForURL((u) => u.pathname === `/admin/scan/${placed.label_code}`);
          const result = phone.getByRole('region', { name: containing(lot.name.de) });
          await visible(result);
          await visible(result.getByText(shelf.name, { exact: true }));
          await screenshot(phone, 'admin-scan-lot-phone-de');
          await expectAccessible(phone, 'admin-scan-lot-phone-de');

          // Umlagern: the new place's code, typed as it is printed
          await result.getByRole('button', { name: t('de', 'admin:warehouse.scan.move') }).click();
          const move = phone.getByRole('region', {
            name: t('de', 'admin:warehouse.scan.moveTitle'),
          });
          await move
            .getByLabel(t('de', 'admin:warehouse.scan.placeCode'))
            .fill(`${floor.code.slice(0, 3)} ${floor.code.slice(3)}`.toLowerCase());
          await move
            .getByRole('button', { name: t('de', 'admin:warehouse.scan.moveHere') })
            .click();
          await visible(
            phone.getByText(t('de', 'admin:warehouse.scan.moved', { place: floor.name })),
          );
          await visible(result.getByText(floor.name, { exact: true }));
          expect(
            (await world.admin.call<PlacedLot>('GET', `/lots/${lot.id}`)).storage_place_id,
          ).toBe(floor.id);
          // and there it is, read again: the place's own page lists it
          await phone.goto(`/admin/scan/${floor.code}`);
          const there = phone.getByRole('region', { name: floor.name });
          await visible(there.getByRole('link', { name: lot.name.de }));
          await screenshot(phone, 'admin-scan-place-phone-de');
          await expectAccessible(phone, 'admin-scan-place-phone-de');
          await screenshot(phone, 'flow-warehouse-moved-phone');

          // the activity log has the move
          await eventually('the move in the activity log', async () => {
            const log = await world.admin.call<{ data: { action_type: string }[] }>(
              'GET',
              `/activity-logs?target_type=lot&target_id=${lot.id}`,
            );
            return log.data.some((e) => e.action_type === 'LOT_MOVE');
          });

          // the other new pages at both widths: storage places, a count with its result
          const desk = await staffPage(world, camera, DESKTOP, `/admin/scan/${placed.label_code}`);
          await visible(desk.getByRole('region', { name: containing(lot.name.de) }));
          await expectAccessible(desk, 'admin-scan-lot-desktop-de');
          for (const [size, page] of [
            ['phone', phone],
            ['desktop', desk],
          ] as const) {
            await page.goto(`/admin/storage-places?location=${location.id}`);
            await visible(page.getByRole('heading', { level: 2, name: shelf.name }));
            await screenshot(page, `admin-storage-places-${size}-de`);
            await expectAccessible(page, `admin-storage-places-${size}-de`);
            await page.goto(`/admin/storage-places/${shelf.id}/count`);
            const typed = page.getByLabel(t('de', 'admin:warehouse.scanner.code'));
            await typed.fill(otherCode);
            await page.getByRole('button', { name: t('de', 'admin:warehouse.count.add') }).click();
            await page
              .getByRole('button', { name: t('de', 'admin:warehouse.count.evaluate') })
              .click();
            await visible(
              page.getByRole('heading', {
                name: t('de', 'admin:warehouse.count.unexpected_one', { count: 1 }),
              }),
            );
            await screenshot(page, `admin-stock-count-${size}-de`);
            await expectAccessible(page, `admin-stock-count-${size}-de`);
          }

          // the handover: the driver scans the other wardrobe first (named), then the right one
          const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 48 * 3_600_000);
          const slot = await world.admin.call<{ id: number }>('POST', '/slots/', {
            body: {
              location_id: location.id,
              kind: 'pickup',
              starts_at: start.toISOString(),
              ends_at: new Date(start.getTime() + 3_600_000).toISOString(),
              capacity: 2,
            },
          });
          await world.waitForApplicable(lot.id);
          const applied = await world.admin.call<{ id: number }>('POST', '/applications/', {
            body: {
              applicant_name: 'Halyna Skan',
              applicant_phone: '+49 157 3456 7001',
              applicant_city: 'Leipzig',
              needs_delivery_help: false,
              lot_id: lot.id,
              language: 'uk',
            },
          });
          await world.admin.call('PATCH', `/applications/${applied.id}/status`, {
            body: { status: 'approved' },
          });
          const link = await eventually('the approval with its link', async () => {
            const { applications } = await world.admin.applications(lot.id);
            const found = applications.find((a) => a.id === applied.id) as
              { status: string; handover_url?: string | null } | undefined;
            return found?.status === 'approved' && found.handover_url
              ? found.handover_url
              : undefined;
          });
          const token = new URL(link, world.stack.baseUrl).pathname.split('/').pop()!;
          await world.admin.call('POST', `/handovers/${token}/booking`, {
            body: { slot_id: slot.id },
          });
          for (const [size, page] of [
            ['phone', phone],
            ['desktop', desk],
          ] as const) {
            await page.goto(`/admin/handovers?date=${berlinDay(start)}`);
            const stop = page
              .getByRole('listitem')
              .filter({ has: page.getByRole('heading', { name: containing('Halyna Skan') }) });
            await stop
              .getByRole('button', { name: startsWith(t('de', 'admin:handovers.scan.button')) })
              .click();
            const scan = await dialog(
              page,
              t('de', 'admin:handovers.scan.title', { name: 'Halyna Skan' }),
            );
            await scan.getByLabel(t('de', 'admin:warehouse.scanner.code')).fill(otherCode);
            await scan.getByRole('button', { name: t('de', 'admin:handovers.scan.check') }).click();
            await visible(
              scan.getByText(
                `Das ist Lot ${other.id} ${other.name.de}, gebucht ist Lot ${lot.id} ${lot.name.de}.`,
              ),
            );
            await expectAccessible(page, `dialog-handover-scan-${size}-de`);
            await scan.getByRole('button', { name: t('de', 'admin:handovers.scan.again') }).click();
            await scan.getByLabel(t('de', 'admin:warehouse.scanner.code')).fill(placed.label_code);
            await scan.getByRole('button', { name: t('de', 'admin:handovers.scan.check') }).click();
            await visible(scan.getByText(t('de', 'admin:handovers.scan.match')));
            await scan
              .getByRole('button', { name: t('de', 'admin:ui.close') })
              .last()
              .click();
            await visible(stop.getByText(t('de', 'admin:handovers.scan.checkedMatch')));
          }
          await screenshot(phone, 'flow-handover-item-checked-phone');
        });
      } finally {
        await (camera as Browser | null)?.close().catch(() => undefined);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    // a second browser, two widths, nine axe runs
    300_000,
  );
}
