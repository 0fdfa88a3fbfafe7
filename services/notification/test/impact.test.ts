/**
 * The impact dashboard's figures (issue 19): counters moved by the events, each event once,
 * read back by GET /impact for administrators.
 */
import { Events, type DomainEvent } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { testLot } from '@furniture/platform/testing';
import { medianOfHistogram } from '../src/activity/domain/impact-service';
import {
  adminActor,
  at,
  donationItemLot,
  donationStatusChanged,
  donationSubmitted,
  donor,
  family,
  familyFields,
  freshId,
  statusChange,
} from './events';
import { startNotification, type NotificationUnderTest } from './harness';

let svc: NotificationUnderTest;
beforeAll(async () => {
  svc = await startNotification();
});
afterAll(async () => {
  await svc?.stop();
});

const report = async (query = '') => {
  const res = await svc.http.get(`/api/v1/impact${query}`, { token: svc.adminToken });
  expect(res.status).toBe(200);
  return res.body;
};
/** Publishes the events and waits until each has been handled. */
async function deliver(...events: DomainEvent[]) {
  for (const e of events) await svc.publish(e);
  for (const e of events) await svc.handled(e);
}

const lotCreated = (occurredAt: string, categoryId = 3) =>
  at(
    createEvent(
      Events.LotCreated,
      { lot: testLot({ id: freshId(), category_id: categoryId }) },
      adminActor,
    ),
    occurredAt,
  );
function handover(
  occurredAt: string,
  appliedAt: string,
  first: boolean,
  categoryId = 3,
  approvedAt?: string | null,
) {
  const e = statusChange(Events.ApplicationCompleted, family());
  return at(
    {
      ...e,
      payload: {
        ...e.payload,
        category_id: categoryId,
        applied_at: appliedAt,
        first_handover: first,
        ...(approvedAt !== undefined ? { approved_at: approvedAt } : {}),
      },
    },
    occurredAt,
  );
}
const submittedIn = (categoryId: number) =>
  createEvent(Events.ApplicationSubmitted, {
    ...familyFields(family()),
    status: 'pending',
    queue_position: 1,
    category_id: categoryId,
  });
const wishCreated = (category: number) =>
  createEvent(Events.WishCreated, {
    wish_id: freshId(),
    applicant_name: 'Iryna',
    furniture_category: category,
    status: 'active',
  });

