import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Events, type ActivityLogEntry, type DomainEvent } from '@furniture/contracts';
import { createEvent, Store } from '@furniture/platform';
import { eventually, signTestToken } from '@furniture/platform/testing';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify';
import {
  adminActor,
  at,
  donationItemLot,
  donationStatusChanged,
  donationSubmitted,
  donor,
  family,
  freshId,
  handoverBooked,
  handoverCancelled,
  handoverClosed,
  handoverReminderDue,
  slot,
  statusChange,
  submitted,
  volunteerActor,
} from './events';
import { ADMIN, VOLUNTEER, startNotification, type NotificationUnderTest } from './harness';
import { ActivityRepository } from '../src/activity/data-access/activity-repository';
import type { Models } from '../src/activity/data-access/models';
import { csvColumns, csvRow } from '../src/activity/domain/activity-csv';

let svc: NotificationUnderTest;
let admin: { token: string };

beforeAll(async () => {
  // the tests store the export's closed months themselves (storeClosedMonths) and delete them
  // between exports; the job a minute after the start would store them meanwhile when this file
  // runs longer than a minute (a loaded machine), and its writes raced the deleting (a month's
  // head kept without its rows), so it waits beyond the file's run here
  svc = await startNotification({ EXPORT_MONTHS_DELAY_SECONDS: '86400' });
  admin = { token: svc.adminToken };
});
afterAll(async () => {
  await svc?.stop();
});

const get = (path: string, token = svc.adminToken) => svc.http.get(path, { token });
/** the service's activity repository as a new process declares it (reads and writes behind the API) */
const activityRepository = () =>
  new ActivityRepository(
    new Store(svc.conn),
    {
      Activity: svc.conn.model('Activity'),
      LogUser: svc.conn.model('LogUser'),
      Mail: svc.conn.model('Mail'),
    } as unknown as Models,
    'Europe/Berlin',
  );

