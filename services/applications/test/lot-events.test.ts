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
        .countDocuments({ _id: event.eventId as unknown as never })) === 1,
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
      await other.service.lotSync.start('empty');
      expect(calls).toBe(4); // 503, then pages of 2, 2 and 1
      const info = await other.http.get('/api/v1/lots/505/applications-info');
      expect(info.body.data).toMatchObject({ lot_status: 'archived', can_apply: false });
      expect((await other.http.post('/api/v1/applications', applicationBody(501))).status).toBe(
        201,
      );
      // not empty any more: the next start does not ask again
      await other.service.lotSync.start('empty');
      expect(calls).toBe(4);
    } finally {
      await other.stop();
      await catalog.close();
    }
  });
});

describe('approval flow reactions', () => {
  test('when lot.reserved arrives for the approved application, then the other pending ones are rejected with a note and an event each', async () => {
    const lot = await publishLot(h);
    const [winner, a, b, early] = [
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
      await apply(lot.id),
    ];
    expect((await setStatus(early!, 'rejected', 'Keine Rückmeldung')).status).toBe(200);
    expect((await setStatus(winner!, 'approved')).status).toBe(200);

    const reserved = createEvent(
      Events.LotReserved,
      { lot: reservedLot(lot), application_id: winner! },
      ADMIN,
    );
    await h.publish(reserved);
    for (const id of [a!, b!]) {
      const event = await h.recorder.waitFor(
        Events.ApplicationRejected,
        (e) => e.payload.application_id === id,
      );
      expect(event.payload).toMatchObject({
        old_status: 'pending',
        new_status: 'rejected',
        reason: 'competitor_approved',
        lot_id: lot.id,
        applicant_email: 'olena@example.org',
        lot_name: lot.name,
      });
      const app = await getApp(id);
      expect(app.status).toBe('rejected');
      expect(app.notes.at(-1)).toMatchObject({
        role: 'system',
        action: 'REJECT',
        comment: `Automatisch abgelehnt: Das Lot wurde für Bewerbung #${winner} reserviert.`,
      });
    }
    expect((await getApp(winner!)).status).toBe('approved');
    expect((await getApp(early!)).notes).toHaveLength(1); // the earlier rejection only

    // the same fact again under a new event id (a handler re-run after a crash) changes nothing
    const before = h.recorder.of(Events.ApplicationRejected).length;
    await deliver(
      createEvent(Events.LotReserved, { lot: reservedLot(lot), application_id: winner! }, ADMIN),
    );
    await h.service.relay.sweep();
    expect(h.recorder.of(Events.ApplicationRejected)).toHaveLength(before);
    expect((await getApp(a!)).notes).toHaveLength(1);
  });

  test('when lot.reserved arrives for an application whose reservation was cancelled meanwhile, then nobody is rejected', async () => {
    const lot = await publishLot(h);
    const winner = await apply(lot.id);
    const other = await apply(lot.id);
    expect((await setStatus(winner, 'approved')).status).toBe(200);
    expect((await setStatus(winner, 'pending')).status).toBe(200);
    await deliver(
      createEvent(Events.LotReserved, { lot: reservedLot(lot), application_id: winner }),
    );
    expect((await getApp(other)).status).toBe('pending');
  });

  test('when lot.reservation_failed arrives, then the approval is undone, the slot freed and the family told why', async () => {
    const lot = await publishLot(h);
    const first = await apply(lot.id);
    const second = await apply(lot.id);
    expect((await setStatus(first, 'approved')).status).toBe(200);
    // the slot is held: the second cannot be approved
    const refused = await setStatus(second, 'approved');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LOT_ALREADY_RESERVED');

    await h.publish(
      createEvent(Events.LotReservationFailed, {
        lot_id: lot.id,
        application_id: first,
        lot_status: 'taken',
        reason: 'not_available',
      }),
    );
    const event = await h.recorder.waitFor(
      Events.ApplicationReservationCancelled,
      (e) => e.payload.application_id === first,
    );
    expect(event.payload).toMatchObject({
      old_status: 'approved',
      new_status: 'pending',
      reason: 'reservation_failed',
    });
    expect(event.actor).toBeNull();
    const app = await getApp(first);
    expect(app.status).toBe('pending');
    expect(app.notes.at(-1).comment).toBe(
      'Genehmigung zurückgenommen: Das Lot konnte nicht reserviert werden (das Lot ist übernommen).',
    );
    // the slot is free again
    expect((await setStatus(second, 'approved')).status).toBe(200);
  });

  test('when staff archive a lot, then its open applications are rejected and the slot is freed', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    const pending = await apply(lot.id);
    const rejected = await apply(lot.id);
    await setStatus(rejected, 'rejected', 'Passt nicht');
    await setStatus(approved, 'approved');
    await h.publish(
      createEvent(
        Events.LotStatusChanged,
        {
          lot: { ...lot, status: 'archived', version: 2 },
          old_status: 'available',
          new_status: 'archived',
          cause: 'staff',
          application_id: null,
        },
        ADMIN,
      ),
    );
    for (const id of [approved, pending]) {
      const e = await h.recorder.waitFor(
        Events.ApplicationRejected,
        (x) => x.payload.application_id === id,
      );
      expect(e.payload.reason).toBe('lot_closed');
      expect(e.actor).toMatchObject({ email: ADMIN.email });
      expect((await getApp(id)).notes.at(-1).comment).toBe(
        `Automatisch abgelehnt: Das Lot wurde von ${ADMIN.email} archiviert.`,
      );
    }
    expect((await getApp(rejected)).notes).toHaveLength(1);
    expect(await h.conn.collection('reservations').countDocuments({ lot_id: lot.id })).toBe(0);
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
    const change = (status: 'archived' | 'available', version: number, old: string) =>
      createEvent(
        Events.LotStatusChanged,
        {
          lot: { ...lot, status, version },
          old_status: old as 'available',
          new_status: status,
          cause: 'staff',
          application_id: null,
        },
        ADMIN,
      );
    await deliver(change('available', 3, 'archived'));
    await deliver(change('archived', 2, 'available'));
    expect((await getApp(pending)).status).toBe('pending');
    const info = await h.http.get(`/api/v1/lots/${lot.id}/applications-info`);
    expect(info.body.data).toMatchObject({ lot_status: 'available', applications_count: 1 });
  });

  test('when staff mark a lot taken, then the approved application is completed and the pending ones rejected', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    const pending = await apply(lot.id);
    await setStatus(approved, 'approved');
    await h.publish(
      createEvent(
        Events.LotStatusChanged,
        {
          lot: { ...lot, status: 'taken', version: 2 },
          old_status: 'available',
          new_status: 'taken',
          cause: 'staff',
          application_id: null,
        },
        ADMIN,
      ),
    );
    const done = await h.recorder.waitFor(
      Events.ApplicationCompleted,
      (e) => e.payload.application_id === approved,
    );
    expect(done.payload).toMatchObject({ reason: 'lot_closed', new_status: 'completed' });
    await h.recorder.waitFor(
      Events.ApplicationRejected,
      (e) => e.payload.application_id === pending && e.payload.reason === 'lot_closed',
    );
  });

  test('when staff set a reserved lot back to available, then its approved application returns to the queue', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    await setStatus(approved, 'approved');
    await h.publish(
      createEvent(
        Events.LotStatusChanged,
        {
          lot: { ...lot, status: 'available', version: 3 },
          old_status: 'reserved',
          new_status: 'available',
          cause: 'staff',
          application_id: null,
        },
        ADMIN,
      ),
    );
    const e = await h.recorder.waitFor(
      Events.ApplicationReservationCancelled,
      (x) => x.payload.application_id === approved,
    );
    expect(e.payload).toMatchObject({ reason: 'staff', new_status: 'pending' });
    expect((await getApp(approved)).status).toBe('pending');
    // and it can be approved again (the slot was freed)
    expect((await setStatus(approved, 'approved')).status).toBe(200);
  });

  test('when a lot is deleted, then its open applications are rejected with reason lot_deleted', async () => {
    const lot = await publishLot(h);
    const approved = await apply(lot.id);
    const pending = await apply(lot.id);
    await setStatus(approved, 'approved');
    await h.publish(createEvent(Events.LotDeleted, { lot }, ADMIN));
    for (const id of [approved, pending]) {
      const e = await h.recorder.waitFor(
        Events.ApplicationRejected,
        (x) => x.payload.application_id === id,
      );
      expect(e.payload).toMatchObject({ reason: 'lot_deleted', lot_name: lot.name });
    }
    // the family's status check still names the lot
    const phone = (await getApp(pending)).applicant_phone as string;
    const check = await h.http.get(
      `/api/v1/applications/public/check-status/${encodeURIComponent(phone)}`,
    );
    expect(check.body.applications[0]).toMatchObject({
      id: pending,
      status: 'rejected',
      lot_name: lot.name,
    });
  });
});
