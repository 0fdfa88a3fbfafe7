/**
 * The handover (issue 29) behind the real gateway, next to the real catalog, with the clock in
 * the test's hand: locations and slots, the family's booking by its personal link (book, move,
 * cancel, the change window, what is not offered, unknown links), a full slot under 20 bookings
 * at once, the reminder, missed slots, the day plan and its outcomes (done completes the
 * application and the catalog takes the lot; absent lapses it to the next family), donor
 * pickups (the catalog collects the donation), roles, and a broker outage during a booking.
 */
import { createHash } from 'node:crypto';
import { Events } from '@furniture/contracts';
import { outboxPublished, startService } from '@furniture/platform/testing';
import { applicationsService } from '../src/compose';
import { adminToken, applicationBody, eventually, volunteerToken } from './harness';
import { startStack, type Stack } from './stack';

const staff = (token = adminToken()) => ({ token });
const HOUR = 3600_000;

/** A clock the test sets: the service's "now" for pickup dates and slots. */
function settableClock(start: string) {
  let now = new Date(start);
  return {
    timeZone: 'Europe/Berlin',
    now: () => now,
    set(at: Date | string) {
      now = new Date(at);
    },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

const clock = settableClock('2026-11-24T09:00:00Z');
let s: Stack;
beforeAll(async () => {
  s = await startStack({
    calendar: clock,
    gatewayEnv: { RATE_LIMIT_PUBLIC_LOOKUPS: '100000' },
  });
});
afterAll(async () => {
  await s?.stop();
});

const getApp = async (id: number) => (await s.http.get(`/api/v1/applications/${id}`, staff())).body;
const statusOf = (id: number, status: string) =>
  eventually(
    async () => {
      const app = await getApp(id);
      return app.status === status && app.approval === null ? app : undefined;
    },
    { what: `application ${id} ${status}` },
  );

async function apply(lotId: number, overrides: Record<string, unknown> = {}) {
  const res = await s.http.post('/api/v1/applications/', applicationBody(lotId, overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** An approved family of a new lot: its application, lot and booking token. */
async function approvedFamily(overrides: Record<string, unknown> = {}) {
  const lot = await s.createLot();
  const id = await apply(lot, overrides);
  const res = await s.http.patch(
    `/api/v1/applications/${id}/status`,
    { status: 'approved' },
    staff(),
  );
  expect(res.status).toBe(202);
  const app = await statusOf(id, 'approved');
  expect(app.handover_url).toMatch(/\/handover\/[0-9a-f]{64}$/);
  const token = (app.handover_url as string).split('/handover/')[1]!;
  return { id, lot, token, app };
}

let location = 0;
async function aLocation() {
  if (location) return location;
  const res = await s.http.post(
    '/api/v1/locations/',
    { name: 'Lager Neukölln', address: 'Karl-Marx-Str. 10', city: 'Berlin', notes: 'Hof links' },
    staff(),
  );
  expect(res.status).toBe(201);
  location = res.body.id as number;
  return location;
}

/** A slot starting `hours` after the clock's now, one hour long. */
async function aSlot(hours: number, opts: { kind?: string; capacity?: number } = {}) {
  const start = new Date(clock.now().getTime() + hours * HOUR);
  const res = await s.http.post(
    '/api/v1/slots/',
    {
      location_id: await aLocation(),
      kind: opts.kind ?? 'pickup',
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + HOUR).toISOString(),
      capacity: opts.capacity ?? 2,
    },
    staff(volunteerToken()),
  );
  expect(res.status).toBe(201);
  expect(res.body.booked).toBe(0);
  return res.body.id as number;
}

const book = (token: string, slotId: number) =>
  s.http.post(`/api/v1/handovers/${token}/booking`, { slot_id: slotId });
const bookedOf = async (slotId: number) => {
  const res = await s.http.get('/api/v1/slots/?from=2026-01-01&to=2027-12-31', staff());
  return (res.body.slots as { id: number; booked: number }[]).find((x) => x.id === slotId)!.booked;
};
type HandoverEventName =
  | typeof Events.HandoverBooked
  | typeof Events.HandoverCancelled
  | typeof Events.HandoverReminderDue
  | typeof Events.HandoverClosed;
const handoverEvents = <N extends HandoverEventName>(name: N, applicationId: number) =>
  s.recorder.of(name).filter((e) => e.payload.application_id === applicationId);

test('when a family books, moves and cancels its slot by its link, then each answer, the slot counts and the events follow', async () => {
  const first = await aSlot(72);
  const second = await aSlot(96);
  const family = await approvedFamily({ language: 'uk' });

  const view = await s.http.get(`/api/v1/handovers/${family.token}`);
  expect(view.status).toBe(200);
  expect(view.headers.get('cache-control')).toMatch(/no-store/);
  expect(view.body).toMatchObject({
    application_id: family.id,
    lot: { id: family.lot },
    pickup_by: family.app.pickup_by,
    booking: null,
    language: 'uk',
  });
  const approved = await s.recorder.waitFor(
    Events.ApplicationApproved,
    (e) => e.payload.application_id === family.id,
  );
  expect(approved.payload.handover_url).toBe(family.app.handover_url);
  const offered = (view.body.slots as { id: number }[]).map((x) => x.id);
  expect(offered).toEqual(expect.arrayContaining([first, second]));

  const booked = await book(family.token, first);
  expect(booked.status).toBe(200);
  expect(booked.body.booking).toMatchObject({
    slot_id: first,
    kind: 'pickup',
    location: { name: 'Lager Neukölln', address: 'Karl-Marx-Str. 10', city: 'Berlin' },
  });
  expect(await bookedOf(first)).toBe(1);
  // the same slot again changes nothing
  expect((await book(family.token, first)).status).toBe(200);
  expect(await bookedOf(first)).toBe(1);

  const ics = await s.http.get(`/api/v1/handovers/${family.token}/calendar.ics`);
  expect(ics.status).toBe(200);
  expect(ics.headers.get('content-type')).toMatch(/text\/calendar/);
  expect(String(ics.body)).toMatch(/BEGIN:VEVENT[\s\S]*DTSTART:\d{8}T\d{6}Z[\s\S]*END:VCALENDAR/);

  const moved = await book(family.token, second);
  expect(moved.status).toBe(200);
  expect(moved.body.booking.slot_id).toBe(second);
  expect(await bookedOf(first)).toBe(0);
  expect(await bookedOf(second)).toBe(1);

  const cancelled = await s.http.delete(`/api/v1/handovers/${family.token}/booking`);
  expect(cancelled.status).toBe(204);
  expect(await bookedOf(second)).toBe(0);
  expect((await s.http.get(`/api/v1/handovers/${family.token}`)).body.booking).toBeNull();

  await eventually(() => handoverEvents(Events.HandoverCancelled, family.id).length === 1, {
    what: 'handover.cancelled',
  });
  const bookings = handoverEvents(Events.HandoverBooked, family.id);
  expect(bookings.map((e) => e.payload.moved_from_slot_id)).toEqual([null, first]);
  expect(bookings[0]!.payload).toMatchObject({
    by: 'family',
    slot_id: first,
    family: { language: 'uk', lot_id: family.lot, handover_url: family.app.handover_url },
  });
  expect(handoverEvents(Events.HandoverCancelled, family.id)[0]!.payload.by).toBe('family');
});

test('when 20 families book the 3 places of one slot at once, then exactly 3 get it and 17 hear it is full', async () => {
  const slot = await aSlot(80, { capacity: 3 });
  // set up a few at a time (the race is the bookings below, not the approvals)
  const families: Awaited<ReturnType<typeof approvedFamily>>[] = [];
  for (let i = 0; i < 4; i++)
    families.push(...(await Promise.all(Array.from({ length: 5 }, () => approvedFamily()))));
  const answers = await Promise.all(families.map((f) => book(f.token, slot)));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses.filter((x) => x === 200)).toHaveLength(3);
  expect(statuses.filter((x) => x === 409)).toHaveLength(17);
  for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('SLOT_FULL');
  expect(await bookedOf(slot)).toBe(3);
  // the slot is no longer offered to anyone else
  const view = await s.http.get(`/api/v1/handovers/${families[0]!.token}`);
  expect((view.body.slots as { id: number }[]).map((x) => x.id)).not.toContain(slot);
});

test('when a slot is not for the family (delivery without delivery help, after its pickup date, a donor pickup, too soon), then 422 SLOT_NOT_OFFERED; delivery help opens delivery slots', async () => {
  const plain = await approvedFamily({ needs_delivery_help: false });
  const helped = await approvedFamily({ needs_delivery_help: true });
  const delivery = await aSlot(72, { kind: 'delivery' });
  const donor = await aSlot(72, { kind: 'donor_pickup' });
  const late = await aSlot(24 * 12); // after the pickup date (7 days)
  const soon = await aSlot(3); // inside the change window (24 h)
  for (const slotId of [delivery, donor, late, soon]) {
    const res = await book(plain.token, slotId);
    expect([slotId, res.status, res.body.code]).toEqual([slotId, 422, 'SLOT_NOT_OFFERED']);
    expect(res.body.message).toEqual(expect.any(String));
  }
  const view = await s.http.get(`/api/v1/handovers/${helped.token}`);
  const kinds = new Set((view.body.slots as { kind: string }[]).map((x) => x.kind));
  expect(kinds).toEqual(new Set(['pickup', 'delivery']));
  expect((await book(helped.token, delivery)).status).toBe(200);
  expect(
    (await s.http.post('/api/v1/handovers/' + helped.token + '/booking', { slot_id: 99999999 }))
      .body.code,
  ).toBe('SLOT_NOT_FOUND');
});

test('when a link is unknown, malformed or its application is no longer approved, then 404 HANDOVER_NOT_FOUND without a word about anyone; the ended application gave its slot back', async () => {
  const unknown = await s.http.get(`/api/v1/handovers/${'x'.repeat(43)}`);
  expect(unknown.status).toBe(404);
  expect(unknown.body.code).toBe('HANDOVER_NOT_FOUND');
  expect(JSON.stringify(unknown.body)).not.toMatch(/Olena|application_id/);
  expect((await s.http.get('/api/v1/handovers/short')).body.code).toBe('HANDOVER_NOT_FOUND');
  expect((await book('y'.repeat(43), 1)).status).toBe(404);

  const slot = await aSlot(74);
  const family = await approvedFamily();
  expect((await book(family.token, slot)).status).toBe(200);
  const cancel = await s.http.patch(
    `/api/v1/applications/${family.id}/status`,
    { status: 'pending', note: 'Familie hat abgesagt' },
    staff(),
  );
  expect(cancel.status).toBe(200);
  expect(cancel.body.handover_url).toBeNull();
  expect(await bookedOf(slot)).toBe(0);
  const gone = await s.http.get(`/api/v1/handovers/${family.token}`);
  expect([gone.status, gone.body.code]).toEqual([404, 'HANDOVER_NOT_FOUND']);
  await eventually(
    () =>
      handoverEvents(Events.HandoverCancelled, family.id).some((e) => e.payload.by === 'system'),
    { what: 'handover.cancelled by the system' },
  );
});

test('when staff delete a slot with a booking, then 409 SLOT_BOOKED; once given back it can go; roles: volunteers keep slots, only admins locations, nobody without a token', async () => {
  const slot = await aSlot(76);
  const family = await approvedFamily();
  expect((await book(family.token, slot)).status).toBe(200);
  const refused = await s.http.delete(`/api/v1/slots/${slot}`, staff(volunteerToken()));
  expect([refused.status, refused.body.code]).toEqual([409, 'SLOT_BOOKED']);
  expect((await s.http.delete(`/api/v1/handovers/${family.token}/booking`)).status).toBe(204);
  expect((await s.http.delete(`/api/v1/slots/${slot}`, staff(volunteerToken()))).status).toBe(204);
  expect((await s.http.delete(`/api/v1/slots/${slot}`, staff())).status).toBe(404);

  const body = { name: 'X', address: 'Y 1', city: 'Berlin' };
  expect((await s.http.post('/api/v1/locations/', body, staff(volunteerToken()))).status).toBe(403);
  expect((await s.http.post('/api/v1/locations/', body)).status).toBe(401);
  expect((await s.http.get('/api/v1/locations/', staff(volunteerToken()))).status).toBe(200);
  expect((await s.http.get('/api/v1/slots/')).status).toBe(401);
  expect((await s.http.get('/api/v1/handovers/?date=2026-11-27')).status).toBe(401);
  expect((await s.http.patch('/api/v1/handovers/1', { outcome: 'done' })).status).toBe(401);
  expect((await s.http.post('/api/v1/handovers/', { donation_id: 1, slot_id: 1 })).status).toBe(
    401,
  );
});

test('when staff open a location feed, then it lists the stops without a family name or phone; a wrong key is 404', async () => {
  const slot = await aSlot(78);
  const family = await approvedFamily({ applicant_name: 'Natalia Feedtest' });
  expect((await book(family.token, slot)).status).toBe(200);
  const locations = (await s.http.get('/api/v1/locations/', staff())).body.locations;
  const url = new URL(locations.find((l: { id: number }) => l.id === location).calendar_url);
  const feed = await s.http.get(`${url.pathname}${url.search}`);
  expect(feed.status).toBe(200);
  expect(String(feed.body)).toContain(`Familie/Bewerbung #${family.id}`);
  expect(String(feed.body)).not.toMatch(/Natalia|Feedtest|\+49/);
  const wrong = await s.http.get(`${url.pathname}?key=wrong`);
  expect([wrong.status, wrong.body.code]).toEqual([404, 'LOCATION_NOT_FOUND']);
  // the key in a header instead (a script's way: no key in a URL that proxies keep)
  const key = url.searchParams.get('key')!;
  const byHeader = await s.http.get(url.pathname, { headers: { 'x-feed-key': key } });
  expect(byHeader.status).toBe(200);
  expect(String(byHeader.body)).toContain(`Familie/Bewerbung #${family.id}`);
  const none = await s.http.get(url.pathname);
  expect([none.status, none.body.code]).toEqual([404, 'LOCATION_NOT_FOUND']);
});

test('when a location and an approval are stored, then neither the feed key nor the booking link is in the database, only their digests; links stored in clear before are turned into digests at start and keep working', async () => {
  const family = await approvedFamily();
  const locations = (await s.http.get('/api/v1/locations/', staff())).body.locations;
  const loc = locations.find((l: { id: number }) => l.id === location)!;
  const key = new URL(loc.calendar_url).searchParams.get('key')!;
  const db = s.applications.conn;
  // the approval's event carries the link to the mail until the relay has published it
  await eventually(() => outboxPublished(db.collection('applications'), { id: family.id }), {
    what: 'the approval published',
  });
  const stored = JSON.stringify([
    await db.collection('applications').findOne({ id: family.id }),
    await db.collection('locations').findOne({ id: location }),
  ]);
  expect(stored).not.toContain(family.token);
  expect(stored).not.toContain(key);
  expect(stored).toContain(createHash('sha256').update(family.token).digest('hex'));
  // the same link and feed address are shown again (derived, not stored)
  expect((await getApp(family.id)).handover_url).toBe(family.app.handover_url);
  // an older version's clear token and feed key
  const legacy = await approvedFamily();
  const oldToken = 'a'.repeat(64);
  await db.collection('applications').updateOne(
    { id: legacy.id },
    {
      $set: { handover_token: oldToken },
      $unset: { handover_seed: '', handover_token_hash: '' },
    },
  );
  const oldKey = 'old-feed-key-stored-in-clear-0123456789';
  const other = await s.http.post(
    '/api/v1/locations/',
    { name: 'Altes Lager', address: 'Hermannstr. 1', city: 'Berlin' },
    staff(),
  );
  await db
    .collection('locations')
    .updateOne(
      { id: other.body.id },
      { $set: { feed_key: oldKey }, $unset: { feed_seed: '', feed_key_hashes: '' } },
    );
  expect(await s.applications.service.handovers.hashClearSecrets()).toEqual({
    links: 1,
    feeds: 1,
  });
  const after = JSON.stringify([
    await db.collection('applications').findOne({ id: legacy.id }),
    await db.collection('locations').findOne({ id: other.body.id }),
  ]);
  expect(after).not.toContain(oldToken);
  expect(after).not.toContain(oldKey);
  expect((await s.http.get(`/api/v1/handovers/${oldToken}`)).status).toBe(200);
  expect(
    (await s.http.get(`/api/v1/locations/${other.body.id}/calendar.ics?key=${oldKey}`)).status,
  ).toBe(200);
  const shown = (await s.http.get('/api/v1/locations/', staff())).body.locations.find(
    (l: { id: number }) => l.id === other.body.id,
  );
  expect(
    (await s.http.get(new URL(shown.calendar_url).pathname + new URL(shown.calendar_url).search))
      .status,
  ).toBe(200);
});

test('when the broker is away during a booking, then the family gets its answer and handover.booked goes out once it is back', async () => {
  const slot = await aSlot(82);
  const family = await approvedFamily();
  const bus = s.applications.bus;
  const publish = bus.publish.bind(bus);
  bus.publish = async () => {
    throw new Error('broker away (test)');
  };
  try {
    expect((await book(family.token, slot)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 600));
    expect(handoverEvents(Events.HandoverBooked, family.id)).toHaveLength(0);
    const stored = await s.applications.conn
      .collection('handovers')
      .findOne({ application_id: family.id, status: 'booked' });
    expect(stored?._outbox_pending).toBe(true);
  } finally {
    bus.publish = publish;
  }
  await eventually(() => handoverEvents(Events.HandoverBooked, family.id).length === 1, {
    what: 'handover.booked after the outage',
  });
});

test('when a booked family is marked done on the day plan, then the application is completed and the catalog marks the lot taken; a second outcome is 409', async () => {
  const slot = await aSlot(84);
  const family = await approvedFamily({ applicant_name: 'Iryna Done' });
  expect((await book(family.token, slot)).status).toBe(200);
  const day = new Date(clock.now().getTime() + 84 * HOUR).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Berlin',
  });
  const plan = await s.http.get(`/api/v1/handovers/?date=${day}`, staff(volunteerToken()));
  expect(plan.status).toBe(200);
  const stop = (plan.body.handovers as { application_id: number; id: number }[]).find(
    (x) => x.application_id === family.id,
  )!;
  expect(stop).toMatchObject({
    kind: 'pickup',
    status: 'booked',
    family: { name: 'Iryna Done', address: null },
    lot: { id: family.lot },
  });

  const done = await s.http.patch(
    `/api/v1/handovers/${stop.id}`,
    { outcome: 'done', note: 'alles gut' },
    staff(volunteerToken()),
  );
  expect(done.status).toBe(200);
  expect(done.body.status).toBe('done');
  const app = await statusOf(family.id, 'completed');
  expect(app.handover_url).toBeNull();
  await s.waitForCatalogStatus(family.lot, 'taken');
  const closed = await s.recorder.waitFor(
    Events.HandoverClosed,
    (e) => e.payload.application_id === family.id,
  );
  expect(closed.payload).toMatchObject({ outcome: 'done', note: 'alles gut' });
  const completed = await s.recorder.waitFor(
    Events.ApplicationCompleted,
    (e) => e.payload.application_id === family.id,
  );
  expect(completed.payload.approved_at).toEqual(expect.any(String));
  const again = await s.http.patch(`/api/v1/handovers/${stop.id}`, { outcome: 'absent' }, staff());
  expect([again.status, again.body.code]).toEqual([409, 'HANDOVER_CLOSED']);
});

test('when a family is not met, then the pickup lapses: the application is rejected and the next family of the lot is offered it', async () => {
  const slot = await aSlot(86);
  const lot = await s.createLot();
  const first = await apply(lot);
  const second = await apply(lot);
  await s.http.patch(`/api/v1/applications/${first}/status`, { status: 'approved' }, staff());
  const app = await statusOf(first, 'approved');
  const token = (app.handover_url as string).split('/handover/')[1]!;
  await statusOf(second, 'rejected');
  expect((await book(token, slot)).status).toBe(200);
  const day = new Date(clock.now().getTime() + 86 * HOUR).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Berlin',
  });
  const plan = await s.http.get(`/api/v1/handovers/?date=${day}`, staff());
  const stop = (plan.body.handovers as { application_id: number; id: number }[]).find(
    (x) => x.application_id === first,
  )!;
  const absent = await s.http.patch(`/api/v1/handovers/${stop.id}`, { outcome: 'absent' }, staff());
  expect(absent.status).toBe(200);
  expect(absent.body.status).toBe('absent');
  await eventually(async () => (await getApp(first)).status === 'rejected', {
    what: 'the lapse',
  });
  const next = await s.recorder.waitFor(
    Events.ApplicationNextInQueue,
    (e) => e.payload.after_application_id === first,
  );
  expect(next.payload).toMatchObject({ application_id: second, lot_id: lot });
  expect(await bookedOf(slot)).toBe(0);
});

