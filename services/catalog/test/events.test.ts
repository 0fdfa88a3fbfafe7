import { Events, type DomainEvent, type EventName } from '@furniture/contracts';
import { api, eventually } from '@furniture/platform/testing';
import {
  ADMIN,
  adminToken,
  applicationChange,
  createEvent,
  lotBody,
  startCatalog,
  volunteerToken,
  type CatalogHarness,
} from './harness';

let svc: CatalogHarness;
const admin = adminToken();

beforeAll(async () => {
  svc = await startCatalog();
});
afterAll(async () => {
  await svc?.stop();
});

async function newLot(overrides: Record<string, unknown> = {}) {
  const res = await svc.http.post('/api/v1/lots/', lotBody(overrides), { token: admin });
  expect(res.status).toBe(201);
  return res.body as { id: number; version: number; status: string; updated_at: string };
}
const getLot = async (id: number) =>
  (await svc.http.get(`/api/v1/lots/${id}`, { token: admin })).body;

const requested = (applicationId: number, lotId: number) =>
  createEvent(
    Events.ApplicationApprovalRequested,
    { application_id: applicationId, lot_id: lotId, note: null },
    ADMIN,
  );
const cancelled = (
  applicationId: number,
  lotId: number,
  reason: 'staff' | 'reservation_failed' = 'staff',
) =>
  createEvent(
    Events.ApplicationReservationCancelled,
    applicationChange(applicationId, lotId, {
      old_status: 'approved',
      new_status: 'pending',
      reason,
    }),
    ADMIN,
  );
const completed = (applicationId: number, lotId: number) =>
  createEvent(
    Events.ApplicationCompleted,
    applicationChange(applicationId, lotId, { old_status: 'approved', new_status: 'completed' }),
    ADMIN,
  );

/** Runs the service's own (wrapped) handler, as the consumer does for a delivery. */
function handle(event: DomainEvent): Promise<void> {
  const handler = svc.catalog.handlers[event.name] as
    ((e: DomainEvent) => Promise<void>) | undefined;
  if (!handler) throw new Error(`no handler for ${event.name}`);
  return handler(event);
}

const eventsOfLot = <N extends EventName>(name: N, lotId: number) =>
  svc.recorder.of(name).filter((e) => {
    const p = e.payload as { lot?: { id: number }; lot_id?: number };
    return (p.lot?.id ?? p.lot_id) === lotId;
  });

let barrierCount = 0;
/**
 * Every event the lot's earlier writes emitted has been recorded once this returns: the outbox
 * publishes a lot's events in order, and this adds one more (a photo-only PATCH) and waits for it.
 */
async function barrier(lotId: number): Promise<void> {
  const marker = `/media/barrier/${lotId}-${++barrierCount}.webp`;
  const res = await svc.http.patch(
    `/api/v1/lots/${lotId}`,
    { gallery_photos: [marker] },
    { token: admin },
  );
  expect(res.status).toBe(200);
  await svc.recorder.waitFor(
    Events.LotUpdated,
    (e) => e.payload.lot.id === lotId && JSON.stringify(e.payload.changes).includes(marker),
  );
}

