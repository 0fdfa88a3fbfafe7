import { Events } from '@furniture/contracts';
import { eventually, testUrls } from '@furniture/platform/testing';
import { createEvent } from '@furniture/platform';
import { adminActor, family, familyFields, freshId, statusChange, submitted } from './events';
import { startNotification, type NotificationUnderTest } from './harness';
import { mailbox } from './mailbox';

let svc: NotificationUnderTest;
let box: ReturnType<typeof mailbox>;

beforeAll(async () => {
  svc = await startNotification();
  box = mailbox(testUrls().mailApiUrl);
});
afterAll(async () => {
  await svc?.stop();
});

/** The mail records of an application (the service's own collection). */
async function recordsOf(applicationId: number) {
  return svc.conn
    .collection('mails')
    .find({ application_id: applicationId })
    .sort({ occurred_at: 1 })
    .toArray();
}

/** Waits until every queued mail of an application has reached a final state. */
async function settled(applicationId: number, count: number) {
  return eventually(
    async () => {
      const records = await recordsOf(applicationId);
      return records.length === count &&
        records.every((r) => ['sent', 'failed'].includes(r.state as string))
        ? records
        : undefined;
    },
    { timeoutMs: 15000, what: `${count} settled mail record(s)` },
  );
}

describe('mail on every status change', () => {
  test('when a German family applies, is approved and receives the lot, then exactly one German mail per change reaches their address', async () => {
    const f = family({ language: 'de' });
    await svc.publish(submitted(f, 3));
    const [confirmation] = await box.waitFor(f.email!, 1);
    expect(confirmation!.Subject).toBe(
      `Bewerbung Nr. ${f.applicationId} eingegangen: Ecksofa grau – Möbelbrücke`,
    );
    expect(confirmation!.Text).toContain('Guten Tag Olena Kovalenko,');
    expect(confirmation!.Text).toContain('„Ecksofa grau“');
    expect(confirmation!.Text).toContain('Ihr Platz in der Warteschlange: 3.');
    expect(confirmation!.Text).toContain('https://moebel.example/check-status');
    expect(confirmation!.HTML).toContain('Ihr Platz in der Warteschlange: 3.');
    expect(confirmation!.From.Address).toBe('noreply@moebelbruecke.local');
    expect(confirmation!.ReplyTo[0]!.Address).toBe('buero@moebelbruecke.example');
    expect(confirmation!.Headers['Auto-Submitted']).toEqual(['auto-generated']);

    await svc.publish(statusChange(Events.ApplicationApproved, f));
    const afterApproval = await box.waitFor(f.email!, 2);
    const approval = afterApproval.find((m) => m.Subject.startsWith('Gute Nachricht'))!;
    expect(approval.Subject).toBe(
      'Gute Nachricht: „Ecksofa grau“ ist für Sie reserviert – Möbelbrücke',
    );
    // what happens next, the office contact and the office hours (Mo–Fr 9:00–18:00)
    expect(approval.Text).toContain('So geht es weiter:');
    expect(approval.Text).toContain('Montag bis Freitag, 9:00–18:00 Uhr');
    expect(approval.Text).toContain('Telefon: +49 30 5550100');
    expect(approval.Text).toContain('E-Mail: buero@moebelbruecke.example');
    expect(approval.Text).toContain('Adresse: Musterstraße 1, 10115 Berlin');
    expect(approval.HTML).toContain('href="tel:+49305550100"');

    await svc.publish(statusChange(Events.ApplicationCompleted, f));
    await box.waitFor(f.email!, 3);
    const records = await settled(f.applicationId, 3);
    expect(records.map((r) => [r.kind, r.state, r.attempts])).toEqual([
      ['submitted', 'sent', 1],
      ['approved', 'sent', 1],
      ['completed', 'sent', 1],
    ]);
    const mails = await box.to(f.email!);
    expect(mails.map((m) => m.Subject).sort()).toEqual(
      [
        `Bewerbung Nr. ${f.applicationId} eingegangen: Ecksofa grau – Möbelbrücke`,
        'Gute Nachricht: „Ecksofa grau“ ist für Sie reserviert – Möbelbrücke',
        'Übergabe abgeschlossen: Ecksofa grau – Möbelbrücke',
      ].sort(),
    );
    // one Message-ID per event: a repeated delivery would be recognisable as the same mail
    expect(new Set(mails.map((m) => m.MessageID)).size).toBe(3);
  });

  test('when a Ukrainian family applies and is rejected, then both mails are Ukrainian and name the lot in Ukrainian', async () => {
    const f = family({ language: 'uk', name: 'Олена Коваленко' });
    await svc.publish(submitted(f, 2));
    await box.waitFor(f.email!, 1);
    await svc.publish(
      statusChange(Events.ApplicationRejected, f, { reason: 'competitor_approved', actor: null }),
    );
    const mails = await box.waitFor(f.email!, 2);
    const confirmation = mails.find((m) => m.Subject.startsWith('Заявку'))!;
    const rejection = mails.find((m) => m.Subject.startsWith('Ваша заявка'))!;
    expect(confirmation.Subject).toBe(
      `Заявку № ${f.applicationId} отримано: Кутовий диван сірий – Möbelbrücke`,
    );
    expect(confirmation.Text).toContain('Доброго дня, Олена Коваленко!');
    expect(confirmation.Text).toContain('Ваше місце в черзі: 2.');
    expect(confirmation.Text).toContain('Години роботи: з понеділка по пʼятницю, 9:00–18:00');
    expect(confirmation.Headers['Content-Language']).toEqual(['uk']);
    expect(rejection.Subject).toBe(
      `Ваша заявка № ${f.applicationId}: на жаль, не схвалено – Möbelbrücke`,
    );
    expect(rejection.Text).toContain('«Кутовий диван сірий» вже закріплено за іншою родиною');
    expect(rejection.Text).not.toContain('Ecksofa');
    await settled(f.applicationId, 2);
  });

  test('when the lot has no Ukrainian name, then the Ukrainian mail names it in German', async () => {
    const f = family({ language: 'uk', lotName: { de: 'Kinderbett', uk: '' } });
    await svc.publish(submitted(f));
    const [mail] = await box.waitFor(f.email!, 1);
    expect(mail!.Subject).toBe(`Заявку № ${f.applicationId} отримано: Kinderbett – Möbelbrücke`);
  });

  test('when staff cancel a reservation the family was told about, then the family gets the cancellation mail', async () => {
    const f = family();
    await svc.publish(statusChange(Events.ApplicationApproved, f));
    await box.waitFor(f.email!, 1);
    await settled(f.applicationId, 1);
    await svc.publish(statusChange(Events.ApplicationReservationCancelled, f));
    const mails = await box.waitFor(f.email!, 2);
    const cancellation = mails.find((m) => m.Subject.startsWith('Reservierung aufgehoben'))!;
    expect(cancellation.Subject).toBe('Reservierung aufgehoben: Ecksofa grau – Möbelbrücke');
    expect(cancellation.Text).toContain('Ihre Bewerbung ist wieder offen');
    const records = await settled(f.applicationId, 2);
    expect(records.map((r) => [r.kind, r.state])).toEqual([
      ['approved', 'sent'],
      ['reservation_cancelled', 'sent'],
    ]);
  });

  test('when the family gave no e-mail address, then no mail is queued or sent but the change is logged', async () => {
    const f = family({ email: null });
    const event = submitted(f);
    await svc.publish(event);
    const approved = statusChange(Events.ApplicationApproved, f);
    await svc.publish(approved);
    await svc.entryOf(event);
    await svc.entryOf(approved);
    expect(await recordsOf(f.applicationId)).toEqual([]);
  });

  test('when a lot name holds markup, then the HTML mail shows it as text', async () => {
    const f = family({ lotName: { de: 'Regal <b>"Billy"</b> & Co', uk: '' } });
    await svc.publish(submitted(f));
    const [mail] = await box.waitFor(f.email!, 1);
    expect(mail!.HTML).toContain('Regal &lt;b&gt;&quot;Billy&quot;&lt;/b&gt; &amp; Co');
    expect(mail!.HTML).not.toContain('<b>"Billy"</b>');
    expect(mail!.Text).toContain('Regal <b>"Billy"</b> & Co');
  });
});

