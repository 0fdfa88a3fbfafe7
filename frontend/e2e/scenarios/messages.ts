// Issue 30: a family WITHOUT e-mail applies for a lot on the public site in Ukrainian; staff
// approve it in the back-office; the approval reaches the providers' stand-in as a WhatsApp
// message to the family's number, in Ukrainian, with the handover link; the application card shows
// it delivered (or read). Staff send a prepared message from the card. axe on the messages
// section, the send dialog and the messages page at 390 and 1366 px.
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { eventually } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, dialog, enabled, screenshot, visible } from '../support/browser';
import { dialogRoundTrip } from '../support/dialogs';
import { containing, t } from '../support/i18n';
import { logIn, type World } from '../support/world';
import { applyForLot } from './family';

const FAMILY = { name: 'Natalija Bondarenko', phone: '+49 152 0456 7831', city: 'Dresden' };

/** Cyrillic letters: the text is Ukrainian, not the German template. */
const CYRILLIC = /[А-Яа-яІіЇїЄєҐґ]{3,}/;
const HANDOVER_LINK = /\/handover\/[0-9a-f]{64}(?![0-9a-f])/;

/** A staff member's browser at this width, logged in, on `url`. */
async function staffPage(world: World, size: BrowserContextOptions, url: string): Promise<Page> {
  const page = await (await world.context(size, 'de-DE')).newPage();
  await page.goto(url);
  await page.waitForURL(/\/admin\/login$/);
  await logIn(page, world.stack.admin.email, world.stack.admin.password);
  await page.waitForURL((u) => u.pathname === url.split('?')[0]);
  return page;
}

/** The card's messages, opened (the applications screen keeps them closed until asked). */
async function openMessages(card: Locator): Promise<Locator> {
  const toggle = card.getByRole('button', { name: t('de', 'admin:messages.section') });
  await visible(toggle);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return visible(card.getByRole('region', { name: t('de', 'admin:messages.section') }));
}

/** The messages page at one width: heading, channels, screenshot, axe. */
async function checkMessagesPage(page: Page, size: string): Promise<void> {
  await page.goto('/admin/messages');
  await visible(page.getByRole('heading', { level: 1, name: t('de', 'admin:messages.title') }));
  await visible(page.getByRole('region', { name: t('de', 'admin:messages.channel.whatsapp') }));
  await visible(
    page.getByRole('heading', { level: 2, name: t('de', 'admin:messages.page.failedTitle') }),
  );
  // (pages.e2e.ts saves admin-messages-<size>-<lang> of its own platform)
  await screenshot(page, `flow-messages-page-${size}`);
  await expectAccessible(page, `flow-messages-page-${size}-de`);
}

