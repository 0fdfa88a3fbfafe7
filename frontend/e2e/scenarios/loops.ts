// Issue 19 in the browser: a reservation whose pickup date passed lapses and the lot is offered
// to the next family; a new lot shows the wish it matches and staff notify the family; the
// impact dashboard draws its charts from the events of the whole run.
import { dialog, screenshot, visible } from '../support/browser';
import { containing, t } from '../support/i18n';
import { eventually } from '../support/api';
import type { World } from '../support/world';

/** YYYY-MM-DD `days` from today (the browser's and the services' zone are the machine's). */
function dayFromToday(days: number): string {
  const d = new Date();
  const date = new Date(d.getFullYear(), d.getMonth(), d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
const german = (day: string) => day.split('-').reverse().join('.');

interface StaffApplication {
  id: number;
  status: string;
  pickup_by: string | null;
  pickup_overdue: boolean;
  next_in_queue_after: number | null;
}

export function loopsScenario(world: World): void {
  test('a reservation whose pickup date passed lapses with one action and the lot is offered to the next family in the queue', () =>
    world.scenario('pickup lapse', async () => {
      const lot = await world.admin.createLot({
        category_id: 6,
        status: 'available',
        name: { de: 'Kommode mit drei Schubladen', uk: 'Комод із трьома шухлядами' },
        description: { de: 'Weiß, 80 cm breit.', uk: 'Білий, 80 см завширшки.' },
      });
      await world.waitForApplicable(lot.id);
      const families = [
        {
          name: 'Halyna Bondar',
          phone: '+49 152 0000 1901',
          email: 'halyna@familie.example',
          language: 'uk',
        },
        {
          name: 'Marta Kravets',
          phone: '+49 152 0000 1902',
          email: 'marta@familie.example',
          language: 'de',
        },
      ];
      const ids: number[] = [];
      for (const f of families) {
        const created = await world.admin.call<{ id: number }>('POST', '/applications/', {
          body: {
            applicant_name: f.name,
            applicant_phone: f.phone,
            applicant_email: f.email,
            applicant_city: 'Berlin',
            needs_delivery_help: false,
            lot_id: lot.id,
            language: f.language,
          },
        });
        ids.push(created.id);
      }
      const [first, second] = ids as [number, number];
      const [halyna, marta] = families as [(typeof families)[0], (typeof families)[0]];

      // the admin approves the first family; the dialog proposes a pickup date a week ahead
      const admin = await world.adminPage('/admin/applications');
      const group = admin.getByRole('region', { name: containing(lot.name.de) });
      const card = (name: string) => group.getByRole('listitem').filter({ hasText: name }).first();
      await card(halyna.name)
        .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
        .click();
      const confirm = await dialog(
        admin,
        t('de', 'admin:applications.actionTitle.approve', { name: halyna.name }),
      );
      const date = confirm.getByLabel(t('de', 'admin:applications.pickup.dateLabel'));
      expect(await date.inputValue()).toBe(german(dayFromToday(7)));
      await date.fill(german(dayFromToday(3)));
      await confirm
        .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
        .click();
      await visible(
        card(halyna.name).getByText(
          t('de', 'admin:applications.pickup.until', { date: german(dayFromToday(3)) }),
        ),
      );
      // the family's approval mail, in Ukrainian, says until when
      const approval = await world.mail.waitFor(halyna.email, /зарезервовано/);
      expect(approval.Text).toContain(`заберіть його до ${german(dayFromToday(3))}`);

      // three days later the date has passed (the test moves it back instead of waiting)
      await world.setPickupDate(first, dayFromToday(-1));
      await admin.reload();
      await visible(
        card(halyna.name).getByText(t('de', 'admin:applications.pickup.overdueBadge'), {
          exact: true,
        }),
      );
      await screenshot(admin, 'flow-admin-pickup-overdue-desktop');
      await card(halyna.name)
        .getByRole('button', { name: t('de', 'admin:applications.pickup.lapse') })
        .click();
      const lapse = await dialog(
        admin,
        t('de', 'admin:applications.pickup.lapseTitle', { name: halyna.name }),
      );
      await lapse.getByRole('button', { name: t('de', 'admin:applications.pickup.lapse') }).click();
      await visible(
        admin.getByRole('status').filter({ hasText: t('de', 'admin:applications.pickup.lapsed') }),
      );

      // the lot is free again, the second family is back and offered it, still to be approved
      await world.waitForLot(lot.id, (l) => l.status === 'available');
      const stored = await eventually('the second family offered the lot', async () => {
        const { applications } = await world.admin.call<{ applications: StaffApplication[] }>(
          'GET',
          `/applications/?lot_id=${lot.id}&limit=10`,
        );
        const next = applications.find((a) => a.id === second);
        return next?.next_in_queue_after === first ? applications : undefined;
      });
      expect(stored.find((a) => a.id === first)?.status).toBe('rejected');
      expect(stored.find((a) => a.id === second)?.status).toBe('pending');
      await admin.reload();
      await visible(
        card(marta.name).getByText(
          t('de', 'admin:applications.pickup.offeredAfter', { id: first }),
        ),
      );
      await visible(
        card(marta.name).getByText(t('de', 'admin:applications.nextInQueue'), { exact: true }),
      );
      await screenshot(admin, 'flow-admin-next-in-queue-desktop');
      const told = await world.mail.waitFor(halyna.email, /не схвалено/);
      expect(told.Text).toContain('передали лот наступній родині');

      // every step in the activity log
      const log = await world.admin.call<{ data: { action_type: string; target_id: number }[] }>(
        'GET',
        '/activity-logs?limit=100',
      );
      const actions = log.data.filter((e) => e.target_id === first || e.target_id === second);
      expect(actions.map((e) => e.action_type)).toEqual(
        expect.arrayContaining(['APPROVE', 'REJECT', 'NEXT_IN_QUEUE']),
      );
    }));

  test('a new lot shows the wishes it matches, oldest first, and staff notify the families: by mail, or with a WhatsApp text in their language', () =>
    world.scenario('wish matches', async () => {
      const category = world.category(7);
      const wishes = [
        {
          applicant_name: 'Olha Tkachenko',
          applicant_whatsapp: '+49 157 0000 1911',
          furniture_category: category.id,
          furniture_description: 'Ein Schreibtisch für die Hausaufgaben unserer Kinder.',
          language: 'uk',
        },
        {
          applicant_name: 'Nina Weber',
          applicant_whatsapp: '+49 157 0000 1912',
          applicant_email: 'nina.weber@familie.example',
          furniture_category: category.id,
          furniture_description: 'Schreibtisch mit Schubladen.',
          language: 'de',
        },
      ];
      const ids: number[] = [];
      for (const body of wishes) {
        ids.push((await world.admin.call<{ id: number }>('POST', '/wishes/', { body })).id);
      }
      const lot = await world.admin.createLot({
        category_id: category.id,
        status: 'available',
        name: { de: 'Schreibtisch aus Buche', uk: 'Письмовий стіл із бука' },
        description: { de: '120 × 60 cm.', uk: '120 × 60 см.' },
      });
      await world.waitForApplicable(lot.id);

      const admin = await world.adminPage(`/admin/lots/${lot.id}`);
      const section = admin.getByRole('region', { name: t('de', 'admin:lots.wishMatches') });
      await visible(section.getByText(wishes[0]!.furniture_description));
      const names = await section.getByRole('listitem').allInnerTexts();
      expect(names[0]).toContain('Olha Tkachenko');
      expect(names[1]).toContain('Nina Weber');
      await screenshot(admin, 'flow-admin-lot-wish-matches-desktop');

      // the family without an address: staff get the prefilled WhatsApp text, in Ukrainian
      const olha = section.getByRole('listitem').filter({ hasText: 'Olha Tkachenko' });
      await olha.getByRole('button', { name: t('de', 'admin:wishes.notify') }).click();
      const link = olha.getByRole('link', { name: t('de', 'admin:wishes.openWhatsapp') });
      await visible(link);
      const href = (await link.getAttribute('href'))!;
      expect(href).toMatch(/^https:\/\/wa\.me\/4915700001911\?text=/);
      const text = decodeURIComponent(href.split('?text=')[1]!);
      expect(text).toContain('Добрий день, Olha Tkachenko!');
      expect(text).toContain(`«${lot.name.uk}» (лот № ${lot.id})`);
      expect(text).toContain(`/lots/${lot.id}`);

      // the family with an address gets a German mail
      const nina = section.getByRole('listitem').filter({ hasText: 'Nina Weber' });
      await nina.getByRole('button', { name: t('de', 'admin:wishes.notify') }).click();
      await visible(
        admin.getByRole('status').filter({ hasText: t('de', 'admin:wishes.notifyMail') }),
      );
      const mail = await world.mail.waitFor(wishes[1]!.applicant_email!, /passt zu Ihrem Wunsch/);
      expect(mail.Text).toContain(`/lots/${lot.id}`);

      // both notifications are recorded: a note on each wish and an entry in the log
      for (const id of ids) {
        const wish = await world.admin.call<{ admin_notes: string | null }>('GET', `/wishes/${id}`);
        expect(wish.admin_notes).toContain(`Lot #${lot.id}`);
      }
      const log = await eventually('the notifications in the activity log', async () => {
        const page = await world.admin.call<{
          data: { action_type: string; target_type: string; target_id: number }[];
        }>('GET', '/activity-logs?limit=100');
        const found = page.data.filter(
          (e) =>
            e.target_type === 'wish' && ids.includes(e.target_id) && e.action_type === 'CONTACT',
        );
        return found.length === 2 ? found : undefined;
      });
      expect(log).toHaveLength(2);

      // the wish page lists the lot too
      await admin.goto(`/admin/wishes/${ids[0]}`);
      const matches = admin.getByRole('region', { name: t('de', 'admin:wishes.matches') });
      await visible(matches.getByRole('link', { name: containing(lot.name.de) }));
    }));

  test('the impact dashboard draws its charts from the events of the run and gives each as CSV', () =>
    world.scenario('impact dashboard', async () => {
      const admin = await world.adminPage('/admin/impact');
      await visible(admin.getByRole('heading', { level: 1, name: t('de', 'admin:impact.title') }));
      const months = admin.getByTestId('impact-months');
      // bars of this month's lots: the seeded catalogue and the lots of the scenarios before
      await visible(months.locator('.recharts-bar-rectangle path').first());
      const received = admin
        .locator('.card')
        .filter({ hasText: t('de', 'admin:impact.lotsReceived') })
        .first();
      // the label is a paragraph, the figure under it is not (axe p-as-heading)
      const figure = Number(
        (await received.locator('p + span').first().innerText()).replace(/\D/g, ''),
      );
      expect(figure).toBeGreaterThanOrEqual(world.lots.length + 2);
      await visible(
        admin.getByTestId('impact-categories').locator('.recharts-bar-rectangle path').first(),
      );
      await visible(
        admin.getByTestId('impact-open-wishes').locator('.recharts-bar-rectangle path').first(),
      );
      await screenshot(admin, 'page-admin-impact-desktop');

      const [download] = await Promise.all([
        admin.waitForEvent('download'),
        months
          .getByRole('button', {
            name: t('de', 'admin:impact.csvOf', { chart: t('de', 'admin:impact.perMonth') }),
          })
          .click(),
      ]);
      const csv = await (await download.createReadStream()).toArray();
      const text = Buffer.concat(csv as Buffer[]).toString('utf8');
      const lines = text
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toBe('Monat;Lots erhalten;Lots übergeben');
      const thisMonth = dayFromToday(0).slice(0, 7);
      const row = lines.find((l) => l.startsWith(thisMonth))!;
      expect(Number(row.split(';')[1])).toBe(figure);
    }));
}
