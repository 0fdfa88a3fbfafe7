/**
 * The donor's mails (issue 28) on the real SMTP catcher and broker: one per donation event with an
 * address, in the donor's language, naming the donation's number; the staff's reason of a decline
 * is written, their internal note never; no address, no mail.
 */
import type { Language } from '@furniture/contracts';
import { eventually, testUrls } from '@furniture/platform/testing';
import {
  donationStatusChanged,
  donationSubmitted,
  donor,
  freshAddress,
  type Donor,
} from './events';
import { startNotification, type NotificationUnderTest } from './harness';
import { mailbox, type CapturedMail } from './mailbox';

let svc: NotificationUnderTest;
let box: ReturnType<typeof mailbox>;

beforeAll(async () => {
  svc = await startNotification();
  box = mailbox(testUrls().mailApiUrl);
});
afterAll(async () => {
  await svc?.stop();
});

/** The mail records of a donation (the service's own collection), oldest first. */
function recordsOf(donationId: number) {
  return svc.conn
    .collection('mails')
    .find({ donation_id: donationId })
    .sort({ occurred_at: 1, id: 1 })
    .toArray();
}

/** Waits until `count` mails of the donation have been sent and answers them. */
function sent(donationId: number, count: number) {
  return eventually(
    async () => {
      const records = await recordsOf(donationId);
      return records.length === count && records.every((r) => r.state === 'sent')
        ? records
        : undefined;
    },
    { timeoutMs: 15000, what: `${count} sent mail(s) of donation ${donationId}` },
  );
}

/** The mail whose subject starts so (the catcher answers newest first). */
const bySubject = (mails: CapturedMail[], start: string) => {
  const found = mails.find((m) => m.Subject.startsWith(start));
  if (!found) throw new Error(`no mail "${start}…" in ${mails.map((m) => m.Subject).join(' | ')}`);
  return found;
};

/** Everything a donor is mailed, in one language: the offer, then each status it can come to. */
async function wholeStory(language: Language, name: string) {
  const accepted = donor({ language, name, itemCount: 3, email: freshAddress('donor') });
  const declined = donor({ language, name, itemCount: 1, email: freshAddress('donor') });
  const expired = donor({ language, name, email: freshAddress('donor') });
  const cancelled = donor({ language, name, email: freshAddress('donor') });
  const note = { note: 'INTERN: Nachbar hat Schlüssel' };
  await svc.publish(donationSubmitted(accepted, { availableUntil: '2026-12-24' }));
  await svc.publish(donationStatusChanged(accepted, 'submitted', 'accepted', note));
  await svc.publish(donationStatusChanged(accepted, 'accepted', 'collected', note));
  await svc.publish(
    donationStatusChanged(declined, 'submitted', 'declined', {
      ...note,
      reason: 'Das Sofa ist zu stark beschädigt.',
    }),
  );
  await svc.publish(donationStatusChanged(expired, 'submitted', 'expired'));
  await svc.publish(
    donationStatusChanged(cancelled, 'accepted', 'cancelled', {
      ...note,
      reason: 'Unser Lager ist voll.',
    }),
  );
  const mails = {
    accepted: await box.waitFor(accepted.email!, 3),
    declined: (await box.waitFor(declined.email!, 1))[0]!,
    expired: (await box.waitFor(expired.email!, 1))[0]!,
    cancelled: (await box.waitFor(cancelled.email!, 1))[0]!,
  };
  const records = await sent(accepted.donationId, 3);
  expect(records.map((r) => r.kind)).toEqual([
    'donation_received',
    'donation_accepted',
    'donation_collected',
  ]);
  expect(records[0]).toMatchObject({
    application_id: null,
    lot_id: null,
    donation_id: accepted.donationId,
    to: accepted.email,
    language,
    attempts: 1,
    // the sent mail keeps no text (privacy.md)
    text: '',
    html: '',
  });
  const all = [...mails.accepted, mails.declined, mails.expired, mails.cancelled];
  for (const mail of all) {
    expect(mail.Text).not.toContain('INTERN');
    expect(mail.HTML).not.toContain('INTERN');
    expect(mail.Headers['Content-Language']).toEqual([language]);
    expect(mail.Headers['Auto-Submitted']).toEqual(['auto-generated']);
  }
  return { accepted, declined, expired, cancelled, mails };
}

/** Subject and text name the number. */
function namesNumber(mail: CapturedMail, d: Donor) {
  expect(mail.Subject).toContain(String(d.donationId));
  expect(mail.Text).toContain(String(d.donationId));
}