describe('approval flow: application.approval_requested', () => {
  test('when approval of an application for an available lot is requested, then the lot is reserved, its version goes up, and lot.reserved and lot.status_changed follow with the approving staff member', async () => {
    const lot = await newLot();
    await svc.publish(requested(501, lot.id));
    const reserved = await svc.recorder.waitFor(
      Events.LotReserved,
      (e) => e.payload.lot.id === lot.id,
    );
    expect(reserved.payload).toMatchObject({
      application_id: 501,
      lot: { status: 'reserved', version: 2 },
    });
    expect(reserved.actor).toMatchObject({ id: ADMIN.id, email: ADMIN.email });
    const changed = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id,
    );
    expect(changed.payload).toMatchObject({
      old_status: 'available',
      new_status: 'reserved',
      cause: 'reservation',
      application_id: 501,
    });
    expect(await getLot(lot.id)).toMatchObject({ status: 'reserved', version: 2 });
  });

  test('when approval of two applications of one lot is requested at the same moment, then exactly one reservation wins and the other gets lot.reservation_failed', async () => {
    const lot = await newLot();
    await Promise.all([svc.publish(requested(601, lot.id)), svc.publish(requested(602, lot.id))]);
    const won = await svc.recorder.waitFor(Events.LotReserved, (e) => e.payload.lot.id === lot.id);
    const lost = await svc.recorder.waitFor(
      Events.LotReservationFailed,
      (e) => e.payload.lot_id === lot.id,
    );
    const winner = won.payload.application_id;
    expect([601, 602]).toContain(winner);
    expect(lost.payload).toEqual({
      lot_id: lot.id,
      application_id: winner === 601 ? 602 : 601,
      lot_status: 'reserved',
      reason: 'not_available',
    });
    await barrier(lot.id);
    expect(eventsOfLot(Events.LotReserved, lot.id)).toHaveLength(1);
    expect(eventsOfLot(Events.LotReservationFailed, lot.id)).toHaveLength(1);
    expect((await getLot(lot.id)).status).toBe('reserved');
  });

  test('when ten approval requests for one lot are handled at once, then one reserves it and nine fail', async () => {
    const lot = await newLot();
    await Promise.all(Array.from({ length: 10 }, (_, i) => handle(requested(700 + i, lot.id))));
    await barrier(lot.id);
    expect(eventsOfLot(Events.LotReserved, lot.id)).toHaveLength(1);
    const failed = eventsOfLot(Events.LotReservationFailed, lot.id);
    expect(failed).toHaveLength(9);
    const winner = eventsOfLot(Events.LotReserved, lot.id)[0]!.payload.application_id;
    expect(new Set(failed.map((e) => e.payload.application_id)).has(winner)).toBe(false);
  });

  test('when the same approval request arrives again (redelivered, or re-sent with a new event id), then nothing new is emitted', async () => {
    const lot = await newLot();
    const event = requested(801, lot.id);
    await handle(event);
    await handle(event);
    await handle(requested(801, lot.id));
    await barrier(lot.id);
    expect(eventsOfLot(Events.LotReserved, lot.id)).toHaveLength(1);
    expect(eventsOfLot(Events.LotStatusChanged, lot.id)).toHaveLength(1);
    expect(eventsOfLot(Events.LotReservationFailed, lot.id)).toHaveLength(0);
    expect((await getLot(lot.id)).version).toBe(2);
  });

  test('when a handler runs twice for one event (a crash before it was marked processed), then the events it emits carry the same ids', async () => {
    const lot = await newLot({ status: 'taken' });
    const event = requested(851, lot.id);
    await svc.catalog.lotEvents.approvalRequested(
      event as DomainEvent<typeof Events.ApplicationApprovalRequested>,
    );
    await svc.catalog.lotEvents.approvalRequested(
      event as DomainEvent<typeof Events.ApplicationApprovalRequested>,
    );
    await barrier(lot.id);
    const failed = eventsOfLot(Events.LotReservationFailed, lot.id);
    expect(failed).toHaveLength(2);
    expect(failed[0]!.eventId).toBe(failed[1]!.eventId);
  });

  test('when the lot is not available, then lot.reservation_failed names its status and the lot stays as it is', async () => {
    for (const status of ['taken', 'archived', 'reserved'] as const) {
      const lot = await newLot({ status });
      await svc.publish(requested(900, lot.id));
      const failed = await svc.recorder.waitFor(
        Events.LotReservationFailed,
        (e) => e.payload.lot_id === lot.id,
      );
      expect(failed.payload).toMatchObject({
        application_id: 900,
        lot_status: status,
        reason: 'not_available',
      });
      expect(await getLot(lot.id)).toMatchObject({ status, version: 1 });
    }
  });

  test('when the lot does not exist or was deleted, then lot.reservation_failed with reason not_found and no status', async () => {
    await svc.publish(requested(950, 987654));
    const failed = await svc.recorder.waitFor(
      Events.LotReservationFailed,
      (e) => e.payload.lot_id === 987654,
    );
    expect(failed.payload).toEqual({
      lot_id: 987654,
      application_id: 950,
      lot_status: null,
      reason: 'not_found',
    });
    expect(failed.actor).toMatchObject({ id: ADMIN.id });

    const lot = await newLot();
    await svc.http.delete(`/api/v1/lots/${lot.id}`, { token: admin });
    await svc.publish(requested(951, lot.id));
    const gone = await svc.recorder.waitFor(
      Events.LotReservationFailed,
      (e) => e.payload.lot_id === lot.id,
    );
    expect(gone.payload).toMatchObject({ reason: 'not_found', lot_status: null });
  });

  test('when a volunteer saves a lot form loaded before the lot was reserved, then 409 and the reservation stands', async () => {
    const lot = await newLot();
    await svc.publish(requested(1001, lot.id));
    await svc.recorder.waitFor(Events.LotReserved, (e) => e.payload.lot.id === lot.id);
    const save = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({ status: 'available', version: lot.version }),
      { token: volunteerToken() },
    );
    expect(save.status).toBe(409);
    expect(save.body).toMatchObject({ code: 'STALE_VERSION', current_version: 2 });
    expect((await getLot(lot.id)).status).toBe('reserved');
  });
});