describe('redelivered events', () => {
  test('when an event is delivered again, even after its processed record was lost, then there is no second mail and no second log entry', async () => {
    const f = family();
    const event = submitted(f);
    await svc.publish(event);
    await box.waitFor(f.email!, 1);
    await settled(f.applicationId, 1);

    // the broker redelivers it (the processed-event record still exists) …
    await svc.publish(event);
    // … and once more as after a crash between handling and recording it as processed
    await svc.handled(event);
    await svc.forgetProcessed(event);
    await svc.publish(event);
    await svc.handled(event);
    await svc.service.sender.idle();

    expect(await recordsOf(f.applicationId)).toHaveLength(1);
    expect(
      await svc.conn
        .collection<{ _id: string }>('activity_logs')
        .countDocuments({ _id: event.eventId }),
    ).toBe(1);
    expect(await box.to(f.email!)).toHaveLength(1);
  });
});

describe('approvals are final, second chances are mailed', () => {
  test('when an approval arrives, then its mail goes out at once (it is final: the lot is already reserved)', async () => {
    const f = family();
    const started = Date.now();
    await svc.publish(statusChange(Events.ApplicationApproved, f));
    const [mail] = await box.waitFor(f.email!, 1);
    expect(mail!.Subject).toContain('Gute Nachricht');
    const [record] = await settled(f.applicationId, 1);
    // nothing holds it back: sent within seconds of the event, on the first attempt
    expect(record!.attempts).toBe(1);
    expect((record!.sent_at as Date).getTime() - started).toBeLessThan(10_000);
  });

  test('when a cancelled reservation brings a rejected family back into the queue, then it gets a German or Ukrainian "back in the queue" mail', async () => {
    for (const language of ['de', 'uk'] as const) {
      const f = family({ language });
      await svc.publish(
        statusChange(Events.ApplicationRejected, f, { reason: 'competitor_approved', actor: null }),
      );
      await box.waitFor(f.email!, 1);
      await svc.publish(
        statusChange(Events.ApplicationReconsidered, f, {
          reason: 'reservation_cancelled',
          actor: null,
        }),
      );
      const mails = await box.waitFor(f.email!, 2);
      const back = mails.find((m) =>
        m.Subject.startsWith(language === 'de' ? 'Wieder in der Warteschlange' : 'Знову в черзі'),
      );
      expect(back).toBeDefined();
      expect(back!.Text).toContain(
        language === 'de'
          ? `Ihre Bewerbung Nr. ${f.applicationId} ist deshalb wieder offen, an ihrem bisherigen Platz`
          : `Ваша заявка № ${f.applicationId} знову відкрита й займає своє попереднє місце в черзі`,
      );
      expect(back!.Headers['Content-Language']).toEqual([language]);
    }
  });

  test('when staff reconsider a rejection by hand, then the family is told its application is examined again', async () => {
    const f = family();
    await svc.publish(statusChange(Events.ApplicationReconsidered, f, { note: 'Versehen' }));
    const [mail] = await box.waitFor(f.email!, 1);
    expect(mail!.Subject).toBe(
      `Ihre Bewerbung Nr. ${f.applicationId} wird erneut geprüft – Möbelbrücke`,
    );
    expect(mail!.Text).toContain('Sie ist wieder offen und wartet in der Warteschlange.');
  });
});

