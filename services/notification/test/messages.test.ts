import {
  Events,
  MESSAGE_CALLBACK_PATHS,
  type DomainEvent,
  type Language,
} from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { api, eventually } from '@furniture/platform/testing';
import { twilioSignature, whatsappSignature } from '@furniture/infra';
import { MessageTemplates } from '../src/messages/domain/message-templates';
import {
  adminActor,
  donationStatusChanged,
  donationSubmitted,
  donor,
  family,
  familyFields,
  handoverBooked,
  handoverCancelled,
  handoverReminderDue,
  slot,
  statusChange,
  submitted,
  type Family,
} from './events';
import { mailbox } from './mailbox';
import { freshNumber, startMessaging, withNumbers, type MessagingUnderTest } from './messaging';
import { testUrls } from '@furniture/platform/testing';

let m: MessagingUnderTest;
let box: ReturnType<typeof mailbox>;
/**
 * The staff routes, answers not checked against the OpenAPI document: /messages is documented
 * with the gateway's routes (issue 30), not in this branch yet.
 */
let staff: ReturnType<typeof api>;

beforeAll(async () => {
  m = await startMessaging({ MESSAGE_MAX_ATTEMPTS: '2' });
  box = mailbox(testUrls().mailApiUrl);
  staff = api(m.svc.url);
});
afterAll(async () => {
  await m?.stop();
});

const requested = (
  f: Family,
  template: 'call_office' | 'still_interested' | 'pickup_reminder',
  opts: { wish?: boolean } = {},
) =>
  createEvent(
    Events.MessageRequested,
    {
      application_id: opts.wish ? null : f.applicationId,
      wish_id: opts.wish ? f.applicationId : null,
      lot_id: opts.wish ? null : f.lotId,
      lot_name: opts.wish ? null : f.lotName,
      template,
      applicant_name: f.name,
      applicant_email: f.email,
      language: f.language,
      pickup_by: template === 'pickup_reminder' ? '2026-12-04' : null,
    },
    adminActor,
  );

/** One event of every kind that messages a family or a donor. */
function eventsOfEveryKind(lang: Language): [string, DomainEvent][] {
  const f = () => family({ language: lang });
  const d = () => donor({ language: lang });
  const pickup = (name: typeof Events.ApplicationPickupReminderDue) => {
    const x = f();
    return createEvent(name, { ...familyFields(x), pickup_by: '2026-12-04' });
  };
  const extended = () => {
    const x = f();
    return createEvent(
      Events.ApplicationPickupExtended,
      { ...familyFields(x), old_pickup_by: '2026-12-01', pickup_by: '2026-12-08', note: null },
      adminActor,
    );
  };
  const wish = () => {
    const x = f();
    return createEvent(
      Events.WishNotified,
      {
        wish_id: x.applicationId,
        lot_id: x.lotId,
        lot_name: x.lotName,
        applicant_name: x.name,
        applicant_email: null,
        language: lang,
        channel: 'email',
      },
      adminActor,
    );
  };
  return [
    ['submitted', submitted(f(), 2)],
    ['approved', statusChange(Events.ApplicationApproved, f(), { pickupBy: '2026-12-04' })],
    ['rejected', statusChange(Events.ApplicationRejected, f())],
    ['completed', statusChange(Events.ApplicationCompleted, f())],
    ['reservation_cancelled', statusChange(Events.ApplicationReservationCancelled, f())],
    ['reconsidered', statusChange(Events.ApplicationReconsidered, f())],
    ['pickup_extended', extended()],
    ['pickup_reminder', pickup(Events.ApplicationPickupReminderDue)],
    ['wish_match', wish()],
    ['donation_received', donationSubmitted(d())],
    ['donation_accepted', donationStatusChanged(d(), 'submitted', 'accepted')],
    ['donation_declined', donationStatusChanged(d(), 'submitted', 'declined')],
    ['donation_collected', donationStatusChanged(d(), 'accepted', 'collected')],
    ['donation_cancelled', donationStatusChanged(d(), 'accepted', 'cancelled')],
    ['donation_expired', donationStatusChanged(d(), 'submitted', 'expired')],
    ['handover_booked', handoverBooked(slot(), f())],
    ['handover_cancelled', handoverCancelled(slot(), f(), 'staff')],
    ['handover_reminder', handoverReminderDue(slot(), f())],
    ['staff_call_office', requested(f(), 'call_office')],
    ['staff_still_interested', requested(f(), 'still_interested')],
    ['staff_pickup_reminder', requested(f(), 'pickup_reminder')],
  ];
}