describe('the donor is mailed at each step', () => {
  test('when a German donor offers, is accepted and collected, or declined, expired or cancelled, then each gets the German mail with the number, what happens next and the reason', async () => {
    const s = await wholeStory('de', 'Jana Weber');
    const received = bySubject(s.mails.accepted, `Ihre Spende Nr. ${s.accepted.donationId} ist`);
    expect(received.Subject).toBe(
      `Ihre Spende Nr. ${s.accepted.donationId} ist eingegangen – Möbelbrücke`,
    );
    expect(received.Text).toContain('Guten Tag Jana Weber,');
    expect(received.Text).toContain('Ihr Angebot (3 Möbelstücke) ist bei uns eingegangen.');
    expect(received.Text).toContain(`Ihre Spendennummer ist ${s.accepted.donationId}.`);
    expect(received.Text).toContain('Unser Team sieht sich Ihr Angebot und die Fotos an');
    expect(received.Text).toContain('Die Möbel bleiben bei Ihnen, bis wir sie abholen.');
    expect(received.Text).toContain('Ihr Angebot gilt bis zum 24.12.2026.');
    expect(received.Text).toContain('Telefon: +49 30 5550100');
    expect(received.HTML).toContain('Ihr Angebot gilt bis zum 24.12.2026.');

    const accepted = bySubject(s.mails.accepted, `Ihre Spende Nr. ${s.accepted.donationId}: Wir`);
    namesNumber(accepted, s.accepted);
    expect(accepted.Text).toContain('Wir rufen Sie an, um einen Termin für die Abholung');

    const collected = bySubject(s.mails.accepted, 'Danke für Ihre Spende');
    expect(collected.Subject).toBe(
      `Danke für Ihre Spende Nr. ${s.accepted.donationId}! – Möbelbrücke`,
    );
    expect(collected.Text).toContain('wir haben die Möbel Ihrer Spende');

    namesNumber(s.mails.declined, s.declined);
    expect(s.mails.declined.Subject).toBe(
      `Ihre Spende Nr. ${s.declined.donationId}: leider können wir sie nicht annehmen – Möbelbrücke`,
    );
    expect(s.mails.declined.Text).toContain('Der Grund: Das Sofa ist zu stark beschädigt.');

    namesNumber(s.mails.expired, s.expired);
    expect(s.mails.expired.Subject).toBe(
      `Ihre Spende Nr. ${s.expired.donationId}: Angebot abgelaufen – Möbelbrücke`,
    );
    expect(s.mails.expired.Text).toContain('Sie können über die Möbel wieder frei verfügen');

    namesNumber(s.mails.cancelled, s.cancelled);
    expect(s.mails.cancelled.Subject).toContain('Abholung abgesagt');
    expect(s.mails.cancelled.Text).toContain('Der Grund: Unser Lager ist voll.');
  });

  test('when a Ukrainian donor goes through the same steps, then every mail is Ukrainian with the number and the reason', async () => {
    const s = await wholeStory('uk', 'Олена Коваленко');
    const received = bySubject(s.mails.accepted, 'Вашу пожертву');
    expect(received.Subject).toBe(
      `Вашу пожертву № ${s.accepted.donationId} отримано – Möbelbrücke`,
    );
    expect(received.Text).toContain('Доброго дня, Олена Коваленко!');
    expect(received.Text).toContain('Ми отримали Вашу пропозицію (3 предмети).');
    expect(received.Text).toContain(`Номер Вашої пожертви: ${s.accepted.donationId}.`);
    expect(received.Text).toContain('Меблі залишаються у Вас, доки ми їх не заберемо.');
    expect(received.Text).toContain('Ваша пропозиція дійсна до 24.12.2026.');
    expect(received.Text).toContain('Години роботи: з понеділка по пʼятницю, 9:00–18:00');
    expect(received.Text).not.toContain('Möbelstück');

    const accepted = bySubject(s.mails.accepted, `Ваша пожертва № ${s.accepted.donationId}: ми`);
    expect(accepted.Text).toContain('Ми зателефонуємо Вам, щоб домовитися про час');
    const collected = bySubject(s.mails.accepted, 'Дякуємо за Вашу пожертву');
    namesNumber(collected, s.accepted);

    namesNumber(s.mails.declined, s.declined);
    expect(s.mails.declined.Subject).toBe(
      `Ваша пожертва № ${s.declined.donationId}: на жаль, ми не можемо її прийняти – Möbelbrücke`,
    );
    // the staff's reason as they wrote it
    expect(s.mails.declined.Text).toContain('Причина: Das Sofa ist zu stark beschädigt.');
    namesNumber(s.mails.expired, s.expired);
    expect(s.mails.expired.Subject).toContain('термін пропозиції минув');
    namesNumber(s.mails.cancelled, s.cancelled);
    expect(s.mails.cancelled.Text).toContain('Причина: Unser Lager ist voll.');
  });

  test('when the donor gave no e-mail address, then no mail is queued but each step is logged', async () => {
    const d = donor({ email: null });
    const offered = donationSubmitted(d);
    const accepted = donationStatusChanged(d, 'submitted', 'accepted');
    await svc.publish(offered);
    await svc.publish(accepted);
    await svc.entryOf(offered);
    await svc.entryOf(accepted);
    await svc.handled(accepted);
    expect(await recordsOf(d.donationId)).toEqual([]);
  });

  test('when a donation event is delivered again after its processed record was lost, then the donor gets one mail', async () => {
    const d = donor();
    const offered = donationSubmitted(d);
    await svc.publish(offered);
    await box.waitFor(d.email!, 1);
    await sent(d.donationId, 1);
    await svc.forgetProcessed(offered);
    await svc.publish(offered);
    await svc.handled(offered);
    await svc.service.sender.idle();
    expect(await recordsOf(d.donationId)).toHaveLength(1);
    expect(await box.to(d.email!)).toHaveLength(1);
  });
});
