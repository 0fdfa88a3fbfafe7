/**
 * The family's mails about its handover slot (issue 29) on the real broker and SMTP catcher: the
 * approval with the personal booking link, the booking (or the move), the slot given back, and the
 * reminder the day before, each in the family's language with the day and hours in Berlin; no
 * address, a donor pickup or a cancellation because the application ended: no mail.
 */
import { Events } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { eventually, testUrls } from '@furniture/platform/testing';
import {
  adminActor,
  family,
  freshId,
  handoverBooked,
  handoverCancelled,
  handoverReminderDue,
  handoverUrl,
  slot,
  statusChange,
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

/** The mail records of an application, in the order of their events. */
function recordsOf(applicationId: number) {
  return svc.conn
    .collection('mails')
    .find({ application_id: applicationId })
    .sort({ occurred_at: 1, id: 1 })
    .toArray();
}

/** Waits until `count` mails of the application have been sent and answers their records. */
function sent(applicationId: number, count: number) {
  return eventually(
    async () => {
      const records = await recordsOf(applicationId);
      return records.length === count && records.every((r) => r.state === 'sent')
        ? records
        : undefined;
    },
    { timeoutMs: 15000, what: `${count} sent mail(s) of application ${applicationId}` },
  );
}

/** The mail whose subject starts so (the catcher answers newest first). */
const bySubject = (mails: CapturedMail[], start: string) => {
  const found = mails.find((m) => m.Subject.startsWith(start));
  if (!found) throw new Error(`no mail "${start}…" in ${mails.map((m) => m.Subject).join(' | ')}`);
  return found;
};

describe('the approval carries the personal booking link', () => {
  test('when an approval carries handover_url, then the German and the Ukrainian mail link it with the pickup date; without it the mail says the team will call', async () => {
    const de = family({ language: 'de' });
    const uk = family({ language: 'uk', name: 'Олена Коваленко' });
    const plain = family({ language: 'de' });
    await svc.publish(
      statusChange(Events.ApplicationApproved, de, {
        pickupBy: '2026-12-04',
        handoverUrl: handoverUrl(de),
      }),
    );
    await svc.publish(
      statusChange(Events.ApplicationApproved, uk, {
        pickupBy: '2026-12-04',
        handoverUrl: handoverUrl(uk),
      }),
    );
    await svc.publish(statusChange(Events.ApplicationApproved, plain, { pickupBy: '2026-12-04' }));
    const [deMail] = await box.waitFor(de.email!, 1);
    const [ukMail] = await box.waitFor(uk.email!, 1);
    const [plainMail] = await box.waitFor(plain.email!, 1);

    expect(deMail!.Text).toContain(
      `Termin für Abholung oder Lieferung wählen (Ihr persönlicher Link, bitte nicht weitergeben):\n${handoverUrl(de)}`,
    );
    expect(deMail!.Text).toContain('Bitte holen Sie es bis zum 04.12.2026 ab');
    expect(deMail!.Text).toContain('Wählen Sie über den Link oben einen freien Termin');
    expect(deMail!.Text).not.toContain('Wir melden uns in den nächsten Tagen');
    expect(deMail!.HTML).toContain(`href="${handoverUrl(de)}"`);

    expect(ukMail!.Text).toContain(
      `Обрати час самовивозу або доставки (Ваше особисте посилання, будь ласка, не передавайте його іншим):\n${handoverUrl(uk)}`,
    );
    expect(ukMail!.Text).toContain('Будь ласка, заберіть його до 04.12.2026');
    expect(ukMail!.Text).toContain('Оберіть за посиланням вище вільний час');
    expect(ukMail!.Text).not.toContain('Termin');

    expect(plainMail!.Text).toContain('Wir melden uns in den nächsten Tagen telefonisch');
    expect(plainMail!.Text).not.toContain('/handover/');
    expect(plainMail!.Text).not.toContain('Termin für Abholung oder Lieferung wählen');
  });
});

describe('the family is mailed about its slot', () => {
  test('when a German family books a pickup, moves it, is reminded and gives it back, then it gets four German mails with the day, the hours in Berlin, the place and its link', async () => {
    const f = family({ language: 'de' });
    const first = slot();
    // Friday, 4 December 2026, 14:30–16:00 in Berlin
    const later = slot({
      handoverId: first.handoverId,
      startsAt: '2026-12-04T13:30:00.000Z',
      endsAt: '2026-12-04T15:00:00.000Z',
    });
    await svc.publish(handoverBooked(first, f));
    await box.waitFor(f.email!, 1);
    await svc.publish(handoverBooked(later, f, { movedFrom: first.slotId }));
    await svc.publish(handoverReminderDue(later, f));
    await svc.publish(handoverCancelled(later, f, 'family'));
    const mails = await box.waitFor(f.email!, 4);

    const booked = bySubject(mails, 'Termin bestätigt');
    expect(booked.Subject).toBe('Termin bestätigt: Abholung am 01.12.2026 – Möbelbrücke');
    expect(booked.Text).toContain('Guten Tag Olena Kovalenko,');
    expect(booked.Text).toContain(
      `Ihr Termin für „Ecksofa grau“ (Bewerbung Nr. ${f.applicationId}) ist gebucht:`,
    );
    expect(booked.Text).toContain(`Was: Abholung von „Ecksofa grau“ (Lot-Nr. ${f.lotId})`);
    expect(booked.Text).toContain('Wann: Dienstag, 01.12.2026, 10:00–12:00 Uhr');
    expect(booked.Text).toContain('Wo: Lager Nord, Hafenweg 3, 13353 Berlin');
    expect(booked.Text).toContain(`Ihre Bewerbungsnummer ${f.applicationId}`);
    expect(booked.Text).toContain(
      `Termin ändern oder absagen (Ihr persönlicher Link, bitte nicht weitergeben):\n${handoverUrl(f)}`,
    );
    expect(booked.HTML).toContain('Wann: Dienstag, 01.12.2026, 10:00–12:00 Uhr');
    expect(booked.Headers['Content-Language']).toEqual(['de']);

    const moved = bySubject(mails, 'Termin geändert');
    expect(moved.Subject).toBe('Termin geändert: Abholung am 04.12.2026 – Möbelbrücke');
    expect(moved.Text).toContain('wurde verlegt. Ihr alter Termin gilt nicht mehr.');
    expect(moved.Text).toContain('Wann: Freitag, 04.12.2026, 14:30–16:00 Uhr');

    const reminder = bySubject(mails, 'Erinnerung');
    expect(reminder.Subject).toBe('Erinnerung: Abholung am 04.12.2026, 14:30 Uhr – Möbelbrücke');
    expect(reminder.Text).toContain('wir erinnern Sie an Ihren Termin für „Ecksofa grau“');
    expect(reminder.Text).toContain('Wo: Lager Nord, Hafenweg 3, 13353 Berlin');
    expect(reminder.Text).toContain(`Ihr Termin im Überblick:\n${handoverUrl(f)}`);

    const cancelled = bySubject(mails, 'Termin abgesagt');
    expect(cancelled.Subject).toBe('Termin abgesagt: Ecksofa grau – Möbelbrücke');
    expect(cancelled.Text).toContain(
      'Sie haben Ihren Termin am Freitag, 04.12.2026, 14:30–16:00 Uhr für „Ecksofa grau“',
    );
    expect(cancelled.Text).toContain(`einen neuen Termin.`);
    expect(cancelled.Text).toContain(handoverUrl(f));

    // one record per event, on the application (the privacy lookup and erasure find them so)
    const records = await sent(f.applicationId, 4);
    expect(records.map((r) => [r.kind, r.reason, r.lot_id])).toEqual([
      ['handover_booked', null, f.lotId],
      ['handover_booked', 'moved', f.lotId],
      ['handover_reminder', null, f.lotId],
      ['handover_cancelled', 'family', f.lotId],
    ]);
  });

  test('when a Ukrainian family books a delivery, is reminded and staff cancel the slot, then every mail is Ukrainian with the day in uk-UA and the link to choose again', async () => {
    const f = family({ language: 'uk', name: 'Олена Коваленко' });
    const s = slot({ kind: 'delivery' });
    await svc.publish(handoverBooked(s, f));
    await box.waitFor(f.email!, 1);
    await svc.publish(handoverReminderDue(s, f));
    await svc.publish(handoverCancelled(s, f, 'staff'));
    const mails = await box.waitFor(f.email!, 3);

    const booked = bySubject(mails, 'Запис підтверджено');
    expect(booked.Subject).toBe('Запис підтверджено: доставка 01.12.2026 – Möbelbrücke');
    expect(booked.Text).toContain('Доброго дня, Олена Коваленко!');
    expect(booked.Text).toContain(`Що: доставка «Кутовий диван сірий» (лот № ${f.lotId})`);
    expect(booked.Text).toContain('Коли: вівторок, 01.12.2026, 10:00–12:00');
    // a delivery comes to the family: the depot's address is not where to go
    expect(booked.Text).toContain('Де: у Вас удома (за адресою з Вашої заявки)');
    expect(booked.Text).not.toContain('Hafenweg');
    expect(booked.Text).toContain(`Змінити або скасувати запис`);
    expect(booked.Headers['Content-Language']).toEqual(['uk']);

    const reminder = bySubject(mails, 'Нагадування');
    expect(reminder.Subject).toBe('Нагадування: доставка 01.12.2026 о 10:00 – Möbelbrücke');
    expect(reminder.Text).toContain('Будь ласка, будьте в цей час удома');

    const cancelled = bySubject(mails, 'Ваш запис');
    expect(cancelled.Subject).toBe('Ваш запис на 01.12.2026 скасовано – Möbelbrücke');
    expect(cancelled.Text).toContain('На жаль, нам довелося скасувати Ваш запис на вівторок');
    expect(cancelled.Text).toContain(`Обрати час самовивозу або доставки:\n${handoverUrl(f)}`);
    for (const mail of mails) {
      expect(mail.Text).not.toContain('Termin');
      expect(mail.Text).not.toContain('Uhr');
    }
    const records = await sent(f.applicationId, 3);
    expect(records.map((r) => [r.kind, r.reason])).toEqual([
      ['handover_booked', null],
      ['handover_reminder', null],
      ['handover_cancelled', 'staff'],
    ]);
  });
});

describe('no mail', () => {
  test('when the family gave no address, the slot is a donor pickup, or the system gave the slot back because the application ended, then nothing is queued but the bookings and cancellations are logged', async () => {
    const silent = family({ email: null });
    const s = slot();
    const noAddress = [
      handoverBooked(s, silent),
      handoverReminderDue(s, silent),
      handoverCancelled(s, silent, 'family'),
    ];
    const ended = family();
    const endedSlot = slot();
    const booked = handoverBooked(endedSlot, ended);
    const systemCancel = handoverCancelled(endedSlot, ended, 'system');
    const donationId = freshId();
    const donorPickup = handoverBooked(slot({ kind: 'donor_pickup' }), null, { donationId });
    for (const e of [...noAddress, booked, systemCancel, donorPickup]) await svc.publish(e);
    // the reminder has no log entry of its own (the booking has)
    for (const e of [noAddress[0]!, noAddress[2]!, systemCancel, donorPickup]) await svc.entryOf(e);
    for (const e of [...noAddress, booked, systemCancel, donorPickup]) await svc.handled(e);
    await svc.service.sender.idle();

    expect(await recordsOf(silent.applicationId)).toEqual([]);
    expect(await svc.conn.collection('mails').countDocuments({ donation_id: donationId })).toBe(0);
    // the booking was mailed, its cancellation by the system not (the status change mails)
    const records = await sent(ended.applicationId, 1);
    expect(records.map((r) => r.kind)).toEqual(['handover_booked']);
    expect(await box.waitFor(ended.email!, 1)).toHaveLength(1);
  });
});

describe('redelivery and erasure', () => {
  test('when a booking is delivered again, even after its processed record was lost, then the family gets one mail', async () => {
    const f = family();
    const event = handoverBooked(slot(), f);
    await svc.publish(event);
    await box.waitFor(f.email!, 1);
    await sent(f.applicationId, 1);
    await svc.publish(event);
    await svc.handled(event);
    await svc.forgetProcessed(event);
    await svc.publish(event);
    await svc.handled(event);
    await svc.service.sender.idle();
    expect(await recordsOf(f.applicationId)).toHaveLength(1);
    expect(await box.to(f.email!)).toHaveLength(1);
  });

  test('when a family’s data is erased, then its slot mails are found before, deleted by the erasure, and a reminder arriving later mails nothing', async () => {
    const f = family();
    const s = slot();
    await svc.publish(handoverBooked(s, f));
    await sent(f.applicationId, 1);
    const lookup = await svc.http.post(
      '/api/v1/privacy/records',
      { application_ids: [f.applicationId], wish_ids: [] },
      { token: svc.adminToken },
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.mails).toEqual([
      expect.objectContaining({ kind: 'handover_booked', to: f.email }),
    ]);

    const erasure = createEvent(
      Events.PersonalDataErased,
      { reason: 'request', application_ids: [f.applicationId], wish_ids: [] },
      adminActor,
    );
    await svc.publish(erasure);
    await svc.handled(erasure);
    expect(await recordsOf(f.applicationId)).toEqual([]);

    const late = handoverReminderDue(s, f);
    await svc.publish(late);
    await svc.handled(late);
    await svc.service.sender.idle();
    expect(await recordsOf(f.applicationId)).toEqual([]);
    expect(await box.to(f.email!)).toHaveLength(1);
  });
});
