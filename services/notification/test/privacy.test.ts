/**
 * Data protection (issue 15) in the notification service, on the real servers: administrators
 * read the mails and log entries of a family's applications and wishes; an erasure event deletes
 * the mails and strips the family from the log (its own entry holds no personal data); a sent
 * mail keeps no rendered text; the impact counters do not move.
 */
import { Events, type DomainEvent } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { eventually } from '@furniture/platform/testing';
import {
  adminActor,
  donationItemLot,
  donationStatusChanged,
  donationSubmitted,
  donor,
  family,
  freshId,
  statusChange,
  submitted,
} from './events';
import { startNotification, type NotificationUnderTest } from './harness';

let svc: NotificationUnderTest;
beforeAll(async () => {
  svc = await startNotification();
});
afterAll(async () => {
  await svc?.stop();
});

async function deliver(...events: DomainEvent[]) {
  for (const e of events) await svc.publish(e);
  for (const e of events) await svc.handled(e);
}
const records = (application_ids: number[], wish_ids: number[] = [], token = svc.adminToken) =>
  svc.http.post('/api/v1/privacy/records', { application_ids, wish_ids }, { token });
const mailsOf = (applicationId: number) =>
  svc.conn.collection('mails').find({ application_id: applicationId }).toArray();
const erased = (reason: 'request' | 'retention', application_ids: number[], wish_ids: number[]) =>
  createEvent(
    Events.PersonalDataErased,
    { reason, application_ids, wish_ids },
    reason === 'request' ? adminActor : null,
  );

/** A family's application (submitted, rejected with a note, a note) and a wish it was told of. */
async function familyHistory(name: string) {
  const f = family({ name });
  const wishId = freshId();
  const events = [
    submitted(f),
    statusChange(Events.ApplicationRejected, f, { note: `${name} hat abgesagt` }),
    createEvent(
      Events.ApplicationNoteAdded,
      { application_id: f.applicationId, lot_id: f.lotId, note: `Rückruf bei ${name}` },
      adminActor,
    ),
    createEvent(Events.WishCreated, {
      wish_id: wishId,
      applicant_name: name,
      furniture_category: 2,
      status: 'active',
    }),
    createEvent(
      Events.WishNotified,
      {
        wish_id: wishId,
        lot_id: f.lotId,
        lot_name: f.lotName,
        applicant_name: name,
        applicant_email: f.email,
        language: 'de',
        channel: 'email',
      },
      adminActor,
    ),
  ];
  await deliver(...events);
  return { f, wishId, events };
}

test('when a mail has been sent, then its record keeps recipient, subject and dates but no rendered text', async () => {
  const f = family();
  await deliver(submitted(f));
  const [mail] = await eventually(
    async () => {
      const m = await mailsOf(f.applicationId);
      return m.length === 1 && m[0]!.state === 'sent' ? m : undefined;
    },
    { what: 'mail sent' },
  );
  expect(mail).toMatchObject({ to: f.email, text: '', html: '', state: 'sent' });
  expect(mail!.subject).toBeTruthy();
  expect(JSON.stringify(mail)).not.toContain('Olena');
});

test('when an admin asks for the records of a family, then its mails and log entries are answered; volunteers and strangers are refused', async () => {
  const { f, wishId } = await familyHistory('Mariia Bondarenko');
  const res = await records([f.applicationId], [wishId]);
  expect(res.status).toBe(200);
  expect(res.body.mails.map((m: { application_id: number }) => m.application_id).sort()).toEqual(
    [f.applicationId, f.applicationId, -wishId].sort(),
  );
  expect(res.body.mails[0]).toMatchObject({ to: f.email, event_id: expect.any(String) });
  expect(res.body.activity).toHaveLength(5);
  expect(JSON.stringify(res.body.activity)).toContain('Mariia Bondarenko');

  expect((await records([f.applicationId], [], svc.volunteerToken)).status).toBe(403);
  expect(
    (await svc.http.post('/api/v1/privacy/records', { application_ids: [1], wish_ids: [] })).status,
  ).toBe(401);
  expect((await records([-1])).status).toBe(422);
  expect((await records([], [])).body).toEqual({
    mails: [],
    activity: [],
    messages: [],
    opt_outs: [],
  });
});