test('when staff book a donor pickup for an accepted donation and mark it done, then the catalog collects the donation; a donation not accepted is refused', async () => {
  const slot = await aSlot(88, { kind: 'donor_pickup' });
  const offer = async () => {
    const res = await s.http.post('/api/v1/donations/', {
      donor_name: 'Sabine Gärtner',
      donor_phone: '0176 2345 6789',
      language: 'de',
      city: 'Berlin',
      address: 'Sonnenallee 12',
      floor: 3,
      has_elevator: false,
      available_until: '2099-12-31',
      items: [{ category_id: 1, description: 'Dreisitzer-Sofa, grau', condition: 'very_good' }],
      consent: true,
    });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const open = await offer();
  const refused = await s.http.post(
    '/api/v1/handovers/',
    { donation_id: open, slot_id: slot },
    staff(),
  );
  expect([refused.status, refused.body.code]).toEqual([409, 'DONATION_PICKUP_NOT_ALLOWED']);
  const pickupSlot = await s.http.post(
    '/api/v1/handovers/',
    { donation_id: open, slot_id: await aSlot(88) },
    staff(),
  );
  expect([pickupSlot.status, pickupSlot.body.code]).toEqual([422, 'SLOT_NOT_OFFERED']);

  const accepted = await offer();
  expect(
    (await s.http.patch(`/api/v1/donations/${accepted}/status`, { status: 'accepted' }, staff()))
      .status,
  ).toBe(200);
  const created = await s.http.post(
    '/api/v1/handovers/',
    { donation_id: accepted, slot_id: slot },
    staff(volunteerToken()),
  );
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    donation_id: accepted,
    application_id: null,
    kind: 'donor_pickup',
    family: { name: 'Sabine Gärtner', phone: '+4917623456789', address: 'Sonnenallee 12' },
  });
  const twice = await s.http.post(
    '/api/v1/handovers/',
    { donation_id: accepted, slot_id: slot },
    staff(),
  );
  expect(twice.body.code).toBe('DONATION_PICKUP_NOT_ALLOWED');

  expect(
    (await s.http.patch(`/api/v1/handovers/${created.body.id}`, { outcome: 'done' }, staff()))
      .status,
  ).toBe(200);
  await eventually(
    async () =>
      (await s.http.get(`/api/v1/donations/${accepted}`, staff())).body.status === 'collected',
    { what: 'donation collected' },
  );
});