describe('approval flow: cancelled and completed', () => {
  async function reservedLot(applicationId: number) {
    const lot = await newLot();
    await handle(requested(applicationId, lot.id));
    expect((await getLot(lot.id)).status).toBe('reserved');
    return lot;
  }

  test('when the reservation of the application holding the lot is cancelled, then the lot is available again with lot.status_changed', async () => {
    const lot = await reservedLot(1101);
    await svc.publish(cancelled(1101, lot.id));
    const changed = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id && e.payload.cause === 'reservation_cancelled',
    );
    expect(changed.payload).toMatchObject({
      old_status: 'reserved',
      new_status: 'available',
      application_id: 1101,
    });
    expect(await getLot(lot.id)).toMatchObject({ status: 'available', version: 3 });
  });

  test('when a reservation is cancelled for an application that does not hold the lot (a failed approval being undone), then the lot stays reserved for the other', async () => {
    const lot = await reservedLot(1201);
    await handle(cancelled(1202, lot.id, 'reservation_failed'));
    await handle(completed(1202, lot.id));
    await barrier(lot.id);
    expect(eventsOfLot(Events.LotStatusChanged, lot.id)).toHaveLength(1);
    expect(await getLot(lot.id)).toMatchObject({ status: 'reserved', version: 2 });
    // and the holder can still be approved again only once: nothing new
    await handle(requested(1201, lot.id));
    await barrier(lot.id);
    expect(eventsOfLot(Events.LotReserved, lot.id)).toHaveLength(1);
  });

  test('when an application is rejected, then the lot is freed only when it held it (lot_held, or an earlier version without it); a rejected rival changes nothing', async () => {
    const lot = await reservedLot(1271);
    const rejected = (applicationId: number, held?: boolean) =>
      createEvent(Events.ApplicationRejected, {
        ...applicationChange(applicationId, lot.id, {
          old_status: held ? 'approved' : 'pending',
          new_status: 'rejected',
          reason: held ? 'pickup_lapsed' : 'competitor_approved',
        }),
        ...(held === undefined ? {} : { lot_held: held }),
      });
    await handle(rejected(1272, false)); // a rival rejected for the reservation
    await handle(rejected(1273)); // an earlier version's event of someone else
    await barrier(lot.id);
    expect(await getLot(lot.id)).toMatchObject({ status: 'reserved', version: 2 });
    await svc.publish(rejected(1271, true));
    const changed = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id && e.payload.cause === 'pickup_lapsed',
    );
    expect(changed.payload).toMatchObject({ new_status: 'available', application_id: 1271 });
  });

  test('when an approval is withdrawn (a reservation made for a request that had ended), then the lot is available again, but only when it is reserved for that application', async () => {
    const lot = await reservedLot(1251);
    const withdrawn = (applicationId: number) =>
      createEvent(Events.ApplicationApprovalWithdrawn, {
        application_id: applicationId,
        lot_id: lot.id,
      });
    await handle(withdrawn(1252)); // someone else's: nothing
    expect((await getLot(lot.id)).status).toBe('reserved');
    await svc.publish(withdrawn(1251));
    const changed = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id && e.payload.cause === 'reservation_cancelled',
    );
    expect(changed.payload).toMatchObject({
      old_status: 'reserved',
      new_status: 'available',
      application_id: 1251,
    });
    expect(await getLot(lot.id)).toMatchObject({ status: 'available', version: 3 });
  });

  test('when the application holding the lot is completed, then the lot is taken; a repeat changes nothing', async () => {
    const lot = await reservedLot(1301);
    await svc.publish(completed(1301, lot.id));
    const changed = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id && e.payload.cause === 'completed',
    );
    expect(changed.payload).toMatchObject({
      old_status: 'reserved',
      new_status: 'taken',
      application_id: 1301,
    });
    await handle(completed(1301, lot.id));
    await handle(cancelled(1301, lot.id));
    await barrier(lot.id);
    expect(eventsOfLot(Events.LotStatusChanged, lot.id)).toHaveLength(2);
    expect((await getLot(lot.id)).status).toBe('taken');
  });

  test('when staff set a reserved lot to available in the form, then the old reservation no longer completes it', async () => {
    const lot = await reservedLot(1401);
    const current = await getLot(lot.id);
    const res = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { status: 'available', version: current.version },
      { token: admin },
    );
    expect(res.status).toBe(200);
    const staff = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id && e.payload.cause === 'staff',
    );
    expect(staff.payload).toMatchObject({
      old_status: 'reserved',
      new_status: 'available',
      application_id: null,
    });
    await handle(completed(1401, lot.id));
    expect((await getLot(lot.id)).status).toBe('available');
  });
});