test('when an erasure on request arrives, then the mails go, the entries stay without the family, an ERASE entry without personal data is written and the impact counters do not move', async () => {
  const name = 'Oksana Melnyk';
  const { f, wishId } = await familyHistory(name);
  const impact = async () => (await svc.http.get('/api/v1/impact', { token: svc.adminToken })).body;
  const before = await impact();

  const e1 = erased('request', [f.applicationId], []);
  const e2 = erased('request', [], [wishId]);
  await deliver(e1, e2);

  const after = (await records([f.applicationId], [wishId])).body;
  expect(after.mails).toEqual([]);
  // five entries of the history and the two erasures
  expect(after.activity).toHaveLength(7);
  const text = JSON.stringify(after.activity);
  for (const trace of [name, 'Oksana', f.email!, 'abgesagt', 'Rückruf'])
    expect(text).not.toContain(trace);
  const rejected = after.activity.find((a: { action_type: string }) => a.action_type === 'REJECT');
  expect(rejected.details).toMatchObject({
    lot_id: f.lotId,
    old_status: 'pending',
    new_status: 'rejected',
  });
  const erase = after.activity.filter((a: { action_type: string }) => a.action_type === 'ERASE');
  expect(erase.map((a: { target_type: string }) => a.target_type).sort()).toEqual([
    'application',
    'wish',
  ]);
  expect(erase[0]).toMatchObject({ user_email: adminActor.email, details: { reason: 'request' } });

  // the search box no longer finds the family
  const search = await svc.http.get(`/api/v1/activity-logs?search=${encodeURIComponent(name)}`, {
    token: svc.adminToken,
  });
  expect(search.body.total).toBe(0);
  expect(await impact()).toEqual(before);

  // a redelivered erasure changes nothing
  await svc.forgetProcessed(e1);
  await deliver(e1);
  expect((await records([f.applicationId], [wishId])).body.activity).toHaveLength(7);
});

test('when the retention job erased a record, then mails and family details go and no log entry is written for it', async () => {
  const { f, wishId } = await familyHistory('Taras Hnatiuk');
  await deliver(erased('retention', [f.applicationId], []), erased('retention', [], [wishId]));
  const after = (await records([f.applicationId], [wishId])).body;
  expect(after.mails).toEqual([]);
  expect(after.activity).toHaveLength(5);
  expect(JSON.stringify(after.activity)).not.toContain('Taras');
});

test('when an event about an erased application arrives after the erasure (it was on its way, or retried), then no mail is queued and its entry holds no personal data', async () => {
  const f = family({ name: 'Bohdana Spaet' });
  await deliver(submitted(f), erased('request', [f.applicationId], []));
  const late = statusChange(Events.ApplicationRejected, f, { note: 'Bohdana Spaet: zu spät' });
  await deliver(late);
  const after = (await records([f.applicationId])).body;
  expect(after.mails).toEqual([]);
  expect(after.activity.map((a: { action_type: string }) => a.action_type).sort()).toEqual([
    'CREATE',
    'ERASE',
    'REJECT',
  ]);
  expect(JSON.stringify(after.activity)).not.toContain('Bohdana');
  // an event about another application of the same lot is mailed as usual
  const other = family({ lotId: f.lotId });
  await deliver(submitted(other));
  expect((await records([other.applicationId])).body.mails).toHaveLength(1);
});