test('when staff reorder the day plan, then it answers in that order', async () => {
  const a = await aSlot(90);
  const b = await aSlot(91);
  const first = await approvedFamily();
  const second = await approvedFamily();
  expect((await book(first.token, a)).status).toBe(200);
  expect((await book(second.token, b)).status).toBe(200);
  const day = new Date(clock.now().getTime() + 90 * HOUR).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Berlin',
  });
  const ids = async () =>
    (
      (await s.http.get(`/api/v1/handovers/?date=${day}`, staff())).body.handovers as {
        id: number;
        application_id: number;
      }[]
    )
      .filter((x) => [first.id, second.id].includes(x.application_id))
      .map((x) => x.application_id);
  expect(await ids()).toEqual([first.id, second.id]);
  const plan = (await s.http.get(`/api/v1/handovers/?date=${day}`, staff())).body.handovers as {
    id: number;
    application_id: number;
  }[];
  const reversed = plan.map((x) => x.id).reverse();
  const res = await s.http.put('/api/v1/handovers/order', { date: day, ids: reversed }, staff());
  expect(res.status).toBe(200);
  expect(await ids()).toEqual([second.id, first.id]);
});

test('when staff create slots from a weekly pattern, then each chosen weekday gets one at the local time (summer and winter time alike); too many at once is 422', async () => {
  const locationId = await aLocation();
  const res = await s.http.post(
    '/api/v1/slots/pattern',
    {
      location_id: locationId,
      kind: 'delivery',
      from: '2027-03-22', // Monday; Germany moves to summer time on Sunday 28 March
      to: '2027-04-02',
      weekdays: [1, 3],
      start_time: '10:00',
      end_time: '12:30',
      capacity: 4,
    },
    staff(volunteerToken()),
  );
  expect(res.status).toBe(201);
  expect((res.body.slots as { starts_at: string }[]).map((x) => x.starts_at)).toEqual([
    '2027-03-22T09:00:00.000Z',
    '2027-03-24T09:00:00.000Z',
    '2027-03-29T08:00:00.000Z',
    '2027-03-31T08:00:00.000Z',
  ]);
  expect(res.body.slots[0]).toMatchObject({ kind: 'delivery', capacity: 4, booked: 0 });
  const listed = await s.http.get(
    `/api/v1/slots/?from=2027-03-29&to=2027-03-29&location_id=${locationId}&kind=delivery`,
    staff(),
  );
  expect((listed.body.slots as { ends_at: string }[]).map((x) => x.ends_at)).toEqual([
    '2027-03-29T10:30:00.000Z',
  ]);
  const tooMany = await s.http.post(
    '/api/v1/slots/pattern',
    {
      location_id: locationId,
      kind: 'pickup',
      from: '2027-01-01',
      to: '2028-12-31',
      weekdays: [1, 2, 3, 4, 5],
      start_time: '10:00',
      end_time: '11:00',
      capacity: 1,
    },
    staff(),
  );
  expect([tooMany.status, tooMany.body.code]).toEqual([422, 'SLOT_PATTERN_TOO_MANY']);
  const backwards = await s.http.post(
    '/api/v1/slots/',
    {
      location_id: locationId,
      kind: 'pickup',
      starts_at: '2027-01-01T10:00:00+01:00',
      ends_at: '2027-01-01T09:00:00+01:00',
      capacity: 1,
    },
    staff(),
  );
  expect([backwards.status, backwards.body.code]).toEqual([422, 'VALIDATION_FAILED']);
});