export function messagesScenario(world: World): void {
  test(
    'a family without e-mail applies in Ukrainian; staff approve it; the approval reaches the stand-in by WhatsApp in Ukrainian with the handover link and shows delivered on the card; a prepared message goes out from the card; axe on the new parts at 390 and 1366 px',
    () =>
      world.scenario('messages', async () => {
        const lot = await world.admin.createLot({
          category_id: 1,
          status: 'available',
          name: { de: 'Kinderbett aus Kiefer', uk: 'Дитяче ліжко з сосни' },
          description: { de: 'Mit Lattenrost.', uk: 'З ламелями.' },
        });
        await world.waitForApplicable(lot.id);

        // the family: a Ukrainian phone, no e-mail address
        const phone = await (await world.phone('uk-UA')).newPage();
        await phone.goto(`/lots/${lot.id}`);
        await visible(phone.getByRole('heading', { level: 1, name: lot.name.uk }));
        const applied = await applyForLot(phone, 'uk', FAMILY);
        // its confirmation goes by WhatsApp, in Ukrainian (no e-mail to send it to)
        await world.messages.waitFor(
          FAMILY.phone,
          'the confirmation, in Ukrainian',
          (m) => (m.template ?? '').includes('submitted') && m.language === 'uk',
        );

        // staff approve it in the back-office
        const admin = await world.adminPage('/admin/applications');
        const group = admin.getByRole('region', { name: containing(lot.name.de) });
        const card = group.getByRole('listitem').filter({ hasText: FAMILY.name }).first();
        await visible(card);
        await card
          .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
          .click();
        const confirm = await dialog(
          admin,
          t('de', 'admin:applications.actionTitle.approve', { name: FAMILY.name }),
        );
        await confirm
          .getByRole('button', { name: t('de', 'admin:applications.actions.approve') })
          .click();
        await visible(card.getByText(t('de', 'admin:applicationStatus.approved'), { exact: true }));

        // the approval at the stand-in: WhatsApp, the family's number, Ukrainian, the link
        const approval = await world.messages.waitFor(
          FAMILY.phone,
          'the approval by WhatsApp',
          (m) => (m.template ?? '').includes('approved') && m.channel === 'whatsapp',
        );
        expect(approval.language).toBe('uk');
        expect(approval.text).toMatch(CYRILLIC);
        expect(approval.text).toMatch(HANDOVER_LINK);
        // the same link as the application's (the family books its slot with it)
        const { applications } = await world.admin.applications(lot.id);
        const stored = applications.find((a) => a.id === applied) as
          { handover_url?: string | null } | undefined;
        const link = new URL(stored?.handover_url ?? '', world.stack.baseUrl).pathname;
        expect(approval.text).toContain(link);

        // the card shows it, delivered or read (the stand-in's callbacks arrive a moment later)
        const section = await openMessages(card);
        const approvedLabel = t('de', 'admin:messages.kind.approved');
        const item = section
          .getByRole('listitem')
          .filter({ has: admin.getByText(approvedLabel, { exact: true }) });
        const states = [
          t('de', 'admin:messages.status.delivered'),
          t('de', 'admin:messages.status.read'),
        ];
        await eventually('the approval delivered on the card', async () => {
          const text =
            (await item
              .first()
              .textContent({ timeout: 1000 })
              .catch(() => '')) ?? '';
          if (states.some((state) => text.includes(state))) return true;
          await section.getByRole('button', { name: t('de', 'admin:ui.refresh') }).click();
          return undefined;
        });
        await visible(item.first().getByText(t('de', 'admin:messages.channel.whatsapp')));
        await screenshot(admin, 'flow-application-messages-desktop');
        await expectAccessible(admin, 'admin-application-messages-desktop-de');

        // the send dialog: keyboard round trip (axe, Escape, focus back), then a message sent
        const send = section.getByRole('button', { name: t('de', 'admin:messages.send') });
        await enabled(send);
        const sendTitle = t('de', 'admin:messages.sendTitle');
        await dialogRoundTrip(admin, 'message-send-desktop-de', {
          opener: send,
          dialog: admin.getByRole('dialog', { name: sendTitle }),
        });
        await send.click();
        const chooser = await dialog(admin, sendTitle);
        await chooser
          .getByRole('radio', { name: t('de', 'admin:messages.prepared.still_interested.label') })
          .check();
        await chooser.getByRole('button', { name: t('de', 'admin:messages.sendButton') }).click();
        await visible(
          admin.getByRole('status').filter({ hasText: t('de', 'admin:messages.sent') }),
        );
        await visible(
          section
            .getByRole('listitem')
            .filter({ hasText: t('de', 'admin:messages.kind.staff_still_interested') }),
        );
        const prepared = await world.messages.waitFor(FAMILY.phone, 'the prepared message', (m) =>
          (m.template ?? '').includes('still_interested'),
        );
        expect(prepared.language).toBe('uk');
        expect(prepared.text).toMatch(CYRILLIC);

        // on a 390 px phone: the card's messages and the dialog
        const staffPhone = await staffPage(world, PHONE, '/admin/applications');
        const phoneCard = staffPhone
          .getByRole('region', { name: containing(lot.name.de) })
          .getByRole('listitem')
          .filter({ hasText: FAMILY.name })
          .first();
        const phoneSection = await openMessages(phoneCard);
        await visible(
          phoneSection
            .getByRole('listitem')
            .filter({ has: staffPhone.getByText(approvedLabel, { exact: true }) }),
        );
        await screenshot(staffPhone, 'flow-application-messages-phone');
        await expectAccessible(staffPhone, 'admin-application-messages-phone-de');
        await dialogRoundTrip(staffPhone, 'message-send-phone-de', {
          opener: phoneSection.getByRole('button', { name: t('de', 'admin:messages.send') }),
          dialog: staffPhone.getByRole('dialog', { name: sendTitle }),
        });

        // the messages page at both widths
        await checkMessagesPage(staffPhone, 'phone');
        const desk = await staffPage(world, DESKTOP, '/admin/messages');
        await checkMessagesPage(desk, 'desktop');
      }),
    // one family, three staff pages, seven axe runs
    300_000,
  );
}