describe('the impact figures', () => {
  test('when lots arrive, families apply, wish and receive lots, then the report counts them by month and category, each family once, with the median wait', async () => {
    const empty = await report('?months=3');
    expect(empty.months).toHaveLength(3);
    expect(empty.totals.lots_given).toBe(0);
    expect(empty.median_days_to_pickup).toBeNull();
    expect(empty.agencies).toEqual([]);

    const now = new Date();
    const iso = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
    const thisMonth = now.toISOString().slice(0, 7);
    const wish = wishCreated(5);
    await deliver(
      lotCreated(iso(0)),
      lotCreated(iso(0), 5),
      submittedIn(3),
      submittedIn(3),
      submittedIn(5),
      handover(iso(0), iso(4), true),
      handover(iso(0), iso(10), false),
      handover(iso(0), iso(2), true, 5),
      wish,
      wishCreated(5),
      wishCreated(2),
      createEvent(
        Events.WishStatusChanged,
        {
          wish_id: wish.payload.wish_id,
          old_status: 'active',
          new_status: 'fulfilled',
          admin_notes: null,
          furniture_category: 5,
        },
        adminActor,
      ),
    );

    const r = await report();
    expect(r.months).toHaveLength(12);
    expect(r.months.at(-1)).toEqual({ month: thisMonth, lots_received: 2, lots_given: 3 });
    expect(r.totals).toEqual({
      lots_received: 2,
      lots_given: 3,
      families_served: 2,
      applications: 3,
      wishes: 3,
      donations_received: 0,
      donations_accepted: 0,
      lots_from_donations: 0,
    });
    // waits of 2, 4 and 10 days
    expect(r.median_days_to_pickup).toBe(4);
    expect(r.handovers_measured).toBe(3);
    expect(r.categories).toEqual([
      { category_id: 3, applications: 2, wishes: 0, lots_given: 2, open_wishes: 0 },
      { category_id: 5, applications: 1, wishes: 2, lots_given: 1, open_wishes: 1 },
      { category_id: 2, applications: 0, wishes: 1, lots_given: 0, open_wishes: 1 },
    ]);
    expect(Date.parse(r.counting_since)).toBeLessThanOrEqual(Date.parse(iso(0)));
  });

  test('when an event is delivered again, then nothing is counted twice', async () => {
    const before = await report();
    const lot = lotCreated(new Date().toISOString(), 7);
    await deliver(lot);
    // the same event once more, as a broker redelivery would bring it
    await svc.publish(lot);
    const marker = lotCreated(new Date().toISOString(), 7);
    await deliver(marker);
    const after = await report();
    expect(after.totals.lots_received).toBe(before.totals.lots_received + 2);
  });

  test('when donors offer furniture, staff accept some and make lots of their items, then donations received, accepted and lots from donations are counted, each change once', async () => {
    const before = (await report()).totals;
    const [a, b, c] = [donor(), donor(), donor()];
    const accepted = donationStatusChanged(a, 'submitted', 'accepted');
    await deliver(
      donationSubmitted(a),
      donationSubmitted(b),
      donationSubmitted(c),
      accepted,
      donationStatusChanged(b, 'submitted', 'accepted'),
      donationStatusChanged(c, 'submitted', 'declined', { reason: 'Zu groß' }),
      donationItemLot(a),
      donationItemLot(a),
      donationItemLot(b),
      // collected and expired after acceptance: still accepted once
      donationStatusChanged(a, 'accepted', 'collected'),
      donationStatusChanged(b, 'accepted', 'expired'),
    );
    // a redelivered acceptance counts nothing
    await svc.forgetProcessed(accepted);
    await deliver(accepted);
    const after = (await report()).totals;
    expect({
      donations_received: after.donations_received - before.donations_received,
      donations_accepted: after.donations_accepted - before.donations_accepted,
      lots_from_donations: after.lots_from_donations - before.lots_from_donations,
    }).toEqual({ donations_received: 3, donations_accepted: 2, lots_from_donations: 3 });
  });

  test('when a lot arrived months ago, then it is counted in its month (office time zone)', async () => {
    const now = new Date();
    const monthsAgo = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 15, 12));
    await deliver(lotCreated(monthsAgo.toISOString(), 8));
    const r = await report('?months=3');
    expect(r.months[0]).toMatchObject({
      month: monthsAgo.toISOString().slice(0, 7),
      lots_received: 1,
    });
  });

  test('when completions carry their approval time, then the report answers the median days from the approval to the handover over those alone, each completion once', async () => {
    const before = await report();
    // the completions of the first test named no approval: nothing measured yet
    expect(before.median_days_approval_to_handover).toBeNull();
    expect(before.handovers_measured_since_approval).toBe(0);
    const now = new Date();
    const iso = (daysAgo: number, hours = 0) =>
      new Date(now.getTime() - daysAgo * 86_400_000 - hours * 3_600_000).toISOString();
    const three = handover(iso(0), iso(9), false, 3, iso(3, 2));
    await deliver(
      handover(iso(0), iso(5), false, 3, iso(1)),
      three,
      handover(iso(0), iso(20), false, 3, iso(12)),
      handover(iso(0), iso(30), false, 3, iso(6)),
      // before wave 3, or where handover is off: no approval time
      handover(iso(0), iso(7), false, 3, null),
      handover(iso(0), iso(7), false, 3),
    );
    // a redelivery after the processed record was lost counts nothing
    await svc.forgetProcessed(three);
    await deliver(three);

    const r = await report();
    // 1, 3, 6 and 12 days
    expect(r.median_days_approval_to_handover).toBe(4.5);
    expect(r.handovers_measured_since_approval).toBe(4);
    expect(r.handovers_measured - before.handovers_measured).toBe(6);
    expect(r.totals.lots_given - before.totals.lots_given).toBe(6);
  });

  test("when partner agencies refer families for lots and as wishes and some are handed over, then the report counts each agency's families (a family served once), under the agency's latest name, each event once; the families' own count nowhere", async () => {
    const agencyA = { id: freshId(), name: 'Caritas Leipzig' };
    const agencyB = { id: freshId(), name: 'Diakonie Halle' };
    const referral = (agency: { id: number; name: string }) => ({
      id: freshId(),
      agency,
      referrer: { id: freshId(), name: 'Petra Sozial' },
    });
    const referred = (agency: { id: number; name: string }) =>
      createEvent(Events.ApplicationSubmitted, {
        ...familyFields(family()),
        status: 'pending',
        queue_position: 1,
        category_id: 3,
        referral: referral(agency),
      });
    const referredWish = (agency: { id: number; name: string }) =>
      createEvent(Events.WishCreated, {
        wish_id: freshId(),
        applicant_name: 'Iryna',
        furniture_category: 2,
        status: 'active',
        referral: referral(agency),
      });
    const referredHandover = (agency: { id: number; name: string }, first: boolean) => {
      const e = handover(new Date().toISOString(), new Date().toISOString(), first);
      return {
        ...e,
        payload: {
          ...e.payload,
          referrer: {
            name: 'Petra Sozial',
            email: 'petra@beratung.example',
            language: 'de' as const,
            agency_name: agency.name,
            agency_id: agency.id,
          },
        },
      };
    };
    const before = await report();
    const twice = referred(agencyA);
    await deliver(
      twice,
      referred(agencyA),
      referred(agencyA),
      referredWish(agencyA),
      referred(agencyB),
      referredWish(agencyB),
      referredWish(agencyB),
      referredHandover(agencyA, true),
      referredHandover(agencyA, false),
      // the families' own: in the totals, in no agency
      submittedIn(3),
      handover(new Date().toISOString(), new Date().toISOString(), true),
      // renamed since: the latest name heard
      referred({ ...agencyB, name: 'Diakonie Halle-Saale' }),
    );
    await svc.publish(twice); // redelivered: counted once
    await deliver(referredWish(agencyA));

    const r = await report();
    const ours = r.agencies.filter((a: { agency_id: number }) =>
      [agencyA.id, agencyB.id].includes(a.agency_id),
    );
    expect(ours).toEqual([
      {
        agency_id: agencyA.id,
        name: 'Caritas Leipzig',
        applications: 3,
        wishes: 2,
        lots_given: 2,
        families_served: 1,
      },
      {
        agency_id: agencyB.id,
        name: 'Diakonie Halle-Saale',
        applications: 2,
        wishes: 2,
        lots_given: 0,
        families_served: 0,
      },
    ]);
    expect(r.totals.applications - before.totals.applications).toBe(6);
    expect(r.totals.families_served - before.totals.families_served).toBe(2);
  });

  test('when a volunteer or nobody asks, or the range is out of bounds, then 403 / 401 / 422', async () => {
    expect((await svc.http.get('/api/v1/impact', { token: svc.volunteerToken })).status).toBe(403);
    expect((await svc.http.get('/api/v1/impact')).status).toBe(401);
    const bad = await svc.http.get('/api/v1/impact?months=99', { token: svc.adminToken });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toEqual(expect.any(String));
  });
});

describe('the median of a histogram', () => {
  test.each([
    [[], null],
    [[0, 0, 0], null],
    [[1], 0],
    [[0, 1, 0, 1], 2], // 1 and 3
    [[2, 0, 0, 1], 0], // 0, 0, 3
    [[1, 1, 1, 1], 1.5], // 0, 1, 2, 3
  ])('medianOfHistogram(%j) = %p', (counts, median) => {
    expect(medianOfHistogram(counts)).toBe(median);
  });
});