describe("a donor's records (wave 3)", () => {
  const donorRecords = (donation_ids: number[]) =>
    svc.http.post('/api/v1/privacy/records', { donation_ids }, { token: svc.adminToken });
  const erasedDonor = (reason: 'request' | 'retention', donation_ids: number[]) =>
    createEvent(
      Events.PersonalDataErased,
      { reason, application_ids: [], wish_ids: [], donation_ids },
      reason === 'request' ? adminActor : null,
    );
  /** Waits until the donation's mails have all been sent. */
  const sentMails = (donationId: number, count: number) =>
    eventually(
      async () => {
        const m = await svc.conn.collection('mails').find({ donation_id: donationId }).toArray();
        return m.length === count && m.every((x) => x.state === 'sent') ? m : undefined;
      },
      { what: `${count} mails of donation ${donationId} sent` },
    );

  /** An offer, accepted with a note, a lot made of one item, then cancelled with a reason. */
  async function donorHistory(name: string) {
    const d = donor({ name });
    await deliver(
      donationSubmitted(d),
      donationStatusChanged(d, 'submitted', 'accepted', { note: `${name} ruft zurück` }),
      donationItemLot(d),
      donationStatusChanged(d, 'accepted', 'cancelled', { reason: `${name} ist umgezogen` }),
    );
    await sentMails(d.donationId, 3);
    return d;
  }

  test('when an admin asks for the records of a donation, then the donor’s mails and log entries are answered', async () => {
    const d = await donorHistory('Petra Spenderin');
    const other = await donorHistory('Maria Andere');
    const res = await donorRecords([d.donationId]);
    expect(res.status).toBe(200);
    // in the order the consumer stored them (its events may be handled side by side)
    expect(res.body.mails.map((m: { kind: string }) => m.kind).sort()).toEqual([
      'donation_accepted',
      'donation_cancelled',
      'donation_received',
    ]);
    for (const mail of res.body.mails)
      expect(mail).toMatchObject({ to: d.email, donation_id: d.donationId });
    expect(res.body.activity).toHaveLength(4);
    expect(JSON.stringify(res.body)).toContain('Petra Spenderin');
    expect(JSON.stringify(res.body)).not.toContain('Maria');
    expect((await donorRecords([other.donationId])).body.mails).toHaveLength(3);
    // a family's ids and a donor's together
    const f = family();
    await deliver(submitted(f));
    const both = await svc.http.post(
      '/api/v1/privacy/records',
      { application_ids: [f.applicationId], donation_ids: [d.donationId] },
      { token: svc.adminToken },
    );
    expect(both.body.mails).toHaveLength(4);
    expect((await donorRecords([0])).status).toBe(422);
  });

  test('when an erasure with donation ids arrives, then the donor’s mails go, the entries stay without name, note or reason, an ERASE entry names the donation, and a late event mails nothing', async () => {
    const name = 'Greta Vergessen';
    const d = await donorHistory(name);
    const impact = async () =>
      (await svc.http.get('/api/v1/impact', { token: svc.adminToken })).body;
    const before = await impact();

    const e = erasedDonor('request', [d.donationId]);
    await deliver(e);
    const after = (await donorRecords([d.donationId])).body;
    expect(after.mails).toEqual([]);
    expect(after.activity).toHaveLength(5);
    const text = JSON.stringify(after.activity);
    for (const trace of [name, 'Greta', d.email!, 'ruft zurück', 'umgezogen'])
      expect(text).not.toContain(trace);
    const cancelled = after.activity.find(
      (a: { details: { new_status?: string } }) => a.details?.new_status === 'cancelled',
    );
    expect(cancelled.details).toMatchObject({
      old_status: 'accepted',
      new_status: 'cancelled',
      cause: 'staff',
      item_count: d.itemCount,
    });
    const erase = after.activity.find((a: { action_type: string }) => a.action_type === 'ERASE');
    expect(erase).toMatchObject({
      target_type: 'donation',
      target_id: d.donationId,
      user_email: adminActor.email,
      details: { reason: 'request', donation_ids: [d.donationId] },
    });
    const search = await svc.http.get(`/api/v1/activity-logs?search=${encodeURIComponent(name)}`, {
      token: svc.adminToken,
    });
    expect(search.body.total).toBe(0);
    expect(await impact()).toEqual(before);

    // an event about the donation that arrives after the erasure: no mail, an entry without the donor
    const late = donationStatusChanged(d, 'accepted', 'expired');
    await deliver(late);
    const afterLate = (await donorRecords([d.donationId])).body;
    expect(afterLate.mails).toEqual([]);
    expect(afterLate.activity).toHaveLength(6);
    expect(JSON.stringify(afterLate.activity)).not.toContain('Greta');

    // a redelivered erasure changes nothing, and keeps its own entry's reason
    await svc.forgetProcessed(e);
    await deliver(e);
    const again = (await donorRecords([d.donationId])).body;
    expect(again.activity).toHaveLength(6);
    expect(
      again.activity.find((a: { action_type: string }) => a.action_type === 'ERASE').details,
    ).toMatchObject({ reason: 'request' });
  });

  test('when the retention job erased a donation, then its mails and the donor’s details go and no entry is written for it', async () => {
    const d = await donorHistory('Rita Frist');
    await deliver(erasedDonor('retention', [d.donationId]));
    const after = (await donorRecords([d.donationId])).body;
    expect(after.mails).toEqual([]);
    expect(after.activity).toHaveLength(4);
    expect(JSON.stringify(after.activity)).not.toContain('Rita');
  });
});