const user = (id: number, name: string) => ({
  id,
  name,
  email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.org`,
  role: 'volunteer' as const,
});
const category = (id: number) => ({
  id,
  name: { de: 'Betten', uk: 'Ліжка' },
  description: { de: '', uk: '' },
  icon: '🛏️',
  version: 1,
});
const lot = (id: number, name = { de: 'Kleiderschrank weiß', uk: 'Шафа біла' }) => ({
  id,
  name,
  status: 'available' as const,
  category_id: 4,
  photos: [],
  version: 1,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
});

/** Publishes events and waits until each has its entry. */
async function publishAll(events: DomainEvent[]) {
  for (const e of events) await svc.publish(e);
  for (const e of events) await svc.entryOf(e);
}

describe('one entry per domain event', () => {
  test('when each kind of event arrives, then it is logged with the spec action and target types, the actor and the details', async () => {
    const t = (n: number) => new Date(Date.UTC(2023, 5, 1, 10, 0, n)).toISOString();
    const u = user(freshId(), 'Petra Neu');
    const catId = freshId();
    const lotId = freshId();
    const wishId = freshId();
    const f = family({ lotId, name: 'Iryna Shevchenko' });
    const ev = <E extends DomainEvent>(e: E, n: number) => at(e, t(n));
    const rows: [DomainEvent, Record<string, unknown>][] = [
      [
        ev(createEvent(Events.UserLoggedIn, { user: { ...u, role: 'admin' } }), 1),
        // a login names no actor of its own: the user who logged in is the one who acted
        {
          action_type: 'LOGIN',
          target_type: 'user',
          target_id: u.id,
          user_id: u.id,
          user_name: 'Petra Neu',
        },
      ],
      [
        ev(createEvent(Events.UserLoggedOut, { user: u }, { ...u }), 2),
        { action_type: 'LOGOUT', target_type: 'user', target_id: u.id, user_id: u.id },
      ],
      [
        ev(createEvent(Events.UserPasswordChanged, { user: u }, { ...u }), 3),
        { action_type: 'PASSWORD_CHANGE', target_type: 'user', target_id: u.id, user_id: u.id },
      ],
      [
        ev(createEvent(Events.UserCreated, { user: u }, adminActor), 4),
        {
          action_type: 'CREATE',
          target_type: 'user',
          target_id: u.id,
          user_id: ADMIN.id,
          user_name: ADMIN.name,
          user_email: ADMIN.email,
          user_role: 'admin',
          details: { user_name: 'Petra Neu', user_email: u.email, role: 'volunteer' },
        },
      ],
      [
        ev(
          createEvent(
            Events.UserUpdated,
            {
              user: { ...u, role: 'admin' },
              changes: { role: { old: 'volunteer', new: 'admin' } },
            },
            adminActor,
          ),
          5,
        ),
        {
          action_type: 'UPDATE',
          target_type: 'user',
          target_id: u.id,
          details: expect.objectContaining({
            old_value: { role: 'volunteer' },
            new_value: { role: 'admin' },
          }),
        },
      ],
      [
        ev(createEvent(Events.UserDeleted, { user: u }, adminActor), 6),
        { action_type: 'DELETE', target_type: 'user', target_id: u.id },
      ],
      [
        ev(createEvent(Events.CategoryCreated, { category: category(catId) }, adminActor), 7),
        { action_type: 'CREATE', target_type: 'category', target_id: catId },
      ],
      [
        ev(
          createEvent(
            Events.CategoryUpdated,
            { category: category(catId), changes: { icon: { old: '📦', new: '🛏️' } } },
            adminActor,
          ),
          8,
        ),
        {
          action_type: 'UPDATE',
          target_type: 'category',
          target_id: catId,
          details: expect.objectContaining({
            old_value: { icon: '📦' },
            new_value: { icon: '🛏️' },
          }),
        },
      ],
      [
        ev(createEvent(Events.CategoryDeleted, { category: category(catId) }, adminActor), 9),
        { action_type: 'DELETE', target_type: 'category', target_id: catId },
      ],
      [
        ev(createEvent(Events.LotCreated, { lot: lot(lotId) }, volunteerActor), 10),
        {
          action_type: 'CREATE',
          target_type: 'lot',
          target_id: lotId,
          user_id: VOLUNTEER.id,
          user_role: 'volunteer',
          details: {
            name: { de: 'Kleiderschrank weiß', uk: 'Шафа біла' },
            status: 'available',
            category_id: 4,
          },
        },
      ],
      [
        ev(
          createEvent(
            Events.LotUpdated,
            { lot: lot(lotId), changes: { condition: { old: 'gut', new: 'sehr gut' } } },
            volunteerActor,
          ),
          11,
        ),
        {
          action_type: 'UPDATE',
          target_type: 'lot',
          target_id: lotId,
          details: expect.objectContaining({
            old_value: { condition: 'gut' },
            new_value: { condition: 'sehr gut' },
          }),
        },
      ],
      [
        ev(
          createEvent(
            Events.LotStatusChanged,
            {
              lot: { ...lot(lotId), status: 'reserved' },
              old_status: 'available',
              new_status: 'reserved',
              cause: 'reservation',
              application_id: f.applicationId,
            },
            adminActor,
          ),
          12,
        ),
        {
          action_type: 'STATUS_CHANGE',
          target_type: 'lot',
          target_id: lotId,
          details: expect.objectContaining({
            old_status: 'available',
            new_status: 'reserved',
            application_id: f.applicationId,
          }),
        },
      ],
      [
        ev(
          createEvent(
            Events.PhotoUploaded,
            {
              photo_id: 77,
              lot_id: lotId,
              urls: { thumbnail: '/media/t.webp', medium: '/media/m.webp', large: '/media/l.webp' },
            },
            volunteerActor,
          ),
          13,
        ),
        {
          action_type: 'PHOTO_UPLOAD',
          target_type: 'lot',
          target_id: lotId,
          details: { photo_id: 77, url: '/media/t.webp' },
        },
      ],
      [
        ev(createEvent(Events.PhotoDeleted, { photo_id: 77, lot_id: lotId }, volunteerActor), 14),
        {
          action_type: 'PHOTO_DELETE',
          target_type: 'lot',
          target_id: lotId,
          details: { photo_id: 77 },
        },
      ],
      [
        ev(submitted({ ...f, email: null }), 15),
        {
          action_type: 'CREATE',
          target_type: 'application',
          target_id: f.applicationId,
          // an applicant is no staff member
          user_id: null,
          user_name: null,
          user_email: null,
          details: expect.objectContaining({
            applicant_name: 'Iryna Shevchenko',
            actor: 'applicant',
            new_status: 'pending',
            queue_position: 1,
          }),
        },
      ],
      [
        ev(statusChange(Events.ApplicationApproved, { ...f, email: null }, { note: 'passt' }), 16),
        {
          action_type: 'APPROVE',
          target_type: 'application',
          target_id: f.applicationId,
          user_id: ADMIN.id,
          details: expect.objectContaining({
            old_status: 'pending',
            new_status: 'approved',
            note: 'passt',
          }),
        },
      ],
      [
        ev(
          statusChange(
            Events.ApplicationReservationCancelled,
            { ...f, email: null },
            {
              reason: 'reservation_failed',
              actor: null,
            },
          ),
          17,
        ),
        {
          action_type: 'CANCEL_RESERVATION',
          target_type: 'application',
          user_id: null,
          details: expect.objectContaining({ reason: 'reservation_failed', actor: 'system' }),
        },
      ],
      [
        ev(
          statusChange(Events.ApplicationRejected, { ...f, email: null }, { note: 'zu spät' }),
          18,
        ),
        { action_type: 'REJECT', target_type: 'application', target_id: f.applicationId },
      ],
      [
        ev(statusChange(Events.ApplicationReconsidered, { ...f, email: null }), 19),
        { action_type: 'RECONSIDER', target_type: 'application', target_id: f.applicationId },
      ],
      [
        ev(statusChange(Events.ApplicationCompleted, { ...f, email: null }), 20),
        { action_type: 'COMPLETE', target_type: 'application', target_id: f.applicationId },
      ],
      [
        ev(
          createEvent(
            Events.ApplicationNoteAdded,
            { application_id: f.applicationId, lot_id: lotId, note: 'Abholung Freitag' },
            volunteerActor,
          ),
          21,
        ),
        {
          action_type: 'NOTE_ADD',
          target_type: 'application',
          target_id: f.applicationId,
          details: { lot_id: lotId, note: 'Abholung Freitag' },
        },
      ],
      [
        ev(
          createEvent(Events.WishCreated, {
            wish_id: wishId,
            applicant_name: 'Mykola',
            furniture_category: 2,
            status: 'active',
          }),
          22,
        ),
        {
          action_type: 'CREATE',
          target_type: 'wish',
          target_id: wishId,
          user_id: null,
          details: expect.objectContaining({ actor: 'applicant', applicant_name: 'Mykola' }),
        },
      ],
      [
        ev(
          createEvent(
            Events.WishStatusChanged,
            {
              wish_id: wishId,
              old_status: 'active',
              new_status: 'fulfilled',
              admin_notes: 'geliefert',
            },
            adminActor,
          ),
          23,
        ),
        {
          action_type: 'STATUS_CHANGE',
          target_type: 'wish',
          target_id: wishId,
          details: { old_status: 'active', new_status: 'fulfilled', note: 'geliefert' },
        },
      ],
      [
        ev(createEvent(Events.LotDeleted, { lot: lot(lotId) }, adminActor), 24),
        { action_type: 'DELETE', target_type: 'lot', target_id: lotId },
      ],
      [
        // a session ended by a replayed refresh token says so (a logout says nothing more)
        ev(
          createEvent(
            Events.UserLoggedOut,
            { user: u, session_id: 's-1', reason: 'refresh_reuse' },
            { ...u },
          ),
          40,
        ),
        {
          action_type: 'LOGOUT',
          target_type: 'user',
          target_id: u.id,
          details: expect.objectContaining({ reason: 'session_refresh_reuse' }),
        },
      ],
    ];
    await publishAll(rows.map(([e]) => e));

    const res = await get(
      '/api/v1/activity-logs?date_from=2023-06-01&date_to=2023-06-01&limit=100',
    );
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(rows.length);
    // newest first: the reverse of the order they happened in
    const entries = [...res.body.data].reverse();
    rows.forEach(([event, expected], i) => {
      expect(entries[i]).toMatchObject({
        ...expected,
        source: 'server',
        created_at: event.occurredAt,
      });
      expect(entries[i].id).toEqual(expect.any(Number));
    });
    expect(entries[0]).not.toHaveProperty('event_id');
    expect(entries[0]).not.toHaveProperty('_id');
  });

  test('when a donor offers furniture, staff accept it and make a lot of an item, then each step has its entry on the donation, found by the donation id and by the lot id, with the donor named but never their contact', async () => {
    const d = donor({ name: 'Jana Spenderin', itemCount: 3 });
    const lotId = freshId();
    const t = (n: number) => new Date(Date.UTC(2023, 6, 2, 10, 0, n)).toISOString();
    const offered = at(
      donationSubmitted(d, { categoryIds: [1, 1, 4], availableUntil: '2026-12-24' }),
      t(1),
    );
    const accepted = at(
      donationStatusChanged(d, 'submitted', 'accepted', { note: 'Keller, 2. Stock' }),
      t(2),
    );
    const lotMade = at(donationItemLot(d, lotId, 4), t(3));
    const collected = at(donationStatusChanged(d, 'accepted', 'collected'), t(4));
    await publishAll([offered, accepted, lotMade, collected]);

    const res = await get(`/api/v1/activity-logs?target_type=donation&target_id=${d.donationId}`);
    expect(res.status).toBe(200);
    const [took, made, accept, create] = res.body.data;
    expect(create).toMatchObject({
      action_type: 'CREATE',
      target_type: 'donation',
      target_id: d.donationId,
      user_id: null,
      details: {
        actor: 'donor',
        donor_name: 'Jana Spenderin',
        new_status: 'submitted',
        item_count: 3,
        category_ids: [1, 1, 4],
        available_until: '2026-12-24',
      },
    });
    expect(accept).toMatchObject({
      action_type: 'STATUS_CHANGE',
      user_name: adminActor.name,
      details: {
        donor_name: 'Jana Spenderin',
        old_status: 'submitted',
        new_status: 'accepted',
        cause: 'staff',
        reason: null,
        note: 'Keller, 2. Stock',
      },
    });
    expect(made).toMatchObject({
      action_type: 'CREATE',
      target_type: 'donation',
      target_id: d.donationId,
      details: { item_id: lotMade.payload.item_id, lot_id: lotId, category_id: 4 },
    });
    expect(took).toMatchObject({ details: { old_status: 'accepted', new_status: 'collected' } });
    expect(res.body.total).toBe(4);
    expect(JSON.stringify(res.body.data)).not.toContain(d.email!);

    // the lot's id finds the entry of the item it was made of
    const byLot = await get(`/api/v1/activity-logs?search=${lotId}`);
    expect(byLot.body.data.map((e: { id: number }) => e.id)).toContain(made.id);
    // so does the donor's name
    const byName = await get('/api/v1/activity-logs?search=jana%20spenderin');
    expect(byName.body.total).toBe(3);
  });

  test('when staff decline a donation or the expiry job expires one, then the reason is logged with the staff member, the expiry as the system', async () => {
    const declinedOne = donor();
    const expiredOne = donor();
    const declined = donationStatusChanged(declinedOne, 'submitted', 'declined', {
      reason: 'Zu stark beschädigt',
    });
    const expired = donationStatusChanged(expiredOne, 'accepted', 'expired');
    await publishAll([declined, expired]);
    expect(await svc.entryOf(declined)).toMatchObject({ action_type: 'STATUS_CHANGE' });
    const [d] = (
      await get(`/api/v1/activity-logs?target_type=donation&target_id=${declinedOne.donationId}`)
    ).body.data;
    expect(d).toMatchObject({
      user_email: adminActor.email,
      details: { new_status: 'declined', reason: 'Zu stark beschädigt', cause: 'staff' },
    });
    const [e] = (
      await get(`/api/v1/activity-logs?target_type=DONATION&target_id=${expiredOne.donationId}`)
    ).body.data;
    expect(e).toMatchObject({
      user_id: null,
      details: { actor: 'system', old_status: 'accepted', new_status: 'expired', cause: 'expired' },
    });
    // the German CSV names it
    const csv = await get(
      `/api/v1/activity-logs/export.csv?target_type=donation&target_id=${declinedOne.donationId}`,
    );
    expect(csv.body as string).toContain(
      `Status geändert: Spende #${declinedOne.donationId}, Spender: Jana Weber, Eingegangen → Abgelehnt, Grund: Zu stark beschädigt`,
    );
  });

  test('when a family books, moves and gives back its slot, the system ends one, a driver closes them and staff book a donor pickup, then each has its HANDOVER entry with who did it; the reminder has none', async () => {
    const f = family();
    const t = (n: number) => new Date(Date.UTC(2023, 7, 3, 10, 0, n)).toISOString();
    const first = slot();
    const later = slot({
      handoverId: first.handoverId,
      location: { ...first.location, name: 'Lager Süd' },
    });
    const booked = at(handoverBooked(first, f), t(1));
    const moved = at(handoverBooked(later, f, { movedFrom: first.slotId }), t(2));
    const reminder = at(handoverReminderDue(later, f), t(3));
    const givenBack = at(handoverCancelled(later, f, 'family'), t(4));
    const byStaff = at(handoverCancelled(later, f, 'staff'), t(5));
    const ended = at(handoverCancelled(later, f, 'system'), t(6));
    const done = at(handoverClosed(later, f, 'done', { note: 'Nachbar half tragen' }), t(7));
    const absent = at(handoverClosed(later, f, 'absent'), t(8));
    const missed = at(handoverClosed(later, f, 'missed'), t(9));
    const donationId = freshId();
    const pickupSlot = slot({ kind: 'donor_pickup' });
    const donorPickup = at(handoverBooked(pickupSlot, null, { donationId }), t(10));
    const collected = at(handoverClosed(pickupSlot, null, 'done', { donationId }), t(11));
    const logged = [booked, moved, givenBack, byStaff, ended, done, absent, missed];
    await publishAll([...logged, donorPickup, collected]);
    await svc.publish(reminder);
    await svc.handled(reminder);
    expect(
      await svc.conn.collection('activity_logs').findOne({ _id: reminder.eventId } as never),
    ).toBeNull();

    const res = await get(
      `/api/v1/activity-logs?target_type=application&target_id=${f.applicationId}&limit=20`,
    );
    expect(res.body.total).toBe(logged.length);
    const entries = [...res.body.data].reverse();
    const slotDetails = {
      handover_id: first.handoverId,
      kind: 'pickup',
      starts_at: first.startsAt,
    };
    expect(
      entries.map((e: ActivityLogEntry) => [
        e.action_type,
        e.user_name,
        (e.details as Record<string, unknown>).actor,
      ]),
    ).toEqual([
      ['HANDOVER_BOOK', null, 'applicant'],
      ['HANDOVER_BOOK', null, 'applicant'],
      ['HANDOVER_CANCEL', null, 'applicant'],
      ['HANDOVER_CANCEL', adminActor.name, undefined],
      // the application ended: the system gave the slot back, not the family
      ['HANDOVER_CANCEL', null, 'system'],
      ['HANDOVER_DONE', volunteerActor.name, undefined],
      ['HANDOVER_ABSENT', volunteerActor.name, undefined],
      // the slot ended without an outcome
      ['HANDOVER_ABSENT', null, 'system'],
    ]);
    expect(entries[0]).toMatchObject({
      target_type: 'application',
      user_id: null,
      details: { ...slotDetails, slot_id: first.slotId, location: 'Lager Nord', by: 'family' },
    });
    expect(entries[1].details).toMatchObject({
      slot_id: later.slotId,
      location: 'Lager Süd',
      moved_from_slot_id: first.slotId,
    });
    expect(entries[4].details).toMatchObject({ by: 'system' });
    expect(entries[5].details).toMatchObject({ outcome: 'done', note: 'Nachbar half tragen' });
    expect(entries[7].details).toMatchObject({ outcome: 'missed', note: null });
    // no address, phone or e-mail of the family in the log
    expect(JSON.stringify(res.body.data)).not.toContain(f.email!);

    const donation = await get(
      `/api/v1/activity-logs?target_type=donation&target_id=${donationId}`,
    );
    expect(
      donation.body.data.map((e: ActivityLogEntry) => [
        e.action_type,
        e.user_name,
        (e.details as Record<string, unknown>).kind,
      ]),
    ).toEqual([
      ['HANDOVER_DONE', volunteerActor.name, 'donor_pickup'],
      ['HANDOVER_BOOK', adminActor.name, 'donor_pickup'],
    ]);

    // the German CSV names the kind, the place and who gave the slot back
    const csv = (
      await get(
        `/api/v1/activity-logs/export.csv?target_type=application&target_id=${f.applicationId}`,
      )
    ).body as string;
    expect(csv).toContain(
      `Übergabetermin abgesagt: Bewerbung #${f.applicationId}, Abholung, Ort: Lager Süd, automatisch (Bewerbung beendet)`,
    );
    expect(csv).toContain(
      `Nicht angetroffen: Bewerbung #${f.applicationId}, Abholung, Ort: Lager Süd, Termin ohne Rückmeldung verstrichen`,
    );

    // an erasure keeps the slot and the outcome, not the driver's note
    const erasure = createEvent(
      Events.PersonalDataErased,
      { reason: 'request', application_ids: [f.applicationId], wish_ids: [] },
      adminActor,
    );
    await svc.publish(erasure);
    await svc.handled(erasure);
    const after = await get(
      `/api/v1/activity-logs?target_type=application&target_id=${f.applicationId}&action_type=HANDOVER_DONE`,
    );
    expect(after.body.data[0].details).toEqual({
      handover_id: first.handoverId,
      kind: 'pickup',
      slot_id: later.slotId,
      starts_at: later.startsAt,
      location: 'Lager Süd',
      outcome: 'done',
    });
  });

  test('when a lot is reserved or its reservation fails, then those echoes get no entry of their own', async () => {
    const lotId = freshId();
    const reserved = createEvent(Events.LotReserved, { lot: lot(lotId), application_id: 1 });
    const failed = createEvent(Events.LotReservationFailed, {
      lot_id: lotId,
      application_id: 1,
      lot_status: 'taken',
      reason: 'not_available',
    });
    await svc.publish(reserved);
    await svc.publish(failed);
    // the service does not even subscribe to them; an event published after them is logged
    const after = createEvent(Events.LotDeleted, { lot: lot(lotId) }, adminActor);
    await svc.publish(after);
    await svc.entryOf(after);
    const res = await get(`/api/v1/activity-logs?target_id=${lotId}`);
    expect(res.body.data.map((e: { action_type: string }) => e.action_type)).toEqual(['DELETE']);
  });

  test('when the same event is delivered twice, then it has one entry', async () => {
    const event = createEvent(Events.LotCreated, { lot: lot(freshId()) }, adminActor);
    await svc.publish(event);
    await svc.entryOf(event);
    await svc.handled(event);
    await svc.forgetProcessed(event);
    await svc.publish(event);
    await svc.handled(event);
    const res = await get(
      `/api/v1/activity-logs?target_type=lot&target_id=${event.payload.lot.id}`,
    );
    expect(res.body.total).toBe(1);
  });
});

