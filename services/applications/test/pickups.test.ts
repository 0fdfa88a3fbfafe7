/**
 * Pickup dates (issue 19) with the clock in the test's hand: the default date of an approval,
 * dates in the past refused, the reminder and the overdue notice each once, an extension, and a
 * lapse that frees the lot in the real catalog and offers it to the next family, by hand or
 * approved at once when the organisation turned that on.
 */
import { Events } from '@furniture/contracts';
import { adminToken, applicationBody, eventually, testCalendar, volunteerToken } from './harness';
import { startStack, type Stack } from './stack';

const staff = (token = adminToken()) => ({ token });

function pickupSuite(autoApprove: boolean) {
  const clock = testCalendar('2026-11-24T09:00:00Z');
  let s: Stack;
  beforeAll(async () => {
    s = await startStack({
      calendar: clock,
      env: { PICKUP_LAPSE_AUTO_APPROVE: String(autoApprove) },
    });
  });
  afterAll(async () => {
    await s?.stop();
  });

  async function apply(lotId: number, overrides: Record<string, unknown> = {}) {
    const res = await s.http.post('/api/v1/applications/', applicationBody(lotId, overrides));
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  const getApp = async (id: number) =>
    (await s.http.get(`/api/v1/applications/${id}`, staff())).body;
  const statusOf = (id: number, status: string) =>
    eventually(
      async () => {
        const app = await getApp(id);
        return app.status === status && app.approval === null ? app : undefined;
      },
      { what: `application ${id} ${status}` },
    );
  async function approve(id: number, pickup_by?: string) {
    const res = await s.http.patch(
      `/api/v1/applications/${id}/status`,
      { status: 'approved', ...(pickup_by ? { pickup_by } : {}) },
      staff(),
    );
    expect(res.status).toBe(202);
    return statusOf(id, 'approved');
  }
  /** A lot with an approved family and two rivals the approval rejected. */
  async function reservedLot() {
    const lot = await s.createLot();
    const first = await apply(lot, { language: 'uk' });
    const second = await apply(lot);
    const third = await apply(lot);
    await approve(first);
    await statusOf(second, 'rejected');
    await statusOf(third, 'rejected');
    await s.waitForCatalogStatus(lot, 'reserved');
    return { lot, first, second, third };
  }

  return { clock, stack: () => s, apply, getApp, statusOf, approve, reservedLot };
}

describe('pickup dates: deadline, reminder, overdue, extension, lapse (staff decide who is next)', () => {
  const t = pickupSuite(false);
  const clock = t.clock;

  test('when staff approve without a date, then the approval carries today + 7 days (office time zone) and application.approved says so', async () => {
    const s = t.stack();
    const lot = await s.createLot();
    const id = await t.apply(lot);
    const app = await t.approve(id);
    expect(app.pickup_by).toBe('2026-12-01');
    expect(app.pickup_overdue).toBe(false);
    const approved = await s.recorder.waitFor(
      Events.ApplicationApproved,
      (e) => e.payload.application_id === id,
    );
    expect(approved.payload.pickup_by).toBe('2026-12-01');
  });

  test('when staff choose a pickup date, then it is kept; a day in the past or not a day is refused with 422 and nothing changes', async () => {
    const s = t.stack();
    const lot = await s.createLot();
    const id = await t.apply(lot);
    const past = await s.http.patch(
      `/api/v1/applications/${id}/status`,
      { status: 'approved', pickup_by: '2026-11-23' },
      staff(),
    );
    expect(past.status).toBe(422);
    expect(past.body.code).toBe('PICKUP_DATE_IN_PAST');
    expect(past.body.message).toEqual(expect.any(String));
    const garbage = await s.http.patch(
      `/api/v1/applications/${id}/status`,
      { status: 'approved', pickup_by: '31.12.2026' },
      staff(),
    );
    expect(garbage.status).toBe(422);
    expect(garbage.body.code).toBe('VALIDATION_FAILED');
    expect(await t.getApp(id)).toMatchObject({ status: 'pending', approval: null });
    // today itself is allowed
    expect((await t.approve(id, '2026-11-24')).pickup_by).toBe('2026-11-24');
  });

  test('when the pickup date comes near and then passes, then the family is reminded once and the reservation is marked overdue once; a pass without its lease writes nothing', async () => {
    const s = t.stack();
    const lot = await s.createLot();
    const id = await t.apply(lot, { language: 'uk' });
    await t.approve(id, '2026-11-30');
    const pickups = s.applications.service.pickups;
    // other tests' approvals share the service: count this application's events only
    const eventsOf = (
      name: typeof Events.ApplicationPickupReminderDue | typeof Events.ApplicationPickupOverdue,
    ) => s.recorder.of(name).filter((e) => e.payload.application_id === id);
    const settle = async (reminders: number, overdue: number) => {
      await pickups.checkDeadlines();
      await eventually(
        () =>
          eventsOf(Events.ApplicationPickupReminderDue).length === reminders &&
          eventsOf(Events.ApplicationPickupOverdue).length === overdue,
        { what: `${reminders} reminder(s), ${overdue} overdue notice(s)` },
      );
      // a second run the same day changes nothing
      await pickups.checkDeadlines();
    };

    // 3 days before: nothing yet (the reminder goes 2 days before)
    clock.advanceDays(3); // 27 Nov
    await settle(0, 0);
    expect((await t.getApp(id)).pickup_reminded_at).toBeNull();
    clock.advanceDays(1); // 28 Nov
    // a pass whose lease is gone (another replica took the job over) writes nothing
    expect(await pickups.checkDeadlines(() => false)).toEqual({ reminded: 0, overdue: 0 });
    expect((await t.getApp(id)).pickup_reminded_at).toBeNull();
    await settle(1, 0);
    const [reminder] = eventsOf(Events.ApplicationPickupReminderDue);
    expect(reminder!.payload).toMatchObject({ pickup_by: '2026-11-30', language: 'uk' });
    expect((await t.getApp(id)).pickup_reminded_at).toEqual(expect.any(String));

    clock.advanceDays(2); // 30 Nov: the last day, not overdue yet
    await settle(1, 0);
    expect((await t.getApp(id)).pickup_overdue).toBe(false);
    clock.advanceDays(1); // 1 Dec
    await settle(1, 1);
    expect((await t.getApp(id)).pickup_overdue).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf(Events.ApplicationPickupReminderDue)).toHaveLength(1);
    expect(eventsOf(Events.ApplicationPickupOverdue)).toHaveLength(1);
    // staff see it in the list of approved applications
    const list = await s.http.get(`/api/v1/applications?status=approved&lot_id=${lot}`, staff());
    expect(list.body.applications[0]).toMatchObject({ id, pickup_overdue: true });
  });

  test('when staff extend an overdue reservation, then the new date holds, it is no longer overdue, the family is told and a note is written; dates in the past and open applications are refused', async () => {
    const s = t.stack();
    const lot = await s.createLot();
    const id = await t.apply(lot, { language: 'uk' });
    const today = s.applications.service.pickups.defaultPickupBy(); // today + 7
    await t.approve(id, today);
    clock.advanceDays(8);
    await s.applications.service.pickups.checkDeadlines();
    expect((await t.getApp(id)).pickup_overdue).toBe(true);

    const unauth = await s.http.patch(`/api/v1/applications/${id}/pickup`, {
      pickup_by: '2027-01-10',
    });
    expect(unauth.status).toBe(401);
    const past = await s.http.patch(
      `/api/v1/applications/${id}/pickup`,
      { pickup_by: '2026-11-01' },
      staff(),
    );
    expect(past.status).toBe(422);
    expect(past.body.code).toBe('PICKUP_DATE_IN_PAST');

    const res = await s.http.patch(
      `/api/v1/applications/${id}/pickup`,
      { pickup_by: '2027-01-10', note: 'Familie ist krank' },
      staff(volunteerToken()),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'approved', pickup_by: '2027-01-10' });
    expect(res.body.pickup_overdue).toBe(false);
    expect(res.body.pickup_reminded_at).toBeNull();
    expect(res.body.notes.at(-1)).toMatchObject({
      action: 'PICKUP_EXTEND',
      comment: 'Abholung bis 10.01.2027: Familie ist krank',
    });
    const extended = await s.recorder.waitFor(
      Events.ApplicationPickupExtended,
      (e) => e.payload.application_id === id,
    );
    expect(extended.payload).toMatchObject({
      old_pickup_by: today,
      pickup_by: '2027-01-10',
      language: 'uk',
      lot_name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
    });

    const open = await t.apply(await s.createLot());
    const refused = await s.http.patch(
      `/api/v1/applications/${open}/pickup`,
      { pickup_by: '2027-01-10' },
      staff(),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PICKUP_NOT_APPROVED');
    const lapseOpen = await s.http.post(`/api/v1/applications/${open}/lapse`, {}, staff());
    expect(lapseOpen.status).toBe(409);
    expect(lapseOpen.body.code).toBe('PICKUP_NOT_APPROVED');
  });

  test('when staff let a reservation lapse, then it ends rejected (pickup_lapsed), the catalog frees the lot, the rivals are back and the first of them is marked next in queue, still pending', async () => {
    const s = t.stack();
    const { lot, first, second, third } = await t.reservedLot();
    const res = await s.http.post(`/api/v1/applications/${first}/lapse`, {}, staff());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first, status: 'rejected' });
    expect(res.body.notes.at(-1).comment).toMatch(/^Abholfrist abgelaufen/);
    const rejected = await s.recorder.waitFor(
      Events.ApplicationRejected,
      (e) => e.payload.application_id === first,
    );
    expect(rejected.payload.reason).toBe('pickup_lapsed');
    expect(rejected.payload.lot_held).toBe(true);

    await s.waitForCatalogStatus(lot, 'available');
    const next = await t.statusOf(second, 'pending');
    await t.statusOf(third, 'pending');
    const offered = await s.recorder.waitFor(
      Events.ApplicationNextInQueue,
      (e) => e.payload.lot_id === lot,
    );
    expect(offered.payload).toEqual({
      application_id: second,
      lot_id: lot,
      after_application_id: first,
      auto_approved: false,
    });
    await eventually(async () => (await t.getApp(second)).next_in_queue_after === first, {
      what: 'second marked next in queue',
    });
    expect(next.queue_position).toBe(1);
    expect((await t.getApp(third)).next_in_queue_after).toBeNull();
    // nothing was approved on its own
    expect((await t.getApp(second)).status).toBe('pending');
    // approving the next family clears the mark
    const approved = await t.approve(second);
    expect(approved.next_in_queue_after).toBeNull();
  });
});

