// Issue 15, second chances in the browser: the admin approves the first family of a lot, which
// rejects the others; then cancels that reservation. The families rejected because of it come
// back to the queue in their old order, each told by e-mail in its language; the family the
// staff had rejected themselves stays rejected.
import { dialog, screenshot, visible } from '../support/browser';
import { containing, t } from '../support/i18n';
import { eventually } from '../support/api';
import type { World } from '../support/world';

interface StaffApplication {
  id: number;
  status: string;
  queue_position: number | null;
}

export function secondChanceScenario(world: World): void {
  test('a cancelled reservation brings the families it rejected back to the queue in their order, each mailed in its language; a rejection by staff stays', () =>
    world.scenario('second chance', async () => {
      const lot = await world.admin.createLot({
        category_id: 2,
        status: 'available',
        name: { de: 'Kinderbett mit Matratze', uk: 'Дитяче ліжко з матрацом' },
        description: { de: '70 × 140 cm, Buche.', uk: '70 × 140 см, бук.' },
      });
      await world.waitForApplicable(lot.id);
      const families = [
        { name: 'Oksana Hrytsenko', email: 'oksana.h@familie.example', language: 'uk' },
        { name: 'Larysa Pavlenko', email: 'larysa.p@familie.example', language: 'de' },
        { name: 'Dmytro Savchuk', email: 'dmytro.s@familie.example', language: 'uk' },
        { name: 'Viktor Lysenko', email: 'viktor.l@familie.example', language: 'de' },
      ];
      const ids: number[] = [];
      for (const [i, f] of families.entries()) {
        const created = await world.admin.call<{ id: number }>('POST', '/applications/', {
          body: {
            applicant_name: f.name,
            applicant_phone: `+49 152 0000 150${i}`,
            applicant_email: f.email,
            applicant_city: 'Leipzig',
            needs_delivery_help: false,
            lot_id: lot.id,
            language: f.language,
          },
        });
        ids.push(created.id);
      }
      const [holder, second, third, byStaff] = ids as [number, number, number, number];
      const [oksana, larysa, dmytro, viktor] = families as [
        (typeof families)[0],
        (typeof families)[0],
        (typeof families)[0],
        (typeof families)[0],
      ];
      // the staff turn the last family down themselves before anything else happens
      await world.admin.call('PATCH', `/applications/${byStaff}/status`, {
        body: { status: 'rejected', note: 'Familie hat bereits ein Bett bekommen.' },
      });

      // the admin approves the first family: the others are rejected because of it
      const admin = await world.adminPage('/admin/applications');
      const group = admin.getByRole('region', { name: containing(lot.name.de) });
      const card = (name: string) => group.getByRole('listitem').filter({ hasText: name }).first();
      const status = (name: string, key: string) =>
        visible(card(name).getByText(t('de', `admin:applicationStatus.${key}`), { exact: true }));
      await card(oksana.name)
        .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
        .click();
      const approve = await dialog(
        admin,
        t('de', 'admin:applications.actionTitle.approve', { name: oksana.name }),
      );
      await approve
        .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
        .click();
      await status(oksana.name, 'approved');
      await status(larysa.name, 'rejected');
      await status(dmytro.name, 'rejected');
      await world.mail.waitFor(larysa.email, /leider keine Zusage/);
      await world.mail.waitFor(dmytro.email, /не схвалено/);

      // the family cannot come after all: the admin cancels the reservation
      await card(oksana.name)
        .getByRole('button', { name: t('de', 'admin:applications.actions.cancel_reservation') })
        .click();
      const cancel = await dialog(
        admin,
        t('de', 'admin:applications.actionTitle.cancel_reservation', { name: oksana.name }),
      );
      await cancel
        .getByRole('button', { name: t('de', 'admin:applications.actions.cancel_reservation') })
        .click();

      // the lot is free again; the two families rejected because of the reservation are back,
      // in their old order behind the first; the staff's own rejection stays
      await world.waitForLot(lot.id, (l) => l.status === 'available');
      const stored = await eventually('the rivals back in the queue', async () => {
        const { applications } = await world.admin.call<{ applications: StaffApplication[] }>(
          'GET',
          `/applications/?lot_id=${lot.id}&limit=10`,
        );
        const byId = new Map(applications.map((a) => [a.id, a]));
        return byId.get(second)?.status === 'pending' && byId.get(third)?.status === 'pending'
          ? byId
          : undefined;
      });
      expect(stored.get(holder)).toMatchObject({ status: 'pending', queue_position: 1 });
      expect(stored.get(second)).toMatchObject({ status: 'pending', queue_position: 2 });
      expect(stored.get(third)).toMatchObject({ status: 'pending', queue_position: 3 });
      expect(stored.get(byStaff)).toMatchObject({ status: 'rejected', queue_position: null });

      await admin.reload();
      await status(larysa.name, 'pending');
      await status(dmytro.name, 'pending');
      await status(viktor.name, 'rejected');
      await visible(card(larysa.name).getByLabel(t('de', 'admin:applications.place', { n: 2 })));
      await visible(card(dmytro.name).getByLabel(t('de', 'admin:applications.place', { n: 3 })));
      await screenshot(admin, 'flow-admin-second-chance-desktop');

      // each family is told in its language; the family rejected by staff hears nothing new
      const back = await world.mail.waitFor(larysa.email, /Wieder in der Warteschlange/);
      expect(back.Subject).toContain(lot.name.de);
      expect(back.Text).toContain(`Bewerbung Nr. ${second}`);
      const backUk = await world.mail.waitFor(dmytro.email, /Знову в черзі/);
      expect(backUk.Subject).toContain(lot.name.uk);
      await world.mail.waitFor(oksana.email, /Бронювання скасовано/);
      const toViktor = await world.mail.to(viktor.email);
      expect(toViktor.some((m) => /Warteschlange/.test(m.Subject))).toBe(false);

      // the activity log names the way back
      const log = await world.admin.call<{ data: { action_type: string; target_id: number }[] }>(
        'GET',
        '/activity-logs?limit=100',
      );
      const returned = log.data.filter((e) => e.target_id === second || e.target_id === third);
      expect(returned.map((e) => e.action_type)).toEqual(expect.arrayContaining(['RECONSIDER']));
    }));
}