describe('list, filters and paging', () => {
  // Berlin is UTC+1 in March 2024: 2024-03-01T23:30Z is already 2 March there.
  const lotName = { de: 'Kleiderschrank weiß', uk: 'Шафа біла' };
  const appA = family({ name: 'Олена Коваленко', lotName });
  const appB = family({ name: 'Taras Bondar', lotId: appA.lotId, lotName });
  const L = appA.lotId;
  const wishId = freshId();
  const seeded = {
    login: at(
      createEvent(Events.UserLoggedIn, { user: { ...adminActor } }, adminActor),
      '2024-03-01T08:00:00.000Z',
    ),
    lotCreated: at(
      createEvent(Events.LotCreated, { lot: lot(L) }, volunteerActor),
      '2024-03-01T09:00:00.000Z',
    ),
    submitted: at(submitted({ ...appA, email: null }), '2024-03-01T23:30:00.000Z'),
    approved: at(
      statusChange(Events.ApplicationApproved, { ...appA, email: null }),
      '2024-03-02T10:00:00.000Z',
    ),
    reserved: at(
      createEvent(
        Events.LotStatusChanged,
        {
          lot: { ...lot(L), status: 'reserved' },
          old_status: 'available',
          new_status: 'reserved',
          cause: 'reservation',
          application_id: appA.applicationId,
        },
        adminActor,
      ),
      '2024-03-02T10:00:01.000Z',
    ),
    rejectedB: at(
      statusChange(
        Events.ApplicationRejected,
        { ...appB, email: null },
        {
          reason: 'competitor_approved',
          actor: null,
        },
      ),
      '2024-03-02T10:00:02.000Z',
    ),
    note: at(
      createEvent(
        Events.ApplicationNoteAdded,
        { application_id: appA.applicationId, lot_id: L, note: '=HYPERLINK("http://x")' },
        volunteerActor,
      ),
      '2024-03-03T12:00:00.000Z',
    ),
    photo: at(
      createEvent(
        Events.PhotoUploaded,
        {
          photo_id: 5,
          lot_id: L,
          urls: { thumbnail: '/media/a.webp', medium: '/media/b.webp', large: '/media/c.webp' },
        },
        volunteerActor,
      ),
      '2024-03-04T08:00:00.000Z',
    ),
    wish: at(
      createEvent(
        Events.WishStatusChanged,
        { wish_id: wishId, old_status: 'active', new_status: 'fulfilled', admin_notes: null },
        adminActor,
      ),
      '2024-03-05T08:00:00.000Z',
    ),
    // the admin under an earlier name: the entry keeps it, the user filter shows the newest
    oldName: at(
      createEvent(
        Events.UserLoggedOut,
        { user: { ...adminActor } },
        { ...adminActor, name: 'Anna Früher' },
      ),
      '2024-03-01T07:00:00.000Z',
    ),
  };
  const RANGE = 'date_from=2024-03-01&date_to=2024-03-06';
  const ids = (body: { data: { created_at: string }[] }) => body.data.map((e) => e.created_at);

  beforeAll(async () => {
    await publishAll(Object.values(seeded));
  });

  test('when listing a range, then the entries come newest first with the paging fields', async () => {
    const res = await get(`/api/v1/activity-logs?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      page: 1,
      per_page: 50,
      total: 10,
      total_pages: 1,
      has_next: false,
    });
    expect(ids(res.body)).toEqual(
      Object.values(seeded)
        .map((e) => e.occurredAt)
        .sort()
        .reverse(),
    );
  });

  test('when paging with a limit, then the pages split the list without gaps or repeats', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await get(`/api/v1/activity-logs?${RANGE}&limit=4&page=${page}`);
      expect(res.body).toMatchObject({
        page,
        per_page: 4,
        total: 10,
        total_pages: 3,
        has_next: page < 3,
      });
      pages.push(...res.body.data);
    }
    expect(pages.map((e) => e.id)).toEqual(
      (await get(`/api/v1/activity-logs?${RANGE}`)).body.data.map((e: { id: number }) => e.id),
    );
    const beyond = await get(`/api/v1/activity-logs?${RANGE}&limit=4&page=4`);
    expect(beyond.body).toMatchObject({ data: [], total: 10, has_next: false });
  });

  test('when filtering by calendar days, then the days are the office time zone days', async () => {
    const res = await get('/api/v1/activity-logs?date_from=2024-03-02&date_to=2024-03-02');
    expect(ids(res.body)).toEqual([
      seeded.rejectedB.occurredAt,
      seeded.reserved.occurredAt,
      seeded.approved.occurredAt,
      seeded.submitted.occurredAt,
    ]);
    const exact = await get(
      `/api/v1/activity-logs?date_from=${encodeURIComponent('2024-03-02T10:00:00.000Z')}&date_to=${encodeURIComponent('2024-03-02T10:00:01.000Z')}`,
    );
    expect(ids(exact.body)).toEqual([seeded.reserved.occurredAt, seeded.approved.occurredAt]);
  });

  test('when filtering by user, action type (either case), target type and target id, then only matching entries come', async () => {
    const byUser = await get(`/api/v1/activity-logs?${RANGE}&user_id=${VOLUNTEER.id}`);
    expect(ids(byUser.body)).toEqual([
      seeded.photo.occurredAt,
      seeded.note.occurredAt,
      seeded.lotCreated.occurredAt,
    ]);
    const byAction = await get(`/api/v1/activity-logs?${RANGE}&action_type=approve`);
    expect(ids(byAction.body)).toEqual([seeded.approved.occurredAt]);
    const byTargetType = await get(`/api/v1/activity-logs?${RANGE}&target_type=lot`);
    expect(ids(byTargetType.body)).toEqual([
      seeded.photo.occurredAt,
      seeded.reserved.occurredAt,
      seeded.lotCreated.occurredAt,
    ]);
    const byTarget = await get(
      `/api/v1/activity-logs?${RANGE}&target_type=application&target_id=${appA.applicationId}`,
    );
    expect(ids(byTarget.body)).toEqual([
      seeded.note.occurredAt,
      seeded.approved.occurredAt,
      seeded.submitted.occurredAt,
    ]);
    const combined = await get(
      `/api/v1/activity-logs?${RANGE}&user_id=${ADMIN.id}&action_type=STATUS_CHANGE&target_type=wish`,
    );
    expect(ids(combined.body)).toEqual([seeded.wish.occurredAt]);
    const empty = await get(`/api/v1/activity-logs?${RANGE}&user_id=&action_type=&search=`);
    expect(empty.body.total).toBe(10);
  });

  test('when searching, then names, e-mails, lot names and notes are found regardless of case', async () => {
    const applicant = await get(
      `/api/v1/activity-logs?${RANGE}&search=${encodeURIComponent('КОВАЛЕНКО')}`,
    );
    expect(ids(applicant.body)).toEqual([seeded.approved.occurredAt, seeded.submitted.occurredAt]);
    const lotName = await get(
      `/api/v1/activity-logs?${RANGE}&search=${encodeURIComponent('шафа')}`,
    );
    expect(ids(lotName.body)).toEqual([
      seeded.rejectedB.occurredAt,
      seeded.reserved.occurredAt,
      seeded.approved.occurredAt,
      seeded.submitted.occurredAt,
      seeded.lotCreated.occurredAt,
    ]);
    const email = await get(`/api/v1/activity-logs?${RANGE}&search=VIKTOR@`);
    expect(email.body.total).toBe(3);
    const regexChars = await get(
      `/api/v1/activity-logs?${RANGE}&search=${encodeURIComponent('("http')}`,
    );
    expect(ids(regexChars.body)).toEqual([seeded.note.occurredAt]);
  });

  test('when asking for stats of a range, then actions and users are counted', async () => {
    const res = await get(`/api/v1/activity-logs/stats?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date_from: '2024-03-01', date_to: '2024-03-06', total: 10 });
    expect(res.body.by_action_type).toEqual(
      expect.arrayContaining([
        { action_type: 'STATUS_CHANGE', count: 2 },
        { action_type: 'LOGIN', count: 1 },
        { action_type: 'LOGOUT', count: 1 },
        { action_type: 'CREATE', count: 2 },
        { action_type: 'APPROVE', count: 1 },
        { action_type: 'REJECT', count: 1 },
        { action_type: 'NOTE_ADD', count: 1 },
        { action_type: 'PHOTO_UPLOAD', count: 1 },
      ]),
    );
    expect(res.body.by_action_type).toHaveLength(8);
    expect(res.body.by_target_type).toEqual([
      { target_type: 'application', count: 4 },
      { target_type: 'lot', count: 3 },
      { target_type: 'user', count: 2 },
      { target_type: 'wish', count: 1 },
    ]);
    expect(res.body.by_user).toEqual([
      { user_id: ADMIN.id, user_name: ADMIN.name, user_email: ADMIN.email, count: 5 },
      { user_id: VOLUNTEER.id, user_name: VOLUNTEER.name, user_email: VOLUNTEER.email, count: 3 },
      { user_id: null, user_name: null, user_email: null, count: 2 },
    ]);
    const oneDay = await get('/api/v1/activity-logs/stats?date_from=2024-03-03&date_to=2024-03-03');
    expect(oneDay.body).toMatchObject({
      total: 1,
      by_action_type: [{ action_type: 'NOTE_ADD', count: 1 }],
    });
  });

  test('when asking for the users of the log, then each staff member appears once with the newest name', async () => {
    const res = await get('/api/v1/activity-logs/users');
    expect(res.status).toBe(200);
    const anna = res.body.data.find((u: { id: number }) => u.id === ADMIN.id);
    expect(anna).toMatchObject({ name: ADMIN.name, email: ADMIN.email, role: 'admin' });
    expect(res.body.data.filter((u: { id: number }) => u.id === VOLUNTEER.id)).toHaveLength(1);
    // the entry itself keeps the name the admin had then
    const logout = await get(`/api/v1/activity-logs?${RANGE}&action_type=LOGOUT`);
    expect(logout.body.data[0].user_name).toBe('Anna Früher');
  });

  test('when exporting CSV with filters, then a spreadsheet gets UTF-8 with BOM, German headers and the same rows as the list', async () => {
    const res = await fetch(`${svc.url}/api/v1/activity-logs/export.csv?${RANGE}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="aktivitaetsprotokoll-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: Record<string, string>[] = parse(bytes, {
      bom: true,
      columns: true,
      delimiter: ';',
    });
    expect(Object.keys(rows[0]!)).toEqual([
      'ID',
      'Zeitpunkt',
      'Zeitpunkt (UTC)',
      'Aktion',
      'Aktionstyp',
      'Ziel',
      'Zieltyp',
      'Ziel-ID',
      'Benutzer-ID',
      'Benutzer',
      'E-Mail',
      'Rolle',
      'Beschreibung',
      'Details',
      'Quelle',
    ]);
    const list = await get(`/api/v1/activity-logs?${RANGE}`);
    expect(rows.map((r) => Number(r.ID))).toEqual(list.body.data.map((e: { id: number }) => e.id));

    const submittedRow = rows.find((r) => r['Zeitpunkt (UTC)'] === seeded.submitted.occurredAt)!;
    expect(submittedRow).toMatchObject({
      Zeitpunkt: '02.03.2024 00:30:00',
      Aktion: 'Erstellt',
      Aktionstyp: 'CREATE',
      Ziel: 'Bewerbung',
      Zieltyp: 'application',
      'Ziel-ID': String(appA.applicationId),
      'Benutzer-ID': '',
      Quelle: 'System',
    });
    expect(submittedRow.Beschreibung).toContain('Antragsteller: Олена Коваленко');
    expect(submittedRow.Beschreibung).toContain('„Kleiderschrank weiß“');
    const approvedRow = rows.find((r) => r.Aktionstyp === 'APPROVE')!;
    expect(approvedRow).toMatchObject({
      Benutzer: ADMIN.name,
      'E-Mail': ADMIN.email,
      Rolle: 'Administrator',
    });
    expect(approvedRow.Beschreibung).toContain('Ausstehend → Genehmigt');
    // a note that looks like a formula is not run by the spreadsheet
    const noteRow = rows.find((r) => r.Aktionstyp === 'NOTE_ADD')!;
    expect(noteRow.Beschreibung!.startsWith('Notiz hinzugefügt')).toBe(true);
    expect(noteRow.Beschreibung).toContain('Notiz: =HYPERLINK');

    const filtered = await fetch(
      `${svc.url}/api/v1/activity-logs/export.csv?${RANGE}&action_type=approve`,
      { headers: { authorization: `Bearer ${admin.token}` } },
    );
    const approvals: Record<string, string>[] = parse(Buffer.from(await filtered.arrayBuffer()), {
      bom: true,
      columns: true,
      delimiter: ';',
    });
    expect(approvals.map((r) => r.Aktionstyp)).toEqual(['APPROVE']);
  });

  test('when an admin exports, then the export itself is logged with its filters and row count', async () => {
    const token = signTestToken({
      id: 91,
      role: 'admin',
      name: 'Export Admin',
      email: 'export@example.org',
    });
    const res = await fetch(`${svc.url}/api/v1/activity-logs/export.csv?${RANGE}&target_type=lot`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    const entry = await eventually(async () => {
      const list = await get('/api/v1/activity-logs?user_id=91&action_type=EXPORT');
      return list.body.data[0];
    });
    expect(entry).toMatchObject({
      action_type: 'EXPORT',
      target_type: 'system',
      target_id: null,
      user_name: 'Export Admin',
      details: {
        format: 'csv',
        rows: 3,
        completed: true,
        filters: { target_type: 'lot', date_from: '2024-03-01', date_to: '2024-03-06' },
      },
    });
  });

  test('when a spreadsheet cell would start like a formula, then the export defuses it', async () => {
    const token = signTestToken({
      id: 92,
      role: 'volunteer',
      name: '=cmd|calc',
      email: 'x@example.org',
    });
    const posted = await svc.http.post(
      '/api/v1/activity-logs',
      { action_type: 'CONTACT', target_id: 1, details: '@SUM(A1)' },
      { token },
    );
    expect(posted.status).toBe(201);
    const res = await fetch(`${svc.url}/api/v1/activity-logs/export.csv?user_id=92`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const [row] = parse(Buffer.from(await res.arrayBuffer()), {
      bom: true,
      columns: true,
      delimiter: ';',
    }) as Record<string, string>[];
    expect(row!.Benutzer).toBe("'=cmd|calc");
    expect(row!.Details).toBe("'@SUM(A1)");
  });
});

describe('entries posted by staff clients', () => {
  test('when a volunteer posts an entry, then it is stored under the token user and an admin finds it', async () => {
    const res = await svc.http.post(
      '/api/v1/activity-logs',
      {
        action_type: 'contact',
        target_id: '17',
        details: { target_type: 'application', note: 'WhatsApp geschrieben' },
      },
      { token: svc.volunteerToken },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      action_type: 'CONTACT',
      target_type: 'application',
      target_id: 17,
      user_id: VOLUNTEER.id,
      user_name: VOLUNTEER.name,
      user_email: VOLUNTEER.email,
      user_role: 'volunteer',
      source: 'client',
      // the client's words, as text: never read as the platform's facts
      details: '{"target_type":"application","note":"WhatsApp geschrieben"}',
    });
    const found = await get(
      `/api/v1/activity-logs?user_id=${VOLUNTEER.id}&action_type=CONTACT&target_id=17`,
    );
    expect(found.body.data).toEqual([res.body]);
  });

  test('when the details are a text and no target type is given, then the text is kept and the target is the system', async () => {
    const res = await svc.http.post(
      '/api/v1/activity-logs',
      { action_type: 'EXPORT', details: 'Export von 12 Losen' },
      { token: svc.adminToken },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      target_type: 'system',
      target_id: null,
      details: 'Export von 12 Losen',
    });
  });

  test.each([
    'LOGIN',
    'LOGOUT',
    'PASSWORD_CHANGE',
    'CREATE',
    'UPDATE',
    'DELETE',
    'APPROVE',
    'REJECT',
    'STATUS_CHANGE',
    'CONTACT',
    'NOTE_ADD',
    'complete',
    'cancel_reservation',
    'export',
    'import',
  ])(
    "when staff post an entry of type %s, as the specification's client-side logger does, then it is stored as the client's",
    async (actionType) => {
      const res = await svc.http.post(
        '/api/v1/activity-logs',
        { action_type: actionType, target_id: 5, details: { target_type: 'lot', name: 'Sofa' } },
        { token: svc.volunteerToken },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        action_type: actionType.toUpperCase(),
        target_type: 'lot',
        target_id: 5,
        user_id: VOLUNTEER.id,
        source: 'client',
        details: '{"target_type":"lot","name":"Sofa"}',
      });
    },
  );

  test.each(['APPROVAL_FAILED', 'ERASE', 'PICKUP_OVERDUE', 'PHOTO_UPLOAD', 'HANDOVER_DONE'])(
    'when staff post an entry of type %s, which only the platform writes, then 422 and nothing is stored',
    async (actionType) => {
      const before = await svc.http.get('/api/v1/activity-logs?limit=1', { token: svc.adminToken });
      const res = await svc.http.post(
        '/api/v1/activity-logs',
        { action_type: actionType, target_id: 1, details: 'forged' },
        { token: svc.adminToken },
      );
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'action_type'] });
      const after = await svc.http.get('/api/v1/activity-logs?limit=1', { token: svc.adminToken });
      expect(after.body.total).toBe(before.body.total);
    },
  );

  test("when the body names another user, a server source or an event, then the entry is still the token user's and the client's", async () => {
    const res = await svc.http.post(
      '/api/v1/activity-logs',
      {
        action_type: 'APPROVE',
        target_id: 3,
        user_id: ADMIN.id,
        user_name: ADMIN.name,
        user_email: ADMIN.email,
        user_role: 'admin',
        source: 'server',
        event_id: 'forged-event',
        created_at: '2020-01-01T00:00:00.000Z',
        details: { target_type: 'application', user_name: ADMIN.name, new_status: 'approved' },
      },
      { token: svc.volunteerToken },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user_id: VOLUNTEER.id,
      user_name: VOLUNTEER.name,
      user_email: VOLUNTEER.email,
      user_role: 'volunteer',
      source: 'client',
    });
    expect(typeof res.body.details).toBe('string');
    expect(Date.now() - Date.parse(res.body.created_at)).toBeLessThan(60_000);
    const stored = await svc.conn.collection('activity_logs').findOne({ id: res.body.id });
    expect(stored?.event_id).not.toBe('forged-event');
    const byAdmin = await get(`/api/v1/activity-logs?user_id=${ADMIN.id}&target_id=3`);
    expect(byAdmin.body.data.map((e: ActivityLogEntry) => e.id)).not.toContain(res.body.id);
  });

  test('when one staff member posts more than the limit, then 429 with Retry-After for them alone', async () => {
    const busy = signTestToken({ id: 9101, role: 'volunteer', email: 'busy@example.org' });
    const post = (token: string) =>
      svc.http.post('/api/v1/activity-logs', { action_type: 'UPDATE', details: 'x' }, { token });
    for (let i = 0; i < 120; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => post(busy)));
      expect(batch.map((r) => r.status)).toEqual(Array(20).fill(201));
    }
    const refused = await post(busy);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = signTestToken({ id: 9102, role: 'volunteer', email: 'calm@example.org' });
    expect((await post(other)).status).toBe(201);
  });

  test('when the body is invalid, then 422 names the fields in the asked language', async () => {
    const res = await svc.http.post(
      '/api/v1/activity-logs',
      { action_type: 'DANCE', target_id: 'abc' },
      { token: svc.volunteerToken, headers: { 'accept-language': 'uk' } },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'action_type'], msg: 'Неприпустиме значення' }),
        expect.objectContaining({ loc: ['body', 'target_id'] }),
      ]),
    );
    const missing = await svc.http.post('/api/v1/activity-logs', {}, { token: svc.volunteerToken });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({
      loc: ['body', 'action_type'],
      type: 'required',
    });
  });

  test('when the details are too large, then 422 with a stable code', async () => {
    const res = await svc.http.post(
      '/api/v1/activity-logs',
      { action_type: 'CONTACT', details: { text: 'x'.repeat(10_001) } },
      { token: svc.adminToken, headers: { 'accept-language': 'de' } },
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'ACTIVITY_DETAILS_TOO_LARGE',
      message: 'Die Details sind zu umfangreich (höchstens 10000 Zeichen).',
    });
  });
});

describe('who may read the log', () => {
  test.each(['', '/stats', '/users', '/export.csv'])(
    'when a volunteer asks for /activity-logs%s, then 403',
    async (path) => {
      const res = await svc.http.get(`/api/v1/activity-logs${path}`, {
        token: svc.volunteerToken,
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    },
  );

  test.each(['', '/stats', '/users', '/export.csv'])(
    "when a partner agency's referrer asks for /activity-logs%s, then 403 (issue 44)",
    async (path) => {
      const token = signTestToken({ id: 9001, role: 'referrer', name: 'Olena' });
      const res = await svc.http.get(`/api/v1/activity-logs${path}`, { token });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    },
  );

  test('when nobody is logged in, then reading and posting answer 401', async () => {
    expect((await svc.http.get('/api/v1/activity-logs')).status).toBe(401);
    expect((await svc.http.get('/api/v1/activity-logs/export.csv')).status).toBe(401);
    const post = await svc.http.post('/api/v1/activity-logs', { action_type: 'LOGIN' });
    expect(post.status).toBe(401);
    expect(post.body.code).toBe('AUTH_REQUIRED');
    const forged = await svc.http.get('/api/v1/activity-logs', { token: 'not.a.token' });
    expect(forged.status).toBe(401);
  });
});

describe('query validation', () => {
  test('when the paging or filters are invalid, then 422 instead of a guess', async () => {
    const tooMany = await get('/api/v1/activity-logs?limit=501');
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(['query', 'limit']);
    const badDate = await get('/api/v1/activity-logs?date_from=2024-13-45');
    expect(badDate.status).toBe(422);
    expect(badDate.body.detail[0]).toMatchObject({
      loc: ['query', 'date_from'],
      type: 'invalid_date',
    });
    const badAction = await get('/api/v1/activity-logs?action_type=dance');
    expect(badAction.status).toBe(422);
    const badUser = await get('/api/v1/activity-logs?user_id=abc');
    expect(badUser.status).toBe(422);
  });

  test('when the range ends before it starts, then 422 with a stable code, also for stats and export', async () => {
    for (const path of ['', '/stats', '/export.csv']) {
      const res = await get(`/api/v1/activity-logs${path}?date_from=2024-03-05&date_to=2024-03-01`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('ACTIVITY_DATE_RANGE_INVALID');
    }
  });
});

describe('the kept counts (the unfiltered list, stats and export at 100 000 entries)', () => {
  // a filter every entry passes: the same answer, counted per request from the entries
  const ALL = 'date_from=1990-01-01';
  const withoutRange = (body: Record<string, unknown>) => ({
    ...body,
    date_from: null,
    date_to: null,
  });
  const sortedStats = (body: Record<string, unknown>) => {
    const by = (key: string) =>
      [...(body[key] as Record<string, unknown>[])].sort((a, b) =>
        JSON.stringify(a).localeCompare(JSON.stringify(b)),
      );
    return {
      ...withoutRange(body),
      by_action_type: by('by_action_type'),
      by_target_type: by('by_target_type'),
      by_user: by('by_user'),
    };
  };

  async function expectCountsAgree() {
    // the earlier tests' events may still be on their way: a write adds its counts just after
    // the entry, so wait until the kept total has caught up (a lost count would never catch up)
    await eventually(
      async () => {
        const kept = await get('/api/v1/activity-logs?limit=1');
        const counted = await get(`/api/v1/activity-logs?${ALL}&limit=1`);
        return kept.body.total === counted.body.total;
      },
      { what: 'the kept counts caught up with the log' },
    );
    for (const page of [1, 2, 3]) {
      const kept = await get(`/api/v1/activity-logs?limit=7&page=${page}`);
      const counted = await get(`/api/v1/activity-logs?${ALL}&limit=7&page=${page}`);
      expect(kept.status).toBe(200);
      expect(kept.body.total).toBeGreaterThan(14);
      expect(kept.body).toEqual(counted.body);
    }
    const keptStats = await get('/api/v1/activity-logs/stats');
    const countedStats = await get(`/api/v1/activity-logs/stats?${ALL}`);
    expect(sortedStats(keptStats.body)).toEqual(sortedStats(countedStats.body));
  }

  beforeAll(async () => {
    const u = user(freshId(), 'Zähl Probe');
    await publishAll(
      Array.from({ length: 20 }, (_, i) =>
        at(
          createEvent(Events.UserLoggedIn, { user: { ...u, role: 'volunteer' } }),
          new Date(Date.UTC(2025, 1, 1 + (i % 4), 22, i)).toISOString(),
        ),
      ),
    );
  });

  test('when reading without filters, then list pages and stats equal what counting the entries answers', async () => {
    await expectCountsAgree();
  });

  const exportsLogged = () =>
    svc.conn.collection('activity_logs').countDocuments({ action_type: 'EXPORT' });

  /** The entry ids of an export, in its order, once the export's own entry is written. */
  async function exportedIds(query = ''): Promise<number[]> {
    const before = await exportsLogged();
    const res = await fetch(`${svc.url}/api/v1/activity-logs/export.csv${query}`, {
      headers: { authorization: `Bearer ${svc.adminToken}` },
    });
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { delimiter: ';', bom: true }) as string[][];
    await eventually(async () => (await exportsLogged()) > before, {
      what: 'the export logged',
    });
    return rows.slice(1).map((r) => Number(r[0]));
  }

  test('when the export has no filter, then it holds every entry day by day, newest first', async () => {
    const total = (await get('/api/v1/activity-logs?limit=1')).body.total as number;
    const ids = await exportedIds();
    // at least the entries counted before (the export logs itself too)
    expect(ids.length).toBeGreaterThanOrEqual(total);
    expect(new Set(ids).size).toBe(ids.length);
  });

  /** The unfiltered export (month buckets) equals the export counted from every entry, row for row. */
  async function expectExportAgrees() {
    const bucketed = await exportedIds();
    // the counted export also holds the first export's own entry, the newest of all
    const counted = await exportedIds(`?${ALL}`);
    expect(counted.length).toBe(bucketed.length + 1);
    expect(counted.slice(1)).toEqual(bucketed);
  }

  test('when entries without their day are in the log (bulk-loaded), then the rebuild at start gives them their day in the office’s zone and the export keeps every row in order', async () => {
    const log = svc.conn.collection<{ _id: string } & Record<string, unknown>>('activity_logs');
    const repo = activityRepository().entries;
    await expectCountsAgree();
    // entries as a bulk load writes them: without their day, around month ends in the office's
    // zone (2024-01-31T23:30Z is the 1st of February in Berlin)
    const instants = [
      '2024-01-31T22:59:00.000Z',
      '2024-01-31T23:30:00.000Z',
      '2024-01-31T23:30:00.000Z',
      '2024-02-29T23:10:00.000Z',
      '2024-03-15T12:00:00.000Z',
    ];
    const firstId = 9_000_000 + freshId();
    await log.insertMany(
      instants.map((iso, i) => ({
        _id: `old:${firstId + i}`,
        id: firstId + i,
        event_name: null,
        source: 'server',
        user_id: null,
        user_name: null,
        user_email: null,
        user_role: null,
        action_type: 'UPDATE',
        target_type: 'system',
        target_id: null,
        details_json: null,
        search_text: '',
        created_at: new Date(iso),
      })),
    );
    // and its counts marked for a rebuild, as the bench does
    await svc.conn
      .collection<{ _id: string }>('activity_counts')
      .updateOne({ _id: 'all' }, { $set: { ready: false } });

    expect(await repo.open()).toBe(true);
    await repo.rebuild();
    expect(await repo.open()).toBe(false);

    const old = await log
      .find({ id: { $gte: firstId, $lt: firstId + instants.length } })
      .sort({ id: 1 })
      .toArray();
    expect(old.map((d) => d.day)).toEqual([
      '2024-01-31',
      '2024-02-01',
      '2024-02-01',
      '2024-03-01',
      '2024-03-15',
    ]);
    expect(await log.countDocuments({ day: { $exists: false } })).toBe(0);
    await expectCountsAgree();
    await expectExportAgrees();
  });
});

describe('the stored month rows of the CSV export', () => {
  const repo = activityRepository;
  const heads = () =>
    svc.conn
      .collection<{ _id: string; rows: number; render: string; parts: number }>(
        'activity_export_months',
      )
      .find({})
      .toArray();
  const headOf = async (month: string) => (await heads()).find((h) => h._id === month);
  /**
   * An export stores the months it renders beside sending them (a moment after it, and only two
   * at a time: the background job stores the others); the job's pass here stores what the export
   * left, then the month's rows are there.
   */
  const storedRows = async (month: string, rows: number) => {
    await svc.service.activity.storeClosedMonths();
    await eventually(async () => (await headOf(month))?.rows === rows, {
      what: `${month}'s ${rows} rows stored`,
    });
  };
  const forgetStored = async () => {
    await svc.conn.collection('activity_export_months').deleteMany({});
    await svc.conn.collection('activity_export_parts').deleteMany({});
  };
  const exportsLogged = () =>
    svc.conn.collection('activity_logs').countDocuments({ action_type: 'EXPORT' });

  /** The unfiltered export's bytes, once its own entry is written (the next export holds it). */
  async function exportBytes(): Promise<Buffer> {
    const before = await exportsLogged();
    const res = await fetch(`${svc.url}/api/v1/activity-logs/export.csv`, {
      headers: { authorization: `Bearer ${svc.adminToken}` },
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    await eventually(async () => (await exportsLogged()) > before, { what: 'the export logged' });
    return bytes;
  }

  /** What the export wrote before the stored rows: every entry through one csv-stringify stream. */
  async function referenceBytes(): Promise<Buffer> {
    const entries: ActivityLogEntry[] = [];
    for await (const e of repo().stream({ from: new Date(0) })) entries.push(e);
    const out: Buffer[] = [];
    await pipeline(
      Readable.from(entries.map((e) => csvRow(e, 'Europe/Berlin'))),
      stringify({
        bom: true,
        header: true,
        columns: csvColumns,
        delimiter: ';',
        record_delimiter: 'windows',
      }),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          out.push(Buffer.from(chunk));
          done();
        },
      }),
    );
    return Buffer.concat(out);
  }

  const loginAt = (u: ReturnType<typeof user>, iso: string) =>
    at(createEvent(Events.UserLoggedIn, { user: { ...u } }), iso);
  const probe = user(freshId(), 'Monat Probe');

  beforeAll(async () => {
    // two closed months of 2019 (Berlin): 31 May 22:30 UTC is already 1 June there
    await publishAll([
      loginAt(probe, '2019-05-10T10:00:00.000Z'),
      loginAt(probe, '2019-05-20T10:00:00.000Z'),
      loginAt(probe, '2019-05-31T22:30:00.000Z'),
      loginAt(probe, '2019-06-15T10:00:00.000Z'),
      // and one of the current month
      loginAt(probe, new Date().toISOString()),
    ]);
  });

  test('when exporting with stored rows, without them, and as before them, then the bytes are the same', async () => {
    await forgetStored();
    const reference1 = await referenceBytes();
    const first = await exportBytes(); // renders every month and stores the closed ones
    expect(first.toString()).toBe(reference1.toString());
    expect(first.equals(reference1)).toBe(true);
    await storedRows('2019-05', 2);
    await storedRows('2019-06', 2);

    const reference2 = await referenceBytes();
    const again = await exportBytes(); // the closed months from their stored rows
    expect(again.length).toBeGreaterThan(first.length);
    expect(again.equals(reference2)).toBe(true);

    await forgetStored();
    const reference3 = await referenceBytes();
    const without = await exportBytes();
    expect(without.equals(reference3)).toBe(true);
  });

  test('when a month is current, then its rows are never stored; a closed month is sent from its stored rows', async () => {
    await exportBytes();
    await storedRows('2019-05', 2);
    const current = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' })
      .format(new Date())
      .slice(0, 7);
    expect(await headOf(current)).toBeUndefined();
    // the stored rows are what is sent: a marker put in their place shows up
    const head = (await headOf('2019-05'))!;
    await svc.conn
      .collection<{ _id: string; text: string }>('activity_export_parts')
      .updateOne({ _id: `2019-05/${head.render}/0` }, { $set: { text: 'MARKER;2019-05\r\n' } });
    expect((await exportBytes()).toString()).toContain('MARKER;2019-05');
  });

  test('when a late entry lands in a closed month, then the month is rendered again with it', async () => {
    const head = (await headOf('2019-05'))!;
    await svc.conn
      .collection<{ _id: string; text: string }>('activity_export_parts')
      .updateOne({ _id: `2019-05/${head.render}/0` }, { $set: { text: 'MARKER;2019-05\r\n' } });
    const late = loginAt(probe, '2019-05-25T10:00:00.000Z');
    await publishAll([late]);
    const entry = (await svc.entryOf(late)) as unknown as { id: number };
    // the month's count may follow its entry by a moment
    await eventually(
      async () => (await repo().months())?.find((m) => m.month === '2019-05')?.count === 3,
      {
        what: 'the late entry counted',
      },
    );
    const reference = await referenceBytes();
    const bytes = await exportBytes();
    expect(bytes.equals(reference)).toBe(true);
    const text = bytes.toString();
    expect(text).not.toContain('MARKER');
    expect(text).toContain(`\r\n${entry.id};25.05.2019 12:00:00;`);
    await storedRows('2019-05', 3);
  });

  test('when personal data is erased, then the stored rows of its months are rendered again without it', async () => {
    const f = family({ name: 'Erika Geheimname' });
    const events = [at(submitted(f), '2019-06-20T10:00:00.000Z')];
    await publishAll(events);
    await exportBytes(); // stores June with the name
    await storedRows('2019-06', 3);
    expect((await exportBytes()).toString()).toContain('Erika Geheimname');
    const erasure = createEvent(
      Events.PersonalDataErased,
      { reason: 'request', application_ids: [f.applicationId], wish_ids: [] },
      adminActor,
    );
    await svc.publish(erasure);
    await svc.handled(erasure);
    const text = (await exportBytes()).toString();
    expect(text).not.toContain('Erika Geheimname');
    expect(text).toContain(`;${f.applicationId};`);
  });

  test('when the closed months are stored ahead, then a second pass finds nothing to do and the export sends the same bytes', async () => {
    await forgetStored();
    const activity = svc.service.activity;
    expect(await activity.storeClosedMonths()).toBeGreaterThanOrEqual(2);
    expect((await headOf('2019-05'))?.rows).toBe(3);
    expect(await activity.storeClosedMonths()).toBe(0);
    const reference = await referenceBytes();
    expect((await exportBytes()).equals(reference)).toBe(true);
  });

  test('when a month has more rows than a stored part holds, then it is stored in parts and read back whole', async () => {
    const store = repo().stored;
    const row = `${'x'.repeat(1000)}\r\n`;
    const piece = { text: row.repeat(1500), rows: 1500 }; // about 1.5 MB
    await store.save('1999-01', {
      fingerprint: 'f',
      erased: null,
      pieces: [piece, piece, piece, piece],
    });
    const head = (await headOf('1999-01'))!;
    expect(head.rows).toBe(6000);
    expect(head.parts).toBe(2);
    expect(await store.text(head as never)).toBe(piece.text.repeat(4));
    // another replica's render of the same month replaces the head; each head reads its own parts
    await store.save('1999-01', {
      fingerprint: 'f',
      erased: null,
      pieces: [{ text: 'a\r\n', rows: 1 }],
    });
    const newer = (await headOf('1999-01'))!;
    expect(await store.text(newer as never)).toBe('a\r\n');
    await svc.conn
      .collection<{ _id: string }>('activity_export_months')
      .deleteOne({ _id: '1999-01' });
    await svc.conn.collection('activity_export_parts').deleteMany({ month: '1999-01' });
  });
});