test('when a number is looked up, then its handovers are listed; its erasure clears their notes and kills the link', async () => {
  const slot = await aSlot(92);
  const family = await approvedFamily();
  expect((await book(family.token, slot)).status).toBe(200);
  const day = new Date(clock.now().getTime() + 92 * HOUR).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Berlin',
  });
  const plan = await s.http.get(`/api/v1/handovers/?date=${day}`, staff());
  const stop = (plan.body.handovers as { application_id: number; id: number }[]).find(
    (x) => x.application_id === family.id,
  )!;
  const note = 'Herr Kowalenko half beim Tragen';
  expect(
    (await s.http.patch(`/api/v1/handovers/${stop.id}`, { outcome: 'done', note }, staff())).status,
  ).toBe(200);
  await statusOf(family.id, 'completed');
  const phone = family.app.applicant_phone as string;
  const lookup = await s.http.post('/api/v1/privacy/lookup', { phone }, staff());
  expect(lookup.status).toBe(200);
  expect(lookup.body.handovers).toEqual([
    expect.objectContaining({ id: stop.id, application_id: family.id, note, status: 'done' }),
  ]);
  const erased = await s.http.post('/api/v1/privacy/erase', { phone }, staff());
  expect(erased.status).toBe(200);
  const after = await s.applications.conn.collection('handovers').findOne({ id: stop.id });
  expect(after?.note).toBeNull();
  const app = await s.applications.conn.collection('applications').findOne({ id: family.id });
  expect([app?.handover_seed, app?.handover_token_hash]).toEqual([null, null]);
});

