// Issue 44: an admin creates a partner agency and invites a social worker; the social worker, on
// a 390 px phone with a German browser, accepts the invitation, logs in, lands on its own view
// (staff addresses send it back there) and refers a Ukrainian family (language uk) in the German
// UI; staff approve the application; the family's WhatsApp reaches the stand-in in Ukrainian with
// the handover link, and the social worker sees "genehmigt" and the same link. axe on the agencies
// page, the invitation dialog, the acceptance page, the referrer's list and form at 390 and
// 1366 px.
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { eventually } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, dialog, screenshot, visible } from '../support/browser';
import { dialogRoundTrip } from '../support/dialogs';
import { containing, startsWith, t } from '../support/i18n';
import { logIn, type World } from '../support/world';

const AGENCY = { name: 'Migrationsberatung Leipzig-Ost', city: 'Leipzig' };
const WORKER = {
  name: 'Sabine Lorenz',
  email: 'sabine.lorenz@e2e-beratung.test',
  password: 'Kranich-Teekanne-Mohnfeld-88',
};
const FAMILY = {
  name: 'Oksana Tkachenko',
  phone: '+49 152 0777 3412',
  city: 'Leipzig',
  address: 'Eisenbahnstraße 12',
};

/** Cyrillic letters: the text is Ukrainian, not the German template. */
const CYRILLIC = /[А-Яа-яІіЇїЄєҐґ]{3,}/;
const HANDOVER_LINK = /\/handover\/[0-9a-f]{64}(?![0-9a-f])/;
const INVITE_LINK = /https?:\/\/\S+\/admin\/invitation\/[0-9a-f]{64}/;

/** A field's label exactly (fields add " *"): "Passwort" is not "Passwort bestätigen". */
const label = (text: string) => new RegExp(`^\\s*${text}(\\s*\\*)?\\s*$`);

const de = (key: string, values?: Record<string, string | number>) =>
  t('de', `admin:${key}`, values);