describe('retention', () => {
  test('when finished mails are older than the retention time, then housekeeping deletes them and keeps queued ones', async () => {
    const done = family();
    await svc.publish(submitted(done));
    await box.waitFor(done.email!, 1);
    await settled(done.applicationId, 1);
    // a mail still waiting (as during an SMTP outage), last touched long ago
    const waitingId = freshId();
    const longAgo = new Date('2020-01-01T00:00:00Z');
    await svc.conn.collection<{ _id: string }>('mails').insertOne({
      _id: `waiting-${waitingId}`,
      id: waitingId,
      state: 'queued',
      application_id: waitingId,
      next_attempt_at: new Date(Date.now() + 3600_000),
      occurred_at: longAgo,
      created_at: longAgo,
      updated_at: longAgo,
    } as never);

    // nothing is old enough today
    await svc.service.purgeOldMails();
    expect(await recordsOf(done.applicationId)).toHaveLength(1);

    const later = new Date(Date.now() + (svc.config.MAIL_RETENTION_DAYS + 1) * 24 * 3600 * 1000);
    expect(await svc.service.purgeOldMails(later)).toBeGreaterThanOrEqual(1);
    expect(await recordsOf(done.applicationId)).toEqual([]);
    // a mail not yet sent is never deleted, however old
    expect((await recordsOf(waitingId)).map((r) => r.state)).toEqual(['queued']);
  });
});