describe('pickup dates: a lapse approves the next family at once when the organisation says so', () => {
  const t = pickupSuite(true);

  test('when a reservation lapses, then the first family of the queue is approved with a fresh pickup date and the lot is reserved for it', async () => {
    const s = t.stack();
    const { lot, first, second, third } = await t.reservedLot();
    t.clock.advanceDays(9);
    await s.applications.service.pickups.checkDeadlines();
    const res = await s.http.post(
      `/api/v1/applications/${first}/lapse`,
      { note: 'Nicht erschienen, telefonisch nicht erreichbar' },
      staff(),
    );
    expect(res.status).toBe(200);
    expect(res.body.notes.at(-1).comment).toBe('Nicht erschienen, telefonisch nicht erreichbar');

    const approved = await t.statusOf(second, 'approved');
    // 24 Nov + 9 days = 3 Dec; + 7 days
    expect(approved.pickup_by).toBe('2026-12-10');
    expect(approved.approval).toBeNull();
    await t.statusOf(third, 'rejected');
    await s.waitForCatalogStatus(lot, 'reserved');
    const offered = await s.recorder.waitFor(
      Events.ApplicationNextInQueue,
      (e) => e.payload.lot_id === lot,
    );
    expect(offered.payload).toMatchObject({ application_id: second, auto_approved: true });
    const event = await s.recorder.waitFor(
      Events.ApplicationApproved,
      (e) => e.payload.application_id === second,
    );
    expect(event.actor).toBeNull();
    expect((await t.getApp(first)).status).toBe('rejected');
  });
});
