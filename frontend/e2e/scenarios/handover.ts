// Issue 29: a family books its slot through the personal link of its approval, on a 390 px phone
// with a German browser (the page opens in the family's Ukrainian); a driver marks the stop done
// on the day plan from a phone; the application is completed. axe on the new pages (the family's
// page, the day plan, the slots, the locations) at 390 and 1366 px.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { eventually } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, dialog, screenshot, visible } from '../support/browser';
import { containing, startsWith, t } from '../support/i18n';
import { logIn, type World } from '../support/world';

const FAMILY = { name: 'Kateryna Savchenko', phone: '+49 157 3456 7829' };

/** A day in Berlin as YYYY-MM-DD. */
function berlinDay(date: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The staff pages of the handovers at one width: each one's heading, a screenshot, then axe. */
async function checkStaffPages(page: Page, size: string, day: string, locationName: string) {
  await page.goto(`/admin/handovers?date=${day}`);
  await visible(
    page.getByRole('heading', { level: 1, name: t('de', 'admin:handovers.plan.title') }),
  );
  await visible(page.getByRole('heading', { level: 2, name: containing(FAMILY.name) }));
  await screenshot(page, `admin-day-plan-${size}-de`);
  await expectAccessible(page, `admin-day-plan-${size}-de`);

  await page.goto('/admin/handovers/slots');
  await visible(
    page.getByRole('heading', { level: 1, name: t('de', 'admin:handovers.slots.title') }),
  );
  await visible(page.getByRole('main').getByText(locationName, { exact: true }));
  await screenshot(page, `admin-slots-${size}-de`);
  await expectAccessible(page, `admin-slots-${size}-de`);

  await page.goto('/admin/handovers/locations');
  await visible(
    page.getByRole('heading', { level: 1, name: t('de', 'admin:handovers.locations.title') }),
  );
  await visible(page.getByRole('heading', { level: 2, name: locationName }));
  await screenshot(page, `admin-locations-${size}-de`);
  await expectAccessible(page, `admin-locations-${size}-de`);
}

/** A staff member's browser at this width, logged in, on `url`. */
async function staffPage(world: World, size: BrowserContextOptions, url: string): Promise<Page> {
  const page = await (await world.context(size, 'de-DE')).newPage();
  await page.goto(url);
  await page.waitForURL(/\/admin\/login$/);
  await logIn(page, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL((u) => u.pathname === url.split('?')[0]);
  return page;
}

export function handoverScenario(world: World): void {
  test(
    'a family books a slot in Ukrainian on a 390 px phone through its link; a driver marks it done on the day plan and the application is completed; axe on the new pages at 390 and 1366 px',
    () =>
      world.scenario('handover', async () => {
        // staff: a lot, a location and a pickup slot two days ahead (through the API)
        const lot = await world.admin.createLot({
          category_id: 1,
          status: 'available',
          name: { de: 'Kleiderschrank mit Spiegel', uk: 'Шафа з дзеркалом' },
          description: { de: 'Zwei Türen, Buche.', uk: 'Дві дверцята, бук.' },
        });
        await world.waitForApplicable(lot.id);
        const location = await world.admin.call<{ id: number; name: string; calendar_url: string }>(
          'POST',
          '/locations/',
          {
            body: {
              name: 'Lager Nord',
              address: 'Hafenstraße 4',
              city: 'Leipzig',
              notes: 'Hintereingang, bitte klingeln.',
            },
          },
        );
        // two days ahead: families book from HANDOVER_CHANGE_HOURS (24 h) on, before the pickup date
        const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 48 * 3_600_000);
        const end = new Date(start.getTime() + 3_600_000);
        const day = berlinDay(start);
        const slot = await world.admin.call<{ id: number; booked: number }>('POST', '/slots/', {
          body: {
            location_id: location.id,
            kind: 'pickup',
            starts_at: start.toISOString(),
            ends_at: end.toISOString(),
            capacity: 2,
          },
        });
        expect(slot.booked).toBe(0);

        // a Ukrainian family applies and is approved; its application carries the booking link
        const applied = await world.admin.call<{ id: number }>('POST', '/applications/', {
          body: {
            applicant_name: FAMILY.name,
            applicant_phone: FAMILY.phone,
            applicant_city: 'Leipzig',
            needs_delivery_help: false,
            lot_id: lot.id,
            language: 'uk',
          },
        });
        await world.admin.call('PATCH', `/applications/${applied.id}/status`, {
          body: { status: 'approved' },
        });
        const link = await eventually(
          'the approved application with its handover_url',
          async () => {
            const { applications } = await world.admin.applications(lot.id);
            const found = applications.find((a) => a.id === applied.id) as
              { status: string; handover_url?: string | null } | undefined;
            return found?.status === 'approved' && found.handover_url
              ? found.handover_url
              : undefined;
          },
        );
        const path = new URL(link, world.stack.baseUrl).pathname;
        expect(path).toMatch(/^\/handover\/[A-Za-z0-9_-]{20,100}$/);

        // the family's phone (a German browser): the page opens in the family's Ukrainian
        const phone = await (await world.phone('de-DE')).newPage();
        const outside: string[] = [];
        phone.on('request', (request) => {
          if (!request.url().startsWith(world.stack.baseUrl)) outside.push(request.url());
        });
        await phone.goto(path);
        await visible(phone.getByRole('heading', { level: 1, name: t('uk', 'handover:title') }));
        expect(await phone.locator('meta[name="referrer"]').getAttribute('content')).toBe(
          'no-referrer',
        );
        await visible(phone.getByRole('link', { name: lot.name.uk! }));
        await visible(phone.getByText(t('uk', 'handover:kind.pickup'), { exact: true }));
        await screenshot(phone, 'handover-phone-uk');
        await expectAccessible(phone, 'handover-phone-uk');
        await phone
          .getByRole('button', { name: startsWith(t('uk', 'handover:slots.book')) })
          .first()
          .click();
        await visible(phone.getByText(t('uk', 'handover:notice.booked')));
        const booking = phone.getByRole('region', { name: t('uk', 'handover:booking.title') });
        await visible(booking.getByText(location.name));
        const ics = await booking
          .getByRole('link', { name: t('uk', 'handover:booking.calendar') })
          .getAttribute('href');
        const calendar = await phone.request.get(ics!);
        expect(calendar.status()).toBe(200);
        expect(await calendar.text()).toContain('BEGIN:VCALENDAR');
        await screenshot(phone, 'handover-booked-phone-uk');
        await expectAccessible(phone, 'handover-booked-phone-uk');
        // the cancel dialog, then kept
        await booking.getByRole('button', { name: t('uk', 'handover:booking.cancel') }).click();
        const cancel = await dialog(phone, t('uk', 'handover:cancelDialog.title'), 'alertdialog');
        await expectAccessible(phone, 'dialog-handover-cancel-phone-uk');
        await cancel.getByRole('button', { name: t('uk', 'handover:cancelDialog.keep') }).click();
        await cancel.waitFor({ state: 'detached' });
        expect(outside).toEqual([]);
        const booked = await world.admin.call<{ slots: { id: number; booked: number }[] }>(
          'GET',
          `/slots/?from=${day}&to=${day}&location_id=${location.id}`,
        );
        expect(booked.slots.find((s) => s.id === slot.id)?.booked).toBe(1);

        // the same page on a desktop
        const wide = await (await world.desktop('uk-UA')).newPage();
        await wide.goto(path);
        await visible(wide.getByRole('region', { name: t('uk', 'handover:booking.title') }));
        await screenshot(wide, 'handover-booked-desktop-uk');
        await expectAccessible(wide, 'handover-booked-desktop-uk');

        // a driver on a phone: the day plan of the slot's day, "erledigt"
        const driver = await staffPage(world, PHONE, `/admin/handovers?date=${day}`);
        const stop = driver
          .getByRole('listitem')
          .filter({ has: driver.getByRole('heading', { name: containing(FAMILY.name) }) });
        await visible(stop);
        await visible(stop.getByRole('link', { name: t('de', 'admin:handovers.plan.map') }));
        await stop
          .getByRole('button', {
            name: `${t('de', 'admin:handovers.plan.outcome.done')} (${FAMILY.name})`,
          })
          .click();
        const confirm = await dialog(
          driver,
          t('de', 'admin:handovers.plan.confirmTitle.done', { name: FAMILY.name }),
        );
        await expectAccessible(driver, 'dialog-handover-outcome-phone-de');
        await confirm
          .getByRole('button', { name: t('de', 'admin:handovers.plan.outcome.done') })
          .click();
        await visible(stop.getByText(t('de', 'admin:handovers.status.done'), { exact: true }));
        await screenshot(driver, 'flow-day-plan-done-phone');

        // the application is completed (and shows so in the back-office)
        await eventually('the application completed', async () => {
          const { applications } = await world.admin.applications(lot.id);
          return applications.find((a) => a.id === applied.id)?.status === 'completed';
        });
        const admin = await world.adminPage('/admin/applications');
        const group = admin.getByRole('region', { name: containing(lot.name.de) });
        const card = group.getByRole('listitem').filter({ hasText: FAMILY.name }).first();
        await visible(
          card.getByText(t('de', 'admin:applicationStatus.completed'), { exact: true }),
        );

        // the staff pages at both widths
        await checkStaffPages(driver, 'phone', day, location.name);
        const desk = await staffPage(world, DESKTOP, '/admin/handovers/locations');
        await checkStaffPages(desk, 'desktop', day, location.name);
      }),
    // two people, three widths, eleven axe runs
    300_000,
  );
}