describe('every message kind in both languages', () => {
  test.each(['de', 'uk'] as const)(
    'when each mailed event (and each prepared message) happens for a family or donor speaking %s, then its WhatsApp template with the rendered text reaches the stand-in once',
    async (lang) => {
      const events = eventsOfEveryKind(lang);
      expect(new Set(events.map(([k]) => k))).toEqual(new Set(Object.keys(MessageTemplates)));
      const numbers = events.map(() => freshNumber());
      for (const [i, [, e]] of events.entries())
        await m.svc.publish(withNumbers(e, { phone: numbers[i], whatsapp: numbers[i] }));
      for (const [i, [kind, e]] of events.entries()) {
        const [captured] = await m.waitFor(numbers[i]!, 1, 30000);
        const record = await m.record(e, (r) => r.status !== 'queued' && r.status !== 'sending');
        expect({ kind, channel: captured!.channel, template: captured!.template }).toEqual({
          kind,
          channel: 'whatsapp',
          template: `mb_${kind}`,
        });
        expect(captured!.language).toBe(lang);
        expect(captured!.text).toBe(record.text);
        expect(captured!.text).toContain(lang === 'de' ? 'Antworten Sie STOP' : 'Надішліть СТОП');
        expect(captured!.text).not.toContain('Olena');
        expect(captured!.text).not.toContain('Jana');
        const named = 'lot_name' in e.payload || 'family' in e.payload;
        if (named && kind !== 'staff_call_office')
          expect(captured!.text).toContain(lang === 'de' ? 'Ecksofa grau' : 'Кутовий диван сірий');
      }
      // nothing twice
      for (const n of numbers) expect(m.to(n)).toHaveLength(1);
    },
    120000,
  );
});