describe('pickup dates and wish matches, in the family’s language (issue 19)', () => {
  test('when an approval carries a pickup date, then the German and the Ukrainian mail give it as DD.MM.YYYY', async () => {
    const de = family({ language: 'de' });
    const uk = family({ language: 'uk', name: 'Олена Коваленко' });
    await svc.publish(statusChange(Events.ApplicationApproved, de, { pickupBy: '2026-12-01' }));
    await svc.publish(statusChange(Events.ApplicationApproved, uk, { pickupBy: '2026-12-01' }));
    const [deMail] = await box.waitFor(de.email!, 1);
    const [ukMail] = await box.waitFor(uk.email!, 1);
    expect(deMail!.Text).toContain('Bitte holen Sie es bis zum 01.12.2026 ab');
    expect(ukMail!.Text).toContain('Будь ласка, заберіть його до 01.12.2026');
    expect(ukMail!.Text).not.toContain('Bitte');
  });

  test('when the pickup date is near or moved, then the family gets a reminder or the new date in its language', async () => {
    const uk = family({ language: 'uk', name: 'Олена Коваленко' });
    await svc.publish(
      createEvent(Events.ApplicationPickupReminderDue, {
        ...familyFields(uk),
        pickup_by: '2026-11-30',
      }),
    );
    const [reminder] = await box.waitFor(uk.email!, 1);
    expect(reminder!.Subject).toBe(
      'Нагадування: заберіть «Кутовий диван сірий» до 30.11.2026 – Möbelbrücke',
    );
    expect(reminder!.Headers['Content-Language']).toEqual(['uk']);

    const de = family({ language: 'de' });
    await svc.publish(
      createEvent(
        Events.ApplicationPickupExtended,
        { ...familyFields(de), old_pickup_by: '2026-11-30', pickup_by: '2027-01-10', note: null },
        adminActor,
      ),
    );
    const [extended] = await box.waitFor(de.email!, 1);
    expect(extended!.Subject).toBe('Neue Abholfrist für „Ecksofa grau“: 10.01.2027 – Möbelbrücke');
    expect(extended!.Text).toContain('bis zum 10.01.2027 verlängert');
    const records = await settled(de.applicationId, 1);
    expect(records.map((r) => r.kind)).toEqual(['pickup_extended']);
  });

  test('when a reservation lapses, then the family is told why in its language', async () => {
    const uk = family({ language: 'uk', name: 'Олена Коваленко' });
    await svc.publish(statusChange(Events.ApplicationRejected, uk, { reason: 'pickup_lapsed' }));
    const [mail] = await box.waitFor(uk.email!, 1);
    expect(mail!.Text).toContain('Термін, до якого потрібно було забрати «Кутовий диван сірий»');
    expect(mail!.Text).toContain('передали лот наступній родині');
  });

  test('when staff tell a wisher about a lot, then the mail is in the wish’s language and links the lot; the WhatsApp channel sends nothing', async () => {
    const wishId = freshId();
    const address = `wish-${wishId}@example.org`;
    await svc.publish(
      createEvent(
        Events.WishNotified,
        {
          wish_id: wishId,
          lot_id: 77,
          lot_name: { de: 'Kinderbett 70x140', uk: 'Дитяче ліжко 70x140' },
          applicant_name: 'Ірина Шевченко',
          applicant_email: address,
          language: 'uk',
          channel: 'email',
        },
        adminActor,
      ),
    );
    const [mail] = await box.waitFor(address, 1);
    expect(mail!.Subject).toBe(
      'Лот відповідає Вашому побажанню: Дитяче ліжко 70x140 – Möbelbrücke',
    );
    expect(mail!.Text).toContain('https://moebel.example/lots/77');
    expect(mail!.Text).toContain('Доброго дня, Ірина Шевченко!');

    const silent = freshId();
    const event = createEvent(
      Events.WishNotified,
      {
        wish_id: silent,
        lot_id: 77,
        lot_name: { de: 'Kinderbett', uk: '' },
        applicant_name: 'Iryna',
        applicant_email: null,
        language: 'de',
        channel: 'whatsapp',
      },
      adminActor,
    );
    await svc.publish(event);
    await svc.entryOf(event);
    expect(await recordsOf(-silent)).toEqual([]);
  });
});