test('when two instances of the service on one database book the last place of a slot at once, then one family gets it', async () => {
  const second = await startService(applicationsService, {
    dbName: s.applications.config.MONGO_DB,
    exchange: s.applications.exchange,
    env: {
      LOT_SNAPSHOT_SYNC: 'never',
      CATALOG_URL: s.catalogUrl,
      PHONE_LOOKUPS_PER_IP: '100000',
      PUBLIC_WRITES_PER_IP: '100000',
    },
    options: { calendar: clock },
  });
  try {
    const slot = await aSlot(94, { capacity: 1 });
    const [a, b] = await Promise.all([approvedFamily(), approvedFamily()]);
    const answers = await Promise.all([
      book(a.token, slot),
      second.http.post(`/api/v1/handovers/${b.token}/booking`, { slot_id: slot }),
    ]);
    // with the code: a 404 here once in CI said nothing of which refusal it was
    const said = answers.map((x) => (x.status === 200 ? '200' : `${x.status} ${x.body?.code}`));
    expect(said.sort()).toEqual(['200', '409 SLOT_FULL']);
    expect(await bookedOf(slot)).toBe(1);
  } finally {
    await second.stop();
  }
});

test('when a process died between a change and its follow-through, then the job finishes it: a booking of an application no longer approved is given back, an unfinished done completes the application', async () => {
  const db = s.applications.conn;
  const slot = await aSlot(96, { capacity: 2 });
  const left = await approvedFamily();
  const done = await approvedFamily();
  expect((await book(left.token, slot)).status).toBe(200);
  expect((await book(done.token, slot)).status).toBe(200);
  // the writes below go around the service: only once its outbox relay is done with both
  const published = (id: number) => async () =>
    (await db.collection('handovers').findOne({ application_id: id }))?._outbox_pending !== true;
  await eventually(published(left.id), { what: 'booking published' });
  await eventually(published(done.id), { what: 'booking published' });
  // as if the status change was written and the process died before its booking was given back
  await db.collection('applications').updateOne({ id: left.id }, { $set: { status: 'rejected' } });
  // as if the outcome was written and the process died before the application was completed
  await db.collection('handovers').updateOne(
    { application_id: done.id, status: 'booked' },
    {
      $set: {
        status: 'done',
        active_key: `ended:${done.id}-test`,
        follow_up: 'complete',
        updated_at: new Date(Date.now() - 10 * 60_000),
      },
    },
  );
  const result = await s.applications.service.handovers.check();
  expect(result.cancelled).toBeGreaterThanOrEqual(1);
  expect(result.followed).toBeGreaterThanOrEqual(1);
  await eventually(
    () => handoverEvents(Events.HandoverCancelled, left.id).some((e) => e.payload.by === 'system'),
    { what: 'the stale booking given back' },
  );
  await statusOf(done.id, 'completed');
  const stored = await db.collection('handovers').findOne({ application_id: done.id });
  expect(stored?.follow_up).toBeNull();
});