describe('delivery tracking by signed callbacks', () => {
  test('when the provider reports sent, delivered and read, then the message moves forward to read with each step, on WhatsApp and on SMS', async () => {
    const f = family();
    const wa = freshNumber();
    const e1 = withNumbers(submitted(f), { whatsapp: wa, phone: null });
    await m.svc.publish(e1);
    const read = await m.record(e1, (r) => r.status === 'read');
    // the provider's own "sent" adds nothing: the message was sent when it was accepted
    expect((read.steps as { status: string }[]).map((s) => s.status)).toEqual([
      'sent',
      'delivered',
      'read',
    ]);
    const list = await staff.get(`/api/v1/messages/?application_id=${f.applicationId}`, {
      token: m.svc.volunteerToken,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.messages[0]).toMatchObject({
      kind: 'submitted',
      channel: 'whatsapp',
      status: 'read',
      template: 'mb_submitted',
      emailed: true,
    });
    expect(list.body.data.messages[0].to).toMatch(/^\+49 151 ••• \d{3}$/);
    expect(JSON.stringify(list.body)).not.toContain(wa);

    // SMS only (no WhatsApp number given, WhatsApp opted out)
    const sms = freshNumber();
    const g = family();
    const put = await staff.put(
      '/api/v1/messages/opt-outs',
      { phone: sms, channel: 'whatsapp', opted_out: true },
      { token: m.svc.volunteerToken },
    );
    expect(put.body.data).toEqual({ phone: sms, whatsapp: true, sms: false });
    const e2 = withNumbers(submitted(g), { phone: sms });
    await m.svc.publish(e2);
    const delivered = await m.record(e2, (r) => r.status === 'delivered');
    expect(delivered.channel).toBe('sms');
    const [captured] = await m.waitFor(sms);
    expect(captured!.channel).toBe('sms');
    expect(captured!.text).toBe(delivered.text);
  });

  test('when a callback carries a bad signature, then it is refused with 403 and changes nothing (both providers); a malformed signed body is 400', async () => {
    const f = family();
    const wa = freshNumber();
    const e = withNumbers(submitted(f), { whatsapp: wa });
    await m.svc.publish(e);
    const read = await m.record(e, (r) => r.status === 'read');
    const providerId = read.provider_id as string;
    const http = api(m.callbackBase, { contract: false });

    // a forged "failed" would send the family an SMS as well
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            {
              field: 'messages',
              value: {
                statuses: [
                  {
                    id: providerId,
                    status: 'failed',
                    timestamp: '1',
                    recipient_id: '1',
                    errors: [{ code: 131026, title: 'x' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const forged = await http.post(MESSAGE_CALLBACK_PATHS.whatsapp, body, {
      headers: { 'x-hub-signature-256': whatsappSignature('wrong-secret', body) },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('MESSAGE_CALLBACK_FORBIDDEN');
    const unsigned = await http.post(MESSAGE_CALLBACK_PATHS.whatsapp, body);
    expect(unsigned.status).toBe(403);

    const form = new URLSearchParams({ MessageSid: providerId, MessageStatus: 'failed' });
    const smsForged = await http.post(MESSAGE_CALLBACK_PATHS.sms, form.toString(), {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(
          m.creds.authToken,
          'https://elsewhere.example/cb',
          Object.fromEntries(form),
        ),
      },
    });
    expect(smsForged.status).toBe(403);
    expect(await m.record(e)).toMatchObject({ status: 'read', failed_channels: [] });

    // correctly signed but no callback at all: a bad request, never a server error
    const junk = '{"entry": 5';
    const bad = await http.post(MESSAGE_CALLBACK_PATHS.whatsapp, junk, {
      headers: { 'x-hub-signature-256': whatsappSignature(m.creds.appSecret, junk) },
    });
    expect(bad.status).toBe(400);
    const smsJunk = 'a=%ZZ&&=';
    const bad2 = await http.post(MESSAGE_CALLBACK_PATHS.sms, smsJunk, {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(
          m.creds.authToken,
          `${m.callbackBase}${MESSAGE_CALLBACK_PATHS.sms}`,
          Object.fromEntries(new URLSearchParams(smsJunk)),
        ),
      },
    });
    expect(bad2.status).toBe(400);

    // Meta's verification handshake
    const ok = await http.get(
      `${MESSAGE_CALLBACK_PATHS.whatsapp}?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=12345`,
    );
    expect([ok.status, ok.body]).toEqual([200, '12345']);
    const no = await http.get(
      `${MESSAGE_CALLBACK_PATHS.whatsapp}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    );
    expect(no.status).toBe(403);
  });
});

describe('fallback, opt-out, failure', () => {
  test('when a WhatsApp status names our message before its send is recorded, then 503 so Meta posts it again, and once recorded it is applied', async () => {
    const f = family();
    const e = withNumbers(submitted(f), { whatsapp: freshNumber() });
    await m.svc.publish(e);
    const read = await m.record(e, (r) => r.status === 'read');
    const http = api(m.callbackBase, { contract: false });
    const statusOf = (wamid: string, ours: number) =>
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              {
                field: 'messages',
                value: {
                  statuses: [
                    {
                      id: wamid,
                      status: 'delivered',
                      timestamp: '1',
                      recipient_id: '1',
                      biz_opaque_callback_data: String(ours),
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
    const post = (body: string) =>
      http.post(MESSAGE_CALLBACK_PATHS.whatsapp, body, {
        headers: { 'x-hub-signature-256': whatsappSignature(m.creds.appSecret, body) },
      });
    const messages = m.svc.conn.collection('messages');
    // the provider answered, our write of its id has not happened yet: the message is "sending"
    await messages.updateOne({ _id: read._id } as never, {
      $set: { status: 'sending', provider_id: null },
    });
    const early = await post(statusOf('wamid.early', read.id as number));
    expect(early.status).toBe(503);
    // recorded now: the same report posted again is applied
    await messages.updateOne({ _id: read._id } as never, {
      $set: { status: 'sent', provider_id: 'wamid.early' },
    });
    expect((await post(statusOf('wamid.early', read.id as number))).status).toBe(200);
    expect(await m.record(e)).toMatchObject({ status: 'delivered' });
    // a report of a message that is not ours (or long done) is taken and changes nothing
    expect((await post(statusOf('wamid.unknown', 987654))).status).toBe(200);
  });

  test('when the number is not on WhatsApp (accepted, then failed 131026), then the message goes by SMS', async () => {
    const n = freshNumber();
    m.standIn.setBehaviour({ whatsappUnreachable: [n] });
    const e = withNumbers(submitted(family()), { phone: n, whatsapp: n });
    await m.svc.publish(e);
    const sent = await m.record(e, (r) => r.channel === 'sms' && r.status === 'delivered');
    expect(sent.failed_channels).toEqual(['whatsapp']);
    const captured = await m.waitFor(n, 2);
    expect(captured.map((c) => c.channel).sort()).toEqual(['sms', 'whatsapp']);
  });

  test('when the family answers STOP on WhatsApp, then the next message goes by SMS; STOP on both: skipped; START opts back in', async () => {
    const n = freshNumber();
    expect(await m.standIn.inbound('whatsapp', n, ' Stop ')).toBe(200);
    const f = family({ email: null });
    const e1 = withNumbers(submitted(f), { phone: n, whatsapp: n });
    await m.svc.publish(e1);
    expect(await m.record(e1, (r) => r.status === 'delivered')).toMatchObject({ channel: 'sms' });

    expect(await m.standIn.inbound('sms', n, 'СТОП')).toBe(200);
    const e2 = withNumbers(statusChange(Events.ApplicationApproved, f), { phone: n, whatsapp: n });
    await m.svc.publish(e2);
    expect(await m.record(e2, (r) => r.status === 'skipped')).toMatchObject({
      reason: 'opted_out',
      channel: null,
    });
    const lookup = await staff.post(
      '/api/v1/messages/opt-outs/lookup',
      { phone: n },
      { token: m.svc.adminToken },
    );
    expect(lookup.body.data).toEqual({ phone: n, whatsapp: true, sms: true });
    const entries = await m.svc.conn
      .collection('activity_logs')
      .find({ action_type: 'MESSAGE_OPT_OUT' })
      .toArray();
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(entries)).not.toContain(n.slice(3));

    expect(await m.standIn.inbound('whatsapp', n, 'START')).toBe(200);
    const e3 = withNumbers(statusChange(Events.ApplicationCompleted, f), { phone: n, whatsapp: n });
    await m.svc.publish(e3);
    expect(await m.record(e3, (r) => r.status === 'read')).toMatchObject({ channel: 'whatsapp' });
  });

  test('when every channel refuses for good, then the message is parked as failed, listed, logged, and a resend sends it', async () => {
    // an SMS-only family whose number the SMS side refuses (undeliverable), WhatsApp off for it
    const n = freshNumber();
    m.standIn.setBehaviour({ smsUndeliverable: [n], whatsappUnreachable: [n] });
    const f = family();
    const e = withNumbers(requested(f, 'call_office'), { phone: n, whatsapp: n });
    await m.svc.publish(e);
    const failed = await m.record(e, (r) => r.status === 'failed');
    expect(failed.reason).toBe('undelivered');
    expect(failed.failed_channels).toEqual(['whatsapp', 'sms']);
    const list = await staff.get('/api/v1/messages/failed', { token: m.svc.volunteerToken });
    expect(list.body.data.messages.map((x: { id: number }) => x.id)).toContain(failed.id);
    // the prepared message's text goes by mail instead
    const [mail] = await box.waitFor(f.email!, 1);
    expect(mail!.Text).toContain(`Anfrage Nr. ${f.applicationId}`);
    const logged = await eventually(() =>
      m.svc.conn
        .collection('activity_logs')
        .findOne({ action_type: 'MESSAGE_FAILED', target_id: f.applicationId }),
    );
    expect(logged!.details_json).not.toContain(n.slice(3));

    const notFailed = await staff.post('/api/v1/messages/999999/resend', undefined, {
      token: m.svc.adminToken,
    });
    expect(notFailed.status).toBe(404);
    m.standIn.setBehaviour({ smsUndeliverable: [], whatsappUnreachable: [] });
    const resent = await staff.post(`/api/v1/messages/${failed.id}/resend`, undefined, {
      token: m.svc.adminToken,
    });
    expect(resent.status).toBe(202);
    expect(resent.body.data.message.status).toBe('queued');
    await m.record(e, (r) => r.status === 'read' && r.channel === 'whatsapp');
    const again = await staff.post(`/api/v1/messages/${failed.id}/resend`, undefined, {
      token: m.svc.adminToken,
    });
    expect(again.status).toBe(409);
  });

  test('when an event is delivered twice (even after a crash), then one message goes out', async () => {
    const n = freshNumber();
    const e = withNumbers(submitted(family()), { whatsapp: n });
    await m.svc.publish(e);
    await m.svc.handled(e);
    await m.svc.forgetProcessed(e);
    await m.svc.publish(e);
    await m.record(e, (r) => r.status === 'read');
    await eventually(
      async () =>
        (await m.svc.conn.collection('processed_events').findOne({ _id: e.eventId as never })) ??
        undefined,
    );
    expect(m.to(n)).toHaveLength(1);
    expect(await m.recordsOf({ _id: e.eventId })).toHaveLength(1);
  });

  test('when a message was left "sending" past its lease (the sender was killed mid-send), then it is sent once more and its record counts the attempt that was cut short', async () => {
    const n = freshNumber();
    const e = withNumbers(submitted(family()), { whatsapp: n });
    m.standIn.setDown('whatsapp', true);
    try {
      await m.svc.publish(e);
      await m.record(e, (r) => r.status === 'queued' && r.last_error !== null);
      // what a kill -9 between the claim and the provider's answer leaves behind. While WhatsApp
      // is away the sender claims the message every 1.5 s and gives it back; this raw write must
      // not meet one of those (FerretDB writes a document as read, change, write: the two would
      // both apply), so it is made only when the message is not due for another half second
      await eventually(async () => {
        const { modifiedCount } = await m.svc.conn.collection('messages').updateOne(
          {
            _id: e.eventId as never,
            status: 'queued',
            attempts: 0,
            next_attempt_at: { $gt: new Date(Date.now() + 500) },
          },
          { $set: { status: 'sending', attempts: 1, lease_until: new Date(Date.now() - 1000) } },
        );
        return modifiedCount === 1 || undefined;
      });
    } finally {
      m.standIn.setDown('whatsapp', false);
    }
    const read = await m.record(e, (r) => r.status === 'read');
    expect(read).toMatchObject({ attempts: 2, interrupted_attempts: 1, channel: 'whatsapp' });
    expect(m.to(n)).toHaveLength(1);
  });
});

describe('staff routes', () => {
  test('without a staff token the routes answer 401; bad input answers 422 in German and Ukrainian', async () => {
    for (const [method, path] of [
      ['get', '/api/v1/messages/?application_id=1'],
      ['get', '/api/v1/messages/failed'],
      ['get', '/api/v1/messages/status'],
    ] as const) {
      expect((await staff[method](path)).status).toBe(401);
    }
    expect((await staff.post('/api/v1/messages/1/resend')).status).toBe(401);
    expect(
      (
        await staff.put('/api/v1/messages/opt-outs', {
          phone: '+4915112345678',
          channel: 'sms',
          opted_out: true,
        })
      ).status,
    ).toBe(401);
    const none = await staff.get('/api/v1/messages/', { token: m.svc.adminToken });
    expect(none.status).toBe(422);
    const uk = await staff.put(
      '/api/v1/messages/opt-outs?lang=uk',
      { phone: 'abc', channel: 'fax', opted_out: 'yes' },
      { token: m.svc.adminToken },
    );
    expect(uk.status).toBe(422);
    expect(JSON.stringify(uk.body.detail)).toContain('Неправильний канал');
    const status = await staff.get('/api/v1/messages/status', { token: m.svc.volunteerToken });
    expect(status.body.data).toMatchObject({
      whatsapp: { enabled: true, reachable: true, budget: null, warning: false },
      sms: { enabled: true, reachable: true },
    });
  });
});

describe('privacy', () => {
  test("when an admin asks for a family's records, then its messages and its numbers' opt-outs are answered; an erasure deletes the messages and keeps the opt-out; retention deletes old finished messages", async () => {
    const f = family();
    const n = freshNumber();
    const e = withNumbers(submitted(f), { phone: n, whatsapp: n });
    await m.svc.publish(e);
    await m.record(e, (r) => r.status === 'read');
    await m.standIn.inbound('sms', n, 'STOP');
    const records = () =>
      staff.post(
        '/api/v1/privacy/records',
        { application_ids: [f.applicationId], phones: [n] },
        { token: m.svc.adminToken },
      );
    const before = (await records()).body;
    expect(before.messages).toHaveLength(1);
    expect(before.messages[0]).toMatchObject({ kind: 'submitted', event_id: e.eventId });
    expect(before.opt_outs).toEqual([{ channel: 'sms', by: 'family', since: expect.any(String) }]);
    expect(JSON.stringify(before.opt_outs)).not.toContain(n.slice(1));

    await m.svc.publish(
      createEvent(
        Events.PersonalDataErased,
        { reason: 'request', application_ids: [f.applicationId], wish_ids: [] },
        adminActor,
      ),
    );
    await eventually(
      async () => (await m.recordsOf({ application_id: f.applicationId })).length === 0,
    );
    const after = (await records()).body;
    expect(after.messages).toEqual([]);
    // kept to honour it: a hash of the number, no more
    expect(after.opt_outs).toHaveLength(1);

    // a late prepared message about the erased application queues nothing
    const late = withNumbers(requested(f, 'still_interested'), { phone: n, whatsapp: n });
    await m.svc.publish(late);
    await m.svc.handled(late);
    expect(await m.recordsOf({ _id: late.eventId })).toEqual([]);

    // retention: finished messages older than MESSAGE_RETENTION_DAYS go, waiting ones stay
    const g = family();
    const old = withNumbers(submitted(g), { whatsapp: freshNumber() });
    await m.svc.publish(old);
    await m.record(old, (r) => r.status === 'read');
    const deleted = await m.svc.service.messages.purgeOldMessages(
      new Date(Date.now() + 181 * 24 * 3600 * 1000),
    );
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await m.recordsOf({ _id: old.eventId })).toEqual([]);
  });
});