describe('the warehouse (issue 45)', () => {
  test('when a lot is moved between storage places and a driver scans items at a handover, then each move and each scan has its entry, described in German; a code given to an earlier lot has none', async () => {
    const t = (n: number) => new Date(Date.UTC(2023, 8, 4, 10, 0, n)).toISOString();
    const wardrobe = lot(freshId());
    const regal = { id: freshId(), name: 'Halle B / Regal 3', location_id: 1 };
    const boden = { id: freshId(), name: 'Halle B / Boden', location_id: 1 };
    const moved = (from: typeof regal | null, to: typeof regal | null, n: number) =>
      at(
        createEvent(
          Events.LotMoved,
          { lot: wardrobe, from_place: from, to_place: to },
          volunteerActor,
        ),
        t(n),
      );
    const moves = [moved(null, regal, 1), moved(regal, boden, 2), moved(boden, null, 3)];
    const labelled = at(createEvent(Events.LotLabelled, { lot: wardrobe }, null), t(4));

    const applicationId = freshId();
    const other = { id: freshId(), name: { de: 'Kleiderschrank weiß, 3-türig', uk: 'Шафа' } };
    const booked = { id: wardrobe.id, name: wardrobe.name };
    const scan = (
      n: number,
      check: {
        code: string;
        scanned_lot: typeof booked | null;
        match: boolean;
        confirmed: boolean;
      },
    ) =>
      at(
        createEvent(
          Events.HandoverItemChecked,
          { handover_id: 77, application_id: applicationId, lot: booked, ...check },
          volunteerActor,
        ),
        t(n),
      );
    const scans = [
      scan(5, { code: 'K7M4QX', scanned_lot: other, match: false, confirmed: false }),
      scan(6, { code: 'K7M4QX', scanned_lot: other, match: false, confirmed: true }),
      scan(7, { code: 'ZZ', scanned_lot: null, match: false, confirmed: false }),
      scan(8, { code: 'P2R5TW', scanned_lot: booked, match: true, confirmed: false }),
    ];
    await publishAll([...moves, ...scans]);
    await svc.publish(labelled);
    await svc.publish(moves[0]!);

    const lotLog = await get(`/api/v1/activity-logs?target_type=lot&target_id=${wardrobe.id}`);
    expect(lotLog.body.total).toBe(3);
    expect(
      [...lotLog.body.data]
        .reverse()
        .map((e: ActivityLogEntry) => [e.action_type, e.user_name, e.details]),
    ).toEqual(
      [
        [null, regal],
        [regal, boden],
        [boden, null],
      ].map(([from, to]) => [
        'LOT_MOVE',
        volunteerActor.name,
        {
          name: wardrobe.name,
          from_place: from?.name ?? null,
          to_place: to?.name ?? null,
          from_place_id: from?.id ?? null,
          to_place_id: to?.id ?? null,
        },
      ]),
    );
    const scanLog = await get(
      `/api/v1/activity-logs?target_type=application&target_id=${applicationId}`,
    );
    expect(scanLog.body.total).toBe(4);
    expect(scanLog.body.data.map((e: ActivityLogEntry) => e.action_type)).toEqual(
      Array(4).fill('HANDOVER_ITEM_CHECK'),
    );

    const csv = (
      await get(`/api/v1/activity-logs/export.csv?target_type=lot&target_id=${wardrobe.id}`)
    ).body as string;
    expect(csv).toContain(
      `Umgelagert: Lot #${wardrobe.id}, „Kleiderschrank weiß“, Lagerplatz: Halle B / Regal 3 → Halle B / Boden`,
    );
    expect(csv).toContain('Lagerplatz: — → Halle B / Regal 3');
    const scanCsv = (
      await get(
        `/api/v1/activity-logs/export.csv?target_type=application&target_id=${applicationId}`,
      )
    ).body as string;
    expect(scanCsv).toContain(
      `falscher Artikel gescannt: Lot #${other.id} „Kleiderschrank weiß, 3-türig“ (Code K7M4QX)`,
    );
    expect(scanCsv).toContain(
      `Abweichung bestätigt: Lot #${other.id} „Kleiderschrank weiß, 3-türig“ statt des gebuchten Lots (Code K7M4QX)`,
    );
    expect(scanCsv).toContain('falscher Artikel gescannt: kein Lot (Code ZZ)');
    expect(scanCsv).toContain('richtiger Artikel (Code P2R5TW)');
  });
});
