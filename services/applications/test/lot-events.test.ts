/**
 * The applications side of the approval flow and the lot read model, driven by lot events that
 * the test publishes the way the catalog does (including the ones a real catalog only sends in a
 * race, such as lot.reservation_failed). The full flow with the real catalog is in flow.test.ts.
 */
import express from 'express';
import {
  Events,
  LOT_SNAPSHOT_PATH,
  type DomainEvent,
  type LotSnapshot,
} from '@furniture/contracts';
import { listen } from '@furniture/platform/testing';
import {
  ADMIN,
  adminToken,
  applicationBody,
  createEvent,
  eventually,
  lotSnapshot,
  newPhone,
  publishLot,
  startApplications,
  type ApplicationsHarness,
} from './harness';

let h: ApplicationsHarness;
beforeAll(async () => {
  h = await startApplications();
});
afterAll(async () => {
  await h?.stop();
});

const staff = () => ({ token: adminToken() });

/** Publishes an event and waits until the service has handled it (its processed-event record). */
async function deliver(event: DomainEvent): Promise<void> {
  await h.publish(event);
  await eventually(
    async () =>
      (await h.conn
        .collection('processed_events')
        .countDocuments({ _id: event.eventId, state: { $ne: 'claimed' } } as never)) === 1,
    { what: `${event.name} handled` },
  );
}