/** An admin's browser at this width, logged in, on `url`. */
async function staffPage(world: World, size: BrowserContextOptions, url: string): Promise<Page> {
  const page = await (await world.context(size, 'de-DE')).newPage();
  await page.goto(url);
  await page.waitForURL(/\/admin\/login$/);
  await logIn(page, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL((u) => u.pathname === url.split('?')[0]);
  return page;
}

/** The agencies page at one width, then the invitation dialog's keyboard round trip. */
async function checkAgenciesPage(page: Page, size: string): Promise<void> {
  await visible(page.getByRole('heading', { level: 1, name: de('agencies.title') }));
  await visible(page.getByRole('heading', { level: 2, name: AGENCY.name }));
  await screenshot(page, `admin-agencies-${size}-de`);
  await expectAccessible(page, `admin-agencies-${size}-de`);
  await dialogRoundTrip(page, `agency-invite-${size}-de`, {
    opener: page.getByRole('button', { name: `${de('agencies.invite')} (${AGENCY.name})` }),
    dialog: page.getByRole('dialog', { name: de('agencies.inviteTitle', { name: AGENCY.name }) }),
  });
}

/** The referrer's list: the family's item once it shows `state` (reloads until then). */
async function referralItem(page: Page, state: string): Promise<Locator> {
  const item = page.getByRole('listitem', { name: FAMILY.name });
  await eventually(`the referral shown as "${state}"`, async () => {
    const shown = await item
      .getByText(state, { exact: true })
      .isVisible()
      .catch(() => false);
    if (shown) return true;
    await page.getByRole('button', { name: de('ui.refresh') }).click();
    await page.waitForTimeout(500);
    return undefined;
  });
  return item;
}

export function partnersScenario(world: World): void {
  test(
    'an admin creates an agency and invites a social worker; on a 390 px phone the social worker accepts, logs in, refers a Ukrainian family in German; staff approve; the family gets the WhatsApp in Ukrainian with the handover link and the social worker sees "genehmigt" and the link; axe at 390 and 1366 px',
    () =>
      world.scenario('partners', async () => {
        const lot = await world.admin.createLot({
          category_id: 1,
          status: 'available',
          name: { de: 'Etagenbett aus Buche', uk: 'Двоярусне ліжко з бука' },
          description: { de: 'Mit zwei Matratzen.', uk: 'З двома матрацами.' },
        });
        await world.waitForApplicable(lot.id);

        // the admin: a new agency through the form, then the invitation with its link
        const admin = await world.adminPage('/admin/agencies');
        await visible(admin.getByRole('heading', { level: 1, name: de('agencies.title') }));
        const form = admin.getByRole('form', { name: de('agencies.newTitle') });
        await form.getByLabel(startsWith(de('agencies.name'))).fill(AGENCY.name);
        await form.getByLabel(startsWith(de('agencies.city'))).fill(AGENCY.city);
        await form
          .getByLabel(startsWith(de('agencies.contactEmail')))
          .fill('kontakt@e2e-beratung.test');
        await form.getByRole('button', { name: de('agencies.create') }).click();
        await checkAgenciesPage(admin, 'desktop');

        await admin
          .getByRole('button', { name: `${de('agencies.invite')} (${AGENCY.name})` })
          .click();
        const invite = await dialog(admin, de('agencies.inviteTitle', { name: AGENCY.name }));
        await invite.getByLabel(startsWith(de('agencies.inviteEmail'))).fill(WORKER.email);
        await invite.getByRole('button', { name: de('agencies.inviteSend') }).click();
        await visible(
          invite.getByRole('status').filter({
            hasText: de('agencies.invited', { email: WORKER.email }),
          }),
        );
        const inviteUrl = (await invite.getByText(INVITE_LINK).textContent())?.trim() ?? '';
        expect(inviteUrl).toMatch(INVITE_LINK);
        await screenshot(admin, 'dialog-agency-invited-desktop-de', { fullPage: false });
        await expectAccessible(admin, 'dialog-agency-invited-desktop-de', {
          include: '[role="dialog"]',
        });
        await invite.getByRole('button', { name: de('agencies.done') }).click();
        // the same link went out by mail
        const mail = await world.mail.waitFor(WORKER.email, /Einladung/);
        expect(mail.Text).toContain(new URL(inviteUrl).pathname);

        // the agencies page and its dialog on an admin's phone
        const adminPhone = await staffPage(world, PHONE, '/admin/agencies');
        await checkAgenciesPage(adminPhone, 'phone');

        // the social worker's phone: the invitation, then the login
        const phone = await (await world.phone('de-DE')).newPage();
        const invitation = new URL(inviteUrl).pathname;
        await phone.goto(invitation);
        await visible(phone.getByRole('heading', { level: 1, name: de('invitation.title') }));
        await screenshot(phone, 'admin-invitation-phone-de');
        await expectAccessible(phone, 'admin-invitation-phone-de');
        const wide = await (await world.desktop('de-DE')).newPage();
        await wide.goto(invitation);
        await visible(wide.getByRole('heading', { level: 1, name: de('invitation.title') }));
        await screenshot(wide, 'admin-invitation-desktop-de');
        await expectAccessible(wide, 'admin-invitation-desktop-de');
        await wide.close();

        await phone.getByLabel(startsWith(de('invitation.name'))).fill(WORKER.name);
        await phone.getByLabel(label(de('invitation.password'))).fill(WORKER.password);
        await phone.getByLabel(startsWith(de('invitation.confirm'))).fill(WORKER.password);
        await phone.getByRole('button', { name: de('invitation.submit') }).click();
        await visible(phone.getByRole('heading', { level: 1, name: de('invitation.doneTitle') }));
        await expectAccessible(phone, 'admin-invitation-done-phone-de');
        await phone.getByRole('link', { name: de('invitation.toLogin') }).click();
        await phone.waitForURL(/\/admin\/login$/);
        await logIn(phone, WORKER.email, WORKER.password);
        await phone.waitForURL(/\/admin\/referrals$/);
        await visible(phone.getByRole('heading', { level: 1, name: de('referrals.title') }));
        // the link works once: a second acceptance is told the link is spent
        const again = await (await world.phone('de-DE')).newPage();
        await again.goto(invitation);
        await again.getByLabel(startsWith(de('invitation.name'))).fill('Jemand Anderes');
        await again.getByLabel(label(de('invitation.password'))).fill(WORKER.password);
        await again.getByLabel(startsWith(de('invitation.confirm'))).fill(WORKER.password);
        await again.getByRole('button', { name: de('invitation.submit') }).click();
        await visible(
          again.getByRole('heading', { level: 1, name: de('invitation.unknownTitle') }),
        );
        await expectAccessible(again, 'admin-invitation-unknown-phone-de');

        // nothing else of the back-office: the drawer holds one entry, staff addresses lead back
        await phone.getByRole('button', { name: de('layout.openMenu') }).click();
        const nav = await visible(phone.getByRole('navigation', { name: de('layout.navigation') }));
        expect(await nav.getByRole('link').allTextContents()).toEqual([de('nav.referrals')]);
        await phone.keyboard.press('Escape');
        for (const staffUrl of ['/admin/applications', '/admin/users', '/admin/agencies']) {
          await phone.goto(staffUrl);
          await phone.waitForURL(/\/admin\/referrals$/);
        }
        await visible(phone.getByRole('heading', { level: 1, name: de('referrals.title') }));
        await screenshot(phone, 'admin-referrals-empty-phone-de');
        await expectAccessible(phone, 'admin-referrals-empty-phone-de');

        // "Familie anmelden": a Ukrainian family, in the German UI
        await phone.getByRole('link', { name: de('referrals.add') }).click();
        await visible(phone.getByRole('heading', { level: 1, name: de('referrals.formTitle') }));
        await expectAccessible(phone, 'admin-referral-form-phone-de');
        const lotField = phone.getByLabel(startsWith(de('referrals.fields.lot')));
        // the open lots arrive a moment after the form
        await eventually(
          'the lot among the choices',
          async () => (await lotField.locator('option', { hasText: lot.name.de }).count()) > 0,
        );
        await lotField.selectOption({ label: lot.name.de });
        await phone.getByLabel(startsWith(de('referrals.fields.name'))).fill(FAMILY.name);
        await phone.getByLabel(startsWith(de('referrals.fields.phone'))).fill(FAMILY.phone);
        await phone.getByLabel(startsWith(de('referrals.fields.whatsapp'))).fill(FAMILY.phone);
        await phone.getByLabel(startsWith(de('referrals.fields.city'))).fill(FAMILY.city);
        await phone.getByLabel(startsWith(de('referrals.fields.address'))).fill(FAMILY.address);
        await phone.getByLabel(startsWith(de('referrals.fields.householdSize'))).fill('5');
        await phone.getByLabel(startsWith(de('referrals.fields.language'))).selectOption('uk');
        await phone.getByLabel(de('referrals.fields.needsDeliveryHelp')).check();
        await phone
          .getByLabel(startsWith(de('referrals.fields.note')))
          .fill('Die Familie spricht wenig Deutsch.');
        await screenshot(phone, 'admin-referral-form-filled-phone-de');
        await phone.getByRole('button', { name: de('referrals.submit') }).click();
        await phone.waitForURL(/\/admin\/referrals$/);
        const waiting = await referralItem(phone, de('referrals.state.waiting'));
        await visible(waiting.getByText(de('referrals.queuePlace', { place: 1 })));
        await visible(waiting.getByText(lot.name.de));
        // its confirmation goes to the family by WhatsApp, in Ukrainian
        await world.messages.waitFor(
          FAMILY.phone,
          'the confirmation, in Ukrainian',
          (m) => (m.template ?? '').includes('submitted') && m.language === 'uk',
        );

        // staff see who referred the family and approve it
        const apps = await world.adminPage('/admin/applications');
        const group = apps.getByRole('region', { name: containing(lot.name.de) });
        const card = group.getByRole('listitem').filter({ hasText: FAMILY.name }).first();
        await visible(card);
        await visible(
          card.getByText(
            de('applications.referredBy', { agency: AGENCY.name, referrer: WORKER.name }),
          ),
        );
        await card.getByRole('button', { name: de('applications.actions.approve') }).click();
        const confirm = await dialog(
          apps,
          de('applications.actionTitle.approve', { name: FAMILY.name }),
        );
        await confirm.getByRole('button', { name: de('applications.actions.approve') }).click();
        await visible(card.getByText(de('applicationStatus.approved'), { exact: true }));

        // the family's WhatsApp at the stand-in: Ukrainian, with the handover link
        const approval = await world.messages.waitFor(
          FAMILY.phone,
          'the approval by WhatsApp',
          (m) => (m.template ?? '').includes('approved') && m.channel === 'whatsapp',
        );
        expect(approval.language).toBe('uk');
        expect(approval.text).toMatch(CYRILLIC);
        const sent = HANDOVER_LINK.exec(approval.text ?? '')?.[0];
        expect(sent).toBeDefined();

        // the social worker sees "genehmigt" and the same link to help the family book
        const approved = await referralItem(phone, de('referrals.state.approved'));
        expect(de('referrals.state.approved').toLowerCase()).toBe('genehmigt');
        const link = await visible(approved.getByRole('link', { name: HANDOVER_LINK }));
        expect(await link.textContent()).toContain(sent!);
        await visible(
          approved.getByRole('button', {
            name: de('referrals.copyLink', { name: FAMILY.name }),
          }),
        );
        await screenshot(phone, 'flow-referral-approved-phone');
        await expectAccessible(phone, 'admin-referrals-phone-de');
        // and is told by e-mail, in German
        await world.mail.waitFor(WORKER.email, /genehmigt/);

        // the referrer's pages at 1366 px
        const desk = await (await world.context(DESKTOP, 'de-DE')).newPage();
        await desk.goto('/admin/referrals');
        await desk.waitForURL(/\/admin\/login$/);
        await logIn(desk, WORKER.email, WORKER.password);
        await desk.waitForURL(/\/admin\/referrals$/);
        await referralItem(desk, de('referrals.state.approved'));
        await screenshot(desk, 'admin-referrals-desktop-de');
        await expectAccessible(desk, 'admin-referrals-desktop-de');
        await desk.getByRole('link', { name: de('referrals.add') }).click();
        await visible(desk.getByRole('heading', { level: 1, name: de('referrals.formTitle') }));
        await screenshot(desk, 'admin-referral-form-desktop-de');
        await expectAccessible(desk, 'admin-referral-form-desktop-de');
      }),
    // two lots of staff pages, a phone and a desktop for the social worker, fourteen axe runs
    360_000,
  );
}
