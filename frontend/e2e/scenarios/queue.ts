// Two phones of one family apply for the same lot (one in German, one in Ukrainian); the admin
// approves one: the page follows the approval until the lot is reserved and the other
// application rejected, and the family's e-mails reach the SMTP catcher.
import { dialog, screenshot, visible } from '../support/browser';
import { containing, t } from '../support/i18n';
import type { World } from '../support/world';
import { applyForLot, checkStatus, type Applicant } from './family';

export function queueScenario(world: World): void {
  test("the family applies from two phones; the admin approves one, sees the lot reserved and the other rejected, and the family's e-mails reach the catcher", () =>
    world.scenario('two phones, one approval', async () => {
      const lot = world.lots[1]!;
      const mother: Applicant = {
        name: 'Iryna Melnyk',
        phone: '+49 151 2345 6702',
        email: 'iryna.melnyk@familie.example',
        city: 'Potsdam',
      };
      const son: Applicant = {
        name: 'Andrij Melnyk',
        phone: '+380 67 123 4503',
        email: 'andrij.melnyk@familie.example',
      };

      // phone 1 in German, phone 2 with a Ukrainian browser (the site follows it)
      const phoneDe = await (await world.phone('de-DE')).newPage();
      await phoneDe.goto(`/lots/${lot.id}`);
      await visible(phoneDe.getByRole('heading', { level: 1, name: lot.name.de }));
      const first = await applyForLot(phoneDe, 'de', mother);

      const phoneUk = await (await world.phone('uk-UA')).newPage();
      await phoneUk.goto(`/lots/${lot.id}`);
      await visible(phoneUk.getByRole('heading', { level: 1, name: lot.name.uk }));
      // the queue panel counts the first application
      await visible(phoneUk.getByText(t('uk', 'public:queue.competition.one')));
      const second = await applyForLot(phoneUk, 'uk', son);
      expect(second).not.toBe(first);

      // each phone's confirmation e-mail, in the language it applied in
      const received = await world.mail.waitFor(
        mother.email,
        new RegExp(`Bewerbung Nr\\. ${first} eingegangen`),
      );
      expect(received.Text).toContain(lot.name.de);
      await world.mail.waitFor(son.email, new RegExp(`Заявку № ${second} отримано`));

      // the admin approves the first application
      const admin = await world.adminPage('/admin/applications');
      const group = admin.getByRole('region', { name: containing(lot.name.de) });
      const card = (who: Applicant) =>
        group.getByRole('listitem').filter({ hasText: who.name }).first();
      await visible(card(mother));
      await visible(card(son));
      await visible(
        card(mother).getByText(t('de', 'admin:applications.nextInQueue'), { exact: true }),
      );
      await card(mother)
        .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
        .click();
      const confirm = await dialog(
        admin,
        t('de', 'admin:applications.actionTitle.approve', { name: mother.name }),
      );
      await confirm
        .getByLabel(t('de', 'admin:applications.noteOptionalLabel'))
        .fill('Abholung am Samstag vereinbart.');
      await confirm
        .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
        .click();
      // the approval is requested; the page follows it until the catalog has reserved the lot
      await visible(
        admin.getByRole('status').filter({
          hasText: t('de', 'admin:applications.approvalRequestedToast'),
        }),
      );
      await visible(
        card(mother).getByText(t('de', 'admin:applicationStatus.approved'), { exact: true }),
      );
      // the lot is reserved and the other application rejected, without pressing refresh
      await visible(group.getByText(t('de', 'admin:lotStatus.reserved'), { exact: true }));
      await visible(
        card(son).getByText(t('de', 'admin:applicationStatus.rejected'), { exact: true }),
      );
      await visible(card(son).getByText(t('de', 'admin:applications.rejectedMessage')));
      await screenshot(admin, 'flow-admin-applications-decided-desktop');
      expect((await world.admin.getLot(lot.id)).status).toBe('reserved');
      const stored = await world.admin.applications(lot.id);
      expect(Object.fromEntries(stored.applications.map((a) => [a.id, a.status]))).toEqual({
        [first]: 'approved',
        [second]: 'rejected',
      });

      // the e-mails of the decision
      const approval = await world.mail.waitFor(mother.email, /Gute Nachricht: .* reserviert/);
      expect(approval.Subject).toContain(lot.name.de);
      expect(approval.Text).toContain(String(first));
      const rejection = await world.mail.waitFor(
        son.email,
        new RegExp(`Ваша заявка № ${second}: на жаль, не схвалено`),
      );
      expect(rejection.To.map((to) => to.Address)).toEqual([son.email]);

      // the phones see it too: reserved for the first, refused for the second
      await phoneDe.reload();
      await visible(phoneDe.getByText(t('de', 'public:queue.reservedForYou')));
      expect(
        await phoneDe.getByRole('button', { name: t('de', 'public:lot.actions.apply') }).count(),
      ).toBe(0);
      await phoneUk.reload();
      await visible(phoneUk.getByText(t('uk', 'public:queue.reservedWarning')));
      await visible(
        phoneUk.getByRole('main').getByText(t('uk', 'public:lotStatus.reserved'), { exact: true }),
      );
      await phoneUk.goto('/check-status');
      const items = await checkStatus(phoneUk, 'uk', son.phone);
      await visible(
        items.first().getByText(t('uk', 'public:applicationStatus.rejected'), { exact: true }),
      );
      await visible(items.first().getByText(t('uk', 'public:checkStatus.explain.rejected')));
    }));
}