async function apply(lotId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await h.http.post('/api/v1/applications', applicationBody(lotId, overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function getApp(id: number) {
  const res = await h.http.get(`/api/v1/applications/${id}`, staff());
  expect(res.status).toBe(200);
  return res.body;
}

async function setStatus(id: number, status: string, note?: string) {
  return h.http.patch(`/api/v1/applications/${id}/status`, { status, note }, staff());
}

function reservedLot(lot: LotSnapshot, version = lot.version + 1): LotSnapshot {
  return { ...lot, status: 'reserved', version, updated_at: new Date().toISOString() };
}

describe('lot read model', () => {
  test('when an older lot event arrives after a newer one, then the newer state stays', async () => {
    const lot = await publishLot(h, { version: 3, name: { de: 'Sofa neu', uk: 'Диван новий' } });
    const older = { ...lot, version: 2, name: { de: 'Sofa alt', uk: 'Диван старий' } };
    await deliver(createEvent(Events.LotUpdated, { lot: older, changes: {} }));
    const id = await apply(lot.id);
    expect((await getApp(id)).lot.name).toEqual({ de: 'Sofa neu', uk: 'Диван новий' });
  });

  test('when a photo change keeps the version but is newer, then the first photo is updated', async () => {
    const lot = await publishLot(h);
    const later = new Date(Date.parse(lot.updated_at) + 1000).toISOString();
    await h.publish(
      createEvent(Events.LotUpdated, {
        lot: { ...lot, photos: ['/media/lots/9/new-medium.webp'], updated_at: later },
        changes: {},
      }),
    );
    const id = await apply(lot.id);
    await eventually(async () => (await getApp(id)).lot.photo === '/media/lots/9/new-medium.webp', {
      what: 'new photo',
    });
  });

  test('when a lot is unknown or deleted, then applying answers 404 "Lot nicht gefunden"', async () => {
    const unknown = await h.http.post('/api/v1/applications', applicationBody(987654));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'LOT_NOT_FOUND', message: 'Lot nicht gefunden' });

    const lot = await publishLot(h);
    await h.publish(createEvent(Events.LotDeleted, { lot }, ADMIN));
    await eventually(
      async () => (await h.http.get(`/api/v1/lots/${lot.id}/can-apply`)).status === 404,
      { what: 'deleted lot' },
    );
    // a late update of the deleted lot does not bring it back
    await deliver(
      createEvent(Events.LotUpdated, { lot: { ...lot, version: lot.version + 5 }, changes: {} }),
    );
    expect((await h.http.post('/api/v1/applications', applicationBody(lot.id))).status).toBe(404);
  });

  test('when the read model is empty at start, then it is loaded page by page from the catalog snapshot', async () => {
    const lots = [1, 2, 3, 4, 5].map((i) =>
      lotSnapshot({ id: 500 + i, status: i === 5 ? 'archived' : 'available' }),
    );
    let calls = 0;
    const stub = express();
    stub.get(LOT_SNAPSHOT_PATH, (req, res) => {
      calls++;
      // the catalog is not ready on the first call: the service retries
      if (calls === 1) return void res.status(503).json({});
      const after = Number(req.query.after_id);
      const limit = Number(req.query.limit);
      const page = lots.filter((l) => l.id > after).slice(0, limit);
      const last = page.at(-1);
      res.json({
        lots: page,
        next_after_id: last && last.id < lots.at(-1)!.id ? last.id : null,
      });
    });
    const catalog = await listen(stub);
    const other = await startApplications({
      env: { CATALOG_URL: catalog.url, LOT_SNAPSHOT_PAGE_SIZE: '2' },
    });
    try {
      other.service.lotSync.start('empty');
      await other.service.lotSync.done();
      expect(calls).toBe(4); // 503, then pages of 2, 2 and 1
      const info = await other.http.get('/api/v1/lots/505/applications-info');
      expect(info.body.data).toMatchObject({ lot_status: 'archived', can_apply: false });
      expect((await other.http.post('/api/v1/applications', applicationBody(501))).status).toBe(
        201,
      );
      // not empty any more: the next start does not ask again
      other.service.lotSync.start('empty');
      await other.service.lotSync.done();
      expect(calls).toBe(4);
    } finally {
      await other.stop();
      await catalog.close();
    }
  });
});

/** Staff ask to approve: 202, the application stays pending while the lot is reserved. */
async function requestApproval(id: number, note?: string) {
  const res = await setStatus(id, 'approved', note);
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({ status: 'pending', approval: { state: 'requested' } });
  return res.body;
}

/** The catalog's answer to a request: the lot is reserved for the application. */
function reservedFor(lot: LotSnapshot, applicationId: number, version = lot.version + 1) {
  return createEvent(
    Events.LotReserved,
    { lot: reservedLot(lot, version), application_id: applicationId },
    ADMIN,
  );
}

/** Requested and confirmed: the application is approved. */
async function approve(lot: LotSnapshot, id: number) {
  await requestApproval(id);
  await deliver(reservedFor(lot, id));
  expect((await getApp(id)).status).toBe('approved');
}

function statusChanged(
  lot: LotSnapshot,
  change: {
    old_status: LotSnapshot['status'];
    new_status: LotSnapshot['status'];
    version: number;
    cause?: 'staff' | 'reservation' | 'reservation_cancelled' | 'completed';
    application_id?: number | null;
  },
) {
  return createEvent(
    Events.LotStatusChanged,
    {
      lot: { ...lot, status: change.new_status, version: change.version },
      old_status: change.old_status,
      new_status: change.new_status,
      cause: change.cause ?? 'staff',
      application_id: change.application_id ?? null,
    },
    ADMIN,
  );
}

describe('explicit approval', () => {
  test('when staff approve, then the approval is only requested: 202, still pending, application.approval_requested with the note, nothing final', async () => {
    const lot = await publishLot(h);
    const id = await apply(lot.id);
    const body = await requestApproval(id, 'Abholung Freitag');
    expect(body.approval).toMatchObject({
      state: 'requested',
      note: 'Abholung Freitag',
      requested_by: { id: ADMIN.id, email: ADMIN.email, role: 'admin' },
      reason: null,
    });
    const requested = await h.recorder.waitFor(
      Events.ApplicationApprovalRequested,
      (e) => e.payload.application_id === id,
    );
    expect(requested.payload).toEqual({
      application_id: id,
      lot_id: lot.id,
      note: 'Abholung Freitag',
    });
    expect(requested.actor).toMatchObject({ id: ADMIN.id });
    expect(
      h.recorder.of(Events.ApplicationApproved).some((e) => e.payload.application_id === id),
    ).toBe(false);

    // asking again changes nothing; any other change waits for the catalog's answer
    expect((await setStatus(id, 'approved')).status).toBe(202);
    const busy = await setStatus(id, 'rejected', 'Doch nicht');
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('APPROVAL_IN_PROGRESS');
    // a rival of the same lot cannot be approved meanwhile
    const rival = await apply(lot.id);
    const refused = await setStatus(rival, 'approved');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LOT_ALREADY_RESERVED');
    await deliver(reservedFor(lot, id));
    expect(
      h.recorder
        .of(Events.ApplicationApprovalRequested)
        .filter((e) => e.payload.application_id === id),
    ).toHaveLength(1);
  });

  test('when the read model shows the lot unavailable, then an approval is refused at once with 409 LOT_NOT_AVAILABLE', async () => {
    const lot = await publishLot(h);
    const id = await apply(lot.id);
    await deliver(
      statusChanged(lot, { old_status: 'available', new_status: 'reserved', version: 2 }),
    );
    const res = await setStatus(id, 'approved');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('LOT_NOT_AVAILABLE');
    expect((await getApp(id)).approval).toBeNull();
  });

  test('when lot.reserved arrives for the requested application, then the other pending ones are rejected with a note and an event each, and then it is approved with application.approved', async () => {
    const lot = await publishLot(h);
    const [winner, a, b, early] = [
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
    ];
    expect((await setStatus(early!, 'rejected', 'Keine Rückmeldung')).status).toBe(200);
    await requestApproval(winner!, 'Abholung Freitag');
    await h.publish(reservedFor(lot, winner!));

    const approved = await h.recorder.waitFor(
      Events.ApplicationApproved,
      (e) => e.payload.application_id === winner,
    );
    expect(approved.payload).toMatchObject({
      old_status: 'pending',
      new_status: 'approved',
      reason: 'staff',
      note: 'Abholung Freitag',
    });
    expect(approved.actor).toMatchObject({ id: ADMIN.id, email: ADMIN.email });
    const winnerApp = await getApp(winner!);
    expect(winnerApp).toMatchObject({ status: 'approved', approval: null });
    expect(winnerApp.notes.at(-1)).toMatchObject({
      role: 'admin',
      email: ADMIN.email,
      action: 'APPROVE',
      comment: 'Abholung Freitag',
    });
    // the rivals were rejected before the approval was written: seen as soon as it is out
    for (const id of [a!, b!]) expect((await getApp(id)).status).toBe('rejected');
    for (const id of [a!, b!]) {
      const event = await h.recorder.waitFor(
        Events.ApplicationRejected,
        (e) => e.payload.application_id === id,
      );
      expect(event.payload).toMatchObject({
        old_status: 'pending',
        new_status: 'rejected',
        reason: 'competitor_approved',
        // a rival never held the lot: the catalog need not look at it
        lot_held: false,
        lot_id: lot.id,
        applicant_email: 'olena@example.org',
        lot_name: lot.name,
      });
      const app = await getApp(id);
      expect(app.notes.at(-1)).toMatchObject({
        role: 'system',
        action: 'REJECT',
        comment: `Automatisch abgelehnt: Das Lot wurde für Bewerbung #${winner} reserviert.`,
      });
    }
    expect((await getApp(early!)).notes).toHaveLength(1); // the earlier rejection only

    // the same fact again under a new event id (a handler re-run after a crash) changes nothing
    const before = h.recorder.events.length;
    await deliver(reservedFor(lot, winner!));
    await h.kit.flushOutbox();
    await deliver(createEvent(Events.LotCreated, { lot: lotSnapshot() })); // a marker event
    expect(
      h.recorder.events
        .slice(before)
        .filter(
          (e) => e.name === Events.ApplicationRejected || e.name === Events.ApplicationApproved,
        ),
    ).toEqual([]);
    expect((await getApp(a!)).notes).toHaveLength(1);
  });

  test('when lot.reserved arrives for a request that ended meanwhile, then nobody is rejected and the reservation is given back with application.approval_withdrawn', async () => {
    const lot = await publishLot(h);
    const winner = await apply(lot.id);
    const other = await apply(lot.id);
    await requestApproval(winner);
    // the lot was archived before the reservation's answer arrived: the request ended
    await deliver(
      statusChanged(lot, { old_status: 'available', new_status: 'archived', version: 2 }),
    );
    expect((await getApp(winner)).status).toBe('rejected');
    await deliver(
      statusChanged(lot, { old_status: 'archived', new_status: 'available', version: 3 }),
    );
    const late = { ...lot, version: 3 };
    await h.publish(reservedFor(late, winner, 4));
    const withdrawn = await h.recorder.waitFor(
      Events.ApplicationApprovalWithdrawn,
      (e) => e.payload.application_id === winner,
    );
    expect(withdrawn.payload).toEqual({ application_id: winner, lot_id: lot.id });
    expect((await getApp(other)).status).toBe('rejected'); // by the archiving, not by the reservation
    expect((await getApp(winner)).status).toBe('rejected');
  });

  test('when lot.reservation_failed arrives, then the request ends: still pending, the reason shown, application.approval_failed, no mail event, and it can be asked again', async () => {
    const lot = await publishLot(h);
    const first = await apply(lot.id);
    await requestApproval(first);
    await h.publish(
      createEvent(Events.LotReservationFailed, {
        lot_id: lot.id,
        application_id: first,
        lot_status: 'taken',
        reason: 'not_available',
      }),
    );
    const failed = await h.recorder.waitFor(
      Events.ApplicationApprovalFailed,
      (e) => e.payload.application_id === first,
    );
    expect(failed.payload).toEqual({
      application_id: first,
      lot_id: lot.id,
      reason: 'not_available',
      lot_status: 'taken',
    });
    expect(failed.actor).toMatchObject({ id: ADMIN.id });
    const app = await getApp(first);
    expect(app.status).toBe('pending');
    expect(app.approval).toMatchObject({
      state: 'failed',
      reason: 'not_available',
      lot_status: 'taken',
    });
    expect(app.notes.at(-1)).toMatchObject({
      role: 'system',
      action: 'APPROVE',
      comment:
        'Genehmigung nicht möglich: Das Lot ist übernommen. Die Bewerbung bleibt ausstehend.',
    });
    for (const name of [
      Events.ApplicationRejected,
      Events.ApplicationReservationCancelled,
      Events.ApplicationApproved,
    ] as const) {
      expect(h.recorder.of(name).some((e) => e.payload.application_id === first)).toBe(false);
    }
    // staff may ask again (the catalog decides again)
    expect((await setStatus(first, 'approved')).status).toBe(202);
  });

  test('when the reservation fails because the lot is gone, then the application is rejected with reason lot_deleted', async () => {
    const lot = await publishLot(h);
    const id = await apply(lot.id);
    await requestApproval(id);
    await h.publish(
      createEvent(Events.LotReservationFailed, {
        lot_id: lot.id,
        application_id: id,
        lot_status: null,
        reason: 'not_found',
      }),
    );
    const e = await h.recorder.waitFor(
      Events.ApplicationRejected,
      (x) => x.payload.application_id === id,
    );
    expect(e.payload).toMatchObject({ reason: 'lot_deleted', old_status: 'pending' });
    const app = await getApp(id);
    expect(app).toMatchObject({ status: 'rejected', approval: null });
    expect(app.notes.at(-1).comment).toBe('Automatisch abgelehnt: Das Lot existiert nicht mehr.');
  });

  test('when lot.reservation_failed arrives for an application approved by an earlier version, then it returns to the queue', async () => {
    const lot = await publishLot(h);
    const id = await apply(lot.id);
    await approve(lot, id);
    await h.publish(
      createEvent(Events.LotReservationFailed, {
        lot_id: lot.id,
        application_id: id,
        lot_status: 'taken',
        reason: 'not_available',
      }),
    );
    const e = await h.recorder.waitFor(
      Events.ApplicationReservationCancelled,
      (x) => x.payload.application_id === id,
    );
    expect(e.payload).toMatchObject({ reason: 'reservation_failed', new_status: 'pending' });
  });
});

describe('applications racing a reservation', () => {
  test('when families apply while the lot is being reserved, then no application stays pending on the reserved lot', async () => {
    const lot = await publishLot(h);
    const winner = await apply(lot.id);
    await requestApproval(winner);
    const burst = Array.from({ length: 24 }, (_, i) =>
      (async () => {
        await new Promise((r) => setTimeout(r, i * 8));
        const res = await h.http.post('/api/v1/applications', applicationBody(lot.id));
        return res.status;
      })(),
    );
    // the catalog's answer arrives in the middle of the burst
    await new Promise((r) => setTimeout(r, 90));
    await h.publish(reservedFor(lot, winner));
    const statuses = await Promise.all(burst);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    await eventually(async () => (await getApp(winner)).status === 'approved', {
      what: 'approved',
    });
    const stored = await eventually(
      async () => {
        const all = await h.conn
          .collection('applications')
          .find({ lot_id: lot.id }, { projection: { id: 1, status: 1, rejected_for: 1 } })
          .toArray();
        return all.every((a) => a.status !== 'pending') ? all : undefined;
      },
      { what: 'no pending application left on the reserved lot' },
    );
    for (const a of stored.filter((x) => x.id !== winner)) {
      expect(a).toMatchObject({ status: 'rejected', rejected_for: winner });
    }
    expect(stored.length).toBe(1 + statuses.filter((s) => s === 201).length);
  });
});

describe('second chances', () => {
  test('when staff cancel a reservation, then the catalog is told, and when it frees the lot, the applications rejected because of it return to pending in their old order, staff rejections stay', async () => {
    const lot = await publishLot(h);
    const [a, winner, b, staffRejected, c] = [
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
    ];
    expect((await setStatus(staffRejected!, 'rejected', 'Unvollständig')).status).toBe(200);
    await approve(lot, winner!);
    for (const id of [a!, b!, c!]) expect((await getApp(id)).status).toBe('rejected');

    const cancel = await setStatus(winner!, 'pending', 'Familie hat abgesagt');
    expect(cancel.status).toBe(200);
    const cancelled = await h.recorder.waitFor(
      Events.ApplicationReservationCancelled,
      (e) => e.payload.application_id === winner,
    );
    expect(cancelled.payload).toMatchObject({ reason: 'staff', note: 'Familie hat abgesagt' });
    // nobody comes back before the lot is really free again
    expect((await getApp(a!)).status).toBe('rejected');

    await h.publish(
      statusChanged(lot, {
        old_status: 'reserved',
        new_status: 'available',
        version: 3,
        cause: 'reservation_cancelled',
        application_id: winner!,
      }),
    );
    const back = await Promise.all(
      [a!, b!, c!].map((id) =>
        h.recorder.waitFor(Events.ApplicationReconsidered, (e) => e.payload.application_id === id),
      ),
    );
    for (const e of back) {
      expect(e.payload).toMatchObject({
        old_status: 'rejected',
        new_status: 'pending',
        reason: 'reservation_cancelled',
        applicant_email: 'olena@example.org',
        language: 'de',
      });
    }
    for (const id of [a!, b!, c!]) {
      const app = await getApp(id);
      expect(app.status).toBe('pending');
      expect(app.notes.at(-1).comment).toBe(
        `Wieder in der Warteschlange: Die Reservierung für Bewerbung #${winner} wurde aufgehoben.`,
      );
    }
    expect((await getApp(staffRejected!)).status).toBe('rejected');
    // the queue is the old one: a, winner, b, c (ids in arrival order)
    const queue = await h.http.get(`/api/v1/applications?lot_id=${lot.id}&status=pending`, staff());
    expect(
      (queue.body.applications as { id: number }[]).map((x) => x.id).sort((x, y) => x - y),
    ).toEqual([a, winner, b, c]);
    const places = Object.fromEntries(
      (queue.body.applications as { id: number; queue_position: number }[]).map((x) => [
        x.id,
        x.queue_position,
      ]),
    );
    expect([places[a!], places[winner!], places[b!], places[c!]]).toEqual([1, 2, 3, 4]);
  });

  test('when staff set a reserved lot back to available in the form, then the approved application and the rivals rejected for it return to the queue', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    const rival = await apply(lot.id);
    await approve(lot, approved);
    expect((await getApp(rival)).status).toBe('rejected');
    await h.publish(
      statusChanged(lot, { old_status: 'reserved', new_status: 'available', version: 3 }),
    );
    const e = await h.recorder.waitFor(
      Events.ApplicationReservationCancelled,
      (x) => x.payload.application_id === approved,
    );
    expect(e.payload).toMatchObject({ reason: 'staff', new_status: 'pending' });
    await h.recorder.waitFor(
      Events.ApplicationReconsidered,
      (x) => x.payload.application_id === rival && x.payload.reason === 'reservation_cancelled',
    );
    expect((await getApp(approved)).status).toBe('pending');
    expect((await getApp(rival)).status).toBe('pending');
    // and it can be asked to be approved again
    expect((await setStatus(approved, 'approved')).status).toBe(202);
  });

  test('when a rival rejected because of the reservation had its data erased meanwhile, then it stays rejected when the reservation ends (no nameless family in the queue)', async () => {
    const lot = await publishLot(h);
    const winner = await apply(lot.id);
    const phone = newPhone();
    const erased = await apply(lot.id, { applicant_phone: phone, applicant_whatsapp: null });
    const kept = await apply(lot.id);
    await approve(lot, winner);
    expect((await getApp(erased)).status).toBe('rejected');
    const erasure = await h.http.post('/api/v1/privacy/erase', { phone }, staff());
    expect(erasure.status).toBe(200);
    expect((await setStatus(winner, 'pending', 'Familie hat abgesagt')).status).toBe(200);
    await h.publish(
      statusChanged(lot, {
        old_status: 'reserved',
        new_status: 'available',
        version: 3,
        cause: 'reservation_cancelled',
        application_id: winner,
      }),
    );
    await h.recorder.waitFor(
      Events.ApplicationReconsidered,
      (x) => x.payload.application_id === kept && x.payload.reason === 'reservation_cancelled',
    );
    expect((await getApp(kept)).status).toBe('pending');
    expect((await getApp(erased)).status).toBe('rejected');
    expect(
      h.recorder
        .of(Events.ApplicationReconsidered)
        .some((e) => e.payload.application_id === erased),
    ).toBe(false);
  });

  test('when staff reconsider a rejection by hand, then application.reconsidered with reason staff goes out (the family is mailed)', async () => {
    const lot = await publishLot(h);
    const id = await apply(lot.id);
    expect((await setStatus(id, 'rejected', 'Versehen')).status).toBe(200);
    expect((await setStatus(id, 'pending', 'Doch passend')).status).toBe(200);
    const e = await h.recorder.waitFor(
      Events.ApplicationReconsidered,
      (x) => x.payload.application_id === id,
    );
    expect(e.payload).toMatchObject({
      reason: 'staff',
      note: 'Doch passend',
      new_status: 'pending',
    });
  });
});