describe('photos reported by the media service', () => {
  const uploaded = (photoId: number, lotId: number) =>
    createEvent(
      Events.PhotoUploaded,
      {
        photo_id: photoId,
        lot_id: lotId,
        urls: {
          thumbnail: `/media/lots/${lotId}/${photoId}-thumb.webp`,
          medium: `/media/lots/${lotId}/${photoId}-medium.webp`,
          large: `/media/lots/${lotId}/${photoId}-large.webp`,
        },
      },
      ADMIN,
    );
  const deleted = (photoId: number, lotId: number) =>
    createEvent(Events.PhotoDeleted, { photo_id: photoId, lot_id: lotId }, ADMIN);

  test('when a photo is uploaded, then its medium URL joins photos and its large URL gallery_photos, without a new version, with lot.updated', async () => {
    const lot = await newLot();
    await svc.publish(uploaded(1, lot.id));
    const updated = await svc.recorder.waitFor(
      Events.LotUpdated,
      (e) => e.payload.lot.id === lot.id,
    );
    expect(updated.payload.lot.photos).toEqual([`/media/lots/${lot.id}/1-medium.webp`]);
    expect(updated.payload.changes.photos).toEqual({
      old: [],
      new: [`/media/lots/${lot.id}/1-medium.webp`],
    });
    const after = await getLot(lot.id);
    expect(after).toMatchObject({
      photos: [`/media/lots/${lot.id}/1-medium.webp`],
      gallery_photos: [`/media/lots/${lot.id}/1-large.webp`],
      version: 1,
    });
    expect(after.updated_at > lot.updated_at).toBe(true);
    // an edit form loaded before the upload still saves
    const save = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({ condition: 'sehr gut', version: 1 }),
      { token: admin },
    );
    expect(save.status).toBe(200);
    expect(save.body.photos).toHaveLength(1);
  });

  test('when the same photo is reported twice, then it is listed once; more than 10 photos are not listed', async () => {
    const lot = await newLot();
    await handle(uploaded(1, lot.id));
    await handle(uploaded(1, lot.id));
    for (let p = 2; p <= 11; p++) await handle(uploaded(p, lot.id));
    const after = await getLot(lot.id);
    expect(after.photos).toHaveLength(10);
    expect(new Set(after.photos).size).toBe(10);
    expect(after.photos).not.toContain(`/media/lots/${lot.id}/11-medium.webp`);
    expect(after.gallery_photos).toHaveLength(10);
  });

  test('when a photo is deleted, then its URLs leave the lot; an upload report arriving after its deletion is ignored', async () => {
    const lot = await newLot();
    await handle(uploaded(1, lot.id));
    await handle(uploaded(2, lot.id));
    await handle(deleted(1, lot.id));
    expect((await getLot(lot.id)).photos).toEqual([`/media/lots/${lot.id}/2-medium.webp`]);
    await handle(deleted(3, lot.id));
    await handle(uploaded(3, lot.id));
    const after = await getLot(lot.id);
    expect(after.photos).toEqual([`/media/lots/${lot.id}/2-medium.webp`]);
    expect(after.gallery_photos).toEqual([`/media/lots/${lot.id}/2-large.webp`]);
    expect(after.version).toBe(1);
  });

  test('when a photo is reported for a lot that does not exist, then the event is consumed without error', async () => {
    const event = uploaded(5, 123456);
    await svc.publish(event);
    await eventually(
      () =>
        svc.conn
          .collection('processed_events')
          .findOne({ _id: event.eventId, state: { $ne: 'claimed' } } as never),
      {
        what: 'processed photo.uploaded',
      },
    );
  });
});