// the clock moves from here on: the earlier tests' bookings are left behind
test('when the day before a slot comes, then the family is reminded once; a change inside the change window is refused; a slot that passed unconfirmed is missed and the pickup overdue', async () => {
  const slot = await aSlot(50);
  const family = await approvedFamily({ language: 'uk' });
  expect((await book(family.token, slot)).status).toBe(200);
  const other = await aSlot(49);
  const handovers = s.applications.service.handovers;

  await handovers.check();
  clock.advance(30 * HOUR); // the slot is tomorrow, 20 hours away
  await handovers.check();
  await handovers.check();
  await eventually(() => handoverEvents(Events.HandoverReminderDue, family.id).length === 1, {
    what: 'one reminder',
  });
  expect(handoverEvents(Events.HandoverReminderDue, family.id)[0]!.payload.family).toMatchObject({
    language: 'uk',
  });

  const change = await book(family.token, other);
  expect([change.status, change.body.code]).toEqual([409, 'HANDOVER_CHANGE_CLOSED']);
  expect(change.body.message).toContain('24');
  const cancel = await s.http.delete(`/api/v1/handovers/${family.token}/booking`);
  expect([cancel.status, cancel.body.code]).toEqual([409, 'HANDOVER_CHANGE_CLOSED']);

  clock.advance(20 * HOUR + HOUR + 30 * 60_000); // the slot ended 30 minutes ago: grace
  await handovers.check();
  expect(handoverEvents(Events.HandoverClosed, family.id)).toHaveLength(0);
  clock.advance(2 * HOUR);
  await handovers.check();
  const missed = await s.recorder.waitFor(
    Events.HandoverClosed,
    (e) => e.payload.application_id === family.id,
  );
  expect(missed.payload.outcome).toBe('missed');
  await s.recorder.waitFor(
    Events.ApplicationPickupOverdue,
    (e) => e.payload.application_id === family.id,
  );
  const app = await getApp(family.id);
  expect(app).toMatchObject({ status: 'approved', pickup_overdue: true });
});