describe('lot changes by staff', () => {
  test('when staff archive a lot, then its open applications are rejected, an approval request included', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    const pending = await apply(lot.id);
    const rejected = await apply(lot.id);
    await setStatus(rejected, 'rejected', 'Passt nicht');
    await requestApproval(approved);
    await h.publish(
      statusChanged(lot, { old_status: 'available', new_status: 'archived', version: 2 }),
    );
    for (const id of [approved, pending]) {
      const e = await h.recorder.waitFor(
        Events.ApplicationRejected,
        (x) => x.payload.application_id === id,
      );
      expect(e.payload.reason).toBe('lot_closed');
      expect(e.actor).toMatchObject({ email: ADMIN.email });
      const app = await getApp(id);
      expect(app.approval).toBeNull();
      expect(app.notes.at(-1).comment).toBe(
        `Automatisch abgelehnt: Das Lot wurde von ${ADMIN.email} archiviert.`,
      );
    }
    expect((await getApp(rejected)).notes).toHaveLength(1);
    const info = await h.http.get(`/api/v1/lots/${lot.id}/applications-info`);
    expect(info.body.data).toMatchObject({
      lot_status: 'archived',
      applications_count: 0,
      can_apply: false,
    });
  });

  test('when the archive event arrives after the lot was already reopened, then its applications stay open', async () => {
    const lot = await publishLot(h);
    const pending = await apply(lot.id);
    await deliver(
      statusChanged(lot, { old_status: 'archived', new_status: 'available', version: 3 }),
    );
    await deliver(
      statusChanged(lot, { old_status: 'available', new_status: 'archived', version: 2 }),
    );
    expect((await getApp(pending)).status).toBe('pending');
    const info = await h.http.get(`/api/v1/lots/${lot.id}/applications-info`);
    expect(info.body.data).toMatchObject({ lot_status: 'available', applications_count: 1 });
  });

  test('when staff mark a lot taken, then the approved application is completed and the pending ones rejected', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    await approve(lot, approved);
    const late = { ...lot, status: 'reserved' as const, version: 2 };
    const pending = await h.conn
      .collection('applications')
      .countDocuments({ lot_id: lot.id, status: 'pending' });
    expect(pending).toBe(0);
    await h.publish(
      statusChanged(late, { old_status: 'reserved', new_status: 'taken', version: 3 }),
    );
    const done = await h.recorder.waitFor(
      Events.ApplicationCompleted,
      (e) => e.payload.application_id === approved,
    );
    expect(done.payload).toMatchObject({ reason: 'lot_closed', new_status: 'completed' });
  });

  test('when a lot is deleted, then its open applications are rejected with reason lot_deleted', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    const rival = await apply(lot.id);
    await approve(lot, approved);
    // reserved: nobody can apply any more
    const late = await h.http.post('/api/v1/applications', applicationBody(lot.id));
    expect(late.status).toBe(409);
    await h.publish(createEvent(Events.LotDeleted, { lot }, ADMIN));
    const e = await h.recorder.waitFor(
      Events.ApplicationRejected,
      (x) => x.payload.application_id === approved,
    );
    expect(e.payload).toMatchObject({ reason: 'lot_deleted', lot_name: lot.name });
    // the family's status check still names the lot
    const phone = (await getApp(rival)).applicant_phone as string;
    const check = await h.http.get(
      `/api/v1/applications/public/check-status/${encodeURIComponent(phone)}`,
    );
    expect(check.body.applications[0]).toMatchObject({
      id: rival,
      status: 'rejected',
      lot_name: lot.name,
    });
  });
});