describe('snapshot for other services', () => {
  test('when another service pages through the snapshot, then every lot (archived too, deleted not) comes once in id order with next_after_id', async () => {
    const ids: number[] = [];
    for (const status of ['available', 'archived', 'taken'])
      ids.push((await newLot({ status })).id);
    const gone = await newLot();
    await svc.http.delete(`/api/v1/lots/${gone.id}`, { token: admin });

    const seen: { id: number; status: string; version: number; photos: string[] }[] = [];
    let after = 0;
    for (let guard = 0; guard < 100; guard++) {
      const res = await api(svc.url, { caller: 'media' }).get(
        `/internal/lots/snapshot?after_id=${after}&limit=4`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.lots);
      if (res.body.next_after_id === null) break;
      expect(res.body.lots).toHaveLength(4);
      after = res.body.next_after_id;
    }
    const seenIds = seen.map((l) => l.id);
    expect(seenIds).toEqual([...seenIds].sort((a, b) => a - b));
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect(seenIds).toEqual(expect.arrayContaining(ids));
    expect(seenIds).not.toContain(gone.id);
    expect(seen.find((l) => l.id === ids[1])).toMatchObject({ status: 'archived', version: 1 });
    expect(Object.keys(seen[0]!).sort()).toEqual(
      [
        'category_id',
        'created_at',
        'id',
        'label_code',
        'name',
        'photos',
        'status',
        'updated_at',
        'version',
      ].sort(),
    );
  });

  test('when the snapshot is asked for with a bad limit, then 422', async () => {
    expect(
      (await api(svc.url, { caller: 'applications' }).get('/internal/lots/snapshot?limit=0'))
        .status,
    ).toBe(422);
    expect(
      (await api(svc.url, { caller: 'applications' }).get('/internal/lots/snapshot?after_id=x'))
        .status,
    ).toBe(422);
  });
});
