/**
 * The approval flow between this service and the real catalog (ARCHITECTURE.md "Events"),
 * through the gateway: approve (requested) → lot reserved → competitors rejected → approved;
 * cancel → lot available, competitors back in the queue;
 * complete → lot taken; two approvals at once → one stays approved; lots archived or deleted by
 * staff close their applications; the lot read model is rebuilt from the catalog's snapshot.
 */
import { Events } from '@furniture/contracts';
import { applicationsService } from '@furniture/applications/service';
import { applicationBody } from '@furniture/applications/testing';
import { adminToken, eventually, startService } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';

let s: System;
beforeAll(async () => {
  s = await startSystem();
});
afterAll(async () => {
  await s?.stop();
});

const staff = () => ({ token: adminToken() });

async function apply(lotId: number): Promise<number> {
  const res = await s.http.post('/api/v1/applications/', applicationBody(lotId));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const patchStatus = (id: number, status: string, note?: string) =>
  s.http.patch(`/api/v1/applications/${id}/status`, { status, note }, staff());

async function statusOf(id: number): Promise<string> {
  return (await s.http.get(`/api/v1/applications/${id}`, staff())).body.status;
}

async function waitForStatus(id: number, status: string) {
  await eventually(async () => (await statusOf(id)) === status, {
    what: `application ${id} ${status}`,
  });
}

/** The lot as the catalog answers it. */
async function catalogLot(id: number) {
  return (await s.http.get(`/api/v1/lots/${id}`, staff())).body;
}

async function waitForCatalogStatus(id: number, status: string) {
  await eventually(async () => (await catalogLot(id))?.status === status, {
    what: `catalog lot ${id} ${status}`,
  });
}

/** Waits until the applications service's read model shows the lot in this status. */
async function waitForLot(url: string, lotId: number, status: string) {
  await eventually(
    async () => {
      const res = await fetch(`${url}/api/v1/lots/${lotId}/applications-info`);
      return (
        res.ok &&
        ((await res.json()) as { data: { lot_status: string } }).data.lot_status === status
      );
    },
    { what: `lot ${lotId} ${status} in the read model` },
  );
}

test('when staff approve one application, then the catalog reserves the lot and the other pending applications are rejected with a note', async () => {
  const lot = await s.createLot();
  const [winner, loserA, loserB] = [await apply(lot), await apply(lot), await apply(lot)];

  expect((await patchStatus(winner!, 'approved', 'Abholung Freitag')).status).toBe(202);
  await waitForCatalogStatus(lot, 'reserved');
  const reserved = await s.recorder.waitFor(
    Events.LotReserved,
    (e) => e.payload.application_id === winner,
  );
  expect(reserved.payload.lot.id).toBe(lot);

  for (const id of [loserA!, loserB!]) {
    await waitForStatus(id, 'rejected');
    const app = (await s.http.get(`/api/v1/applications/${id}`, staff())).body;
    expect(app.notes.at(-1)).toMatchObject({
      role: 'system',
      action: 'REJECT',
      comment: `Automatisch abgelehnt: Das Lot wurde für Bewerbung #${winner} reserviert.`,
    });
    const event = await s.recorder.waitFor(
      Events.ApplicationRejected,
      (e) => e.payload.application_id === id,
    );
    expect(event.payload.reason).toBe('competitor_approved');
  }
  await waitForStatus(winner!, 'approved');

  // the public side sees the lot as reserved: nobody can apply any more
  await waitForLot(s.url, lot, 'reserved');
  const info = await s.http.get(`/api/v1/lots/${lot}/applications-info`);
  expect(info.body.data).toMatchObject({
    lot_status: 'reserved',
    can_apply: false,
    applications_count: 1,
  });
  const late = await s.http.post('/api/v1/applications/', applicationBody(lot));
  expect(late.status).toBe(409);
  expect(late.body.code).toBe('LOT_NOT_AVAILABLE');
});

test('when staff cancel the reservation, then the lot is available again, the application back in the queue and the rivals rejected because of it too', async () => {
  const lot = await s.createLot();
  const first = await apply(lot);
  const second = await apply(lot);
  await patchStatus(first, 'approved');
  await waitForCatalogStatus(lot, 'reserved');
  await waitForStatus(second, 'rejected');
  // the rivals are rejected first, then the approval becomes final
  await waitForStatus(first, 'approved');

  const cancelled = await patchStatus(first, 'pending', 'Familie hat abgesagt');
  expect(cancelled.status).toBe(200);
  await waitForCatalogStatus(lot, 'available');
  await waitForLot(s.url, lot, 'available');
  expect(await statusOf(first)).toBe('pending');
  // the competitor rejected because of the reservation is back in the queue by itself
  await waitForStatus(second, 'pending');

  expect((await patchStatus(first, 'rejected', 'Abgesagt')).status).toBe(200);
  expect((await patchStatus(second, 'approved')).status).toBe(202);
  await eventually(
    async () =>
      (await catalogLot(lot))?.status === 'reserved' &&
      s.recorder
        .of(Events.LotReserved)
        .some((e) => e.payload.application_id === second && e.payload.lot.id === lot),
    { what: 'lot reserved for the second application' },
  );
  await waitForStatus(second, 'approved');
});

test('when staff complete the approved application, then the catalog marks the lot taken', async () => {
  const lot = await s.createLot();
  const id = await apply(lot);
  await patchStatus(id, 'approved');
  await waitForCatalogStatus(lot, 'reserved');
  await waitForStatus(id, 'approved');
  expect((await patchStatus(id, 'completed', 'Abgeholt')).status).toBe(200);
  await waitForCatalogStatus(lot, 'taken');
  await waitForLot(s.url, lot, 'taken');
  expect((await s.http.post('/api/v1/applications/', applicationBody(lot))).status).toBe(409);
  const event = await s.recorder.waitFor(
    Events.LotStatusChanged,
    (e) => e.payload.lot.id === lot && e.payload.new_status === 'taken',
  );
  expect(event.payload).toMatchObject({ cause: 'completed', application_id: id });
});

test('when two applications of one lot are approved at the same moment, then exactly one becomes approved and the other is rejected', async () => {
  const lot = await s.createLot();
  const a = await apply(lot);
  const b = await apply(lot);
  const results = await Promise.all([patchStatus(a, 'approved'), patchStatus(b, 'approved')]);
  // usually the second request is refused at once; if both pass, the catalog reserves for one
  for (const r of results) {
    expect([202, 409]).toContain(r.status);
    if (r.status === 409) expect(r.body.code).toBe('LOT_ALREADY_RESERVED');
  }
  expect(results.some((r) => r.status === 202)).toBe(true);

  await waitForCatalogStatus(lot, 'reserved');
  const reserved = await s.recorder.waitFor(Events.LotReserved, (e) => e.payload.lot.id === lot);
  const winner = reserved.payload.application_id;
  const loser = winner === a ? b : a;
  await waitForStatus(winner, 'approved');
  await waitForStatus(loser, 'rejected');
  await s.recorder.waitFor(Events.ApplicationApproved, (e) => e.payload.application_id === winner);
  await s.recorder.waitFor(Events.ApplicationRejected, (e) => e.payload.application_id === loser);
  const approvedEvents = s.recorder
    .of(Events.ApplicationApproved)
    .filter((e) => e.payload.lot_id === lot);
  expect(approvedEvents.map((e) => e.payload.application_id)).toEqual([winner]);
});

test('when staff archive a lot in the catalog, then its open applications are rejected', async () => {
  const lot = await s.createLot();
  const id = await apply(lot);
  const { version } = await catalogLot(lot);
  const res = await s.http.patch(`/api/v1/lots/${lot}`, { status: 'archived', version }, staff());
  expect(res.status).toBe(200);
  await waitForStatus(id, 'rejected');
  const event = await s.recorder.waitFor(
    Events.ApplicationRejected,
    (e) => e.payload.application_id === id,
  );
  expect(event.payload.reason).toBe('lot_closed');
});

test('when staff delete a lot in the catalog, then its open applications are rejected and it is gone for families', async () => {
  const lot = await s.createLot();
  const id = await apply(lot);
  const res = await s.http.delete(`/api/v1/lots/${lot}`, staff());
  expect(res.status).toBe(200);
  await waitForStatus(id, 'rejected');
  const event = await s.recorder.waitFor(
    Events.ApplicationRejected,
    (e) => e.payload.application_id === id,
  );
  expect(event.payload.reason).toBe('lot_deleted');
  expect((await s.http.get(`/api/v1/lots/${lot}/applications-info`)).status).toBe(404);
});

test('when a new applications service starts with an empty read model, then it loads every lot from the catalog snapshot', async () => {
  const available = await s.createLot();
  const archived = await s.createLot('Archiviert', { status: 'archived' });
  const fresh = await startService(applicationsService, {
    env: { CATALOG_URL: s.catalog.url, LOT_SNAPSHOT_SYNC: 'never', LOT_SNAPSHOT_PAGE_SIZE: '2' },
  });
  try {
    fresh.service.lotSync.start('empty');
    await fresh.service.lotSync.done();
    const a = await fresh.http.get(`/api/v1/lots/${available}/applications-info`);
    expect(a.body.data).toMatchObject({ lot_status: 'available', can_apply: true });
    const b = await fresh.http.get(`/api/v1/lots/${archived}/can-apply`);
    expect(b.body.data).toMatchObject({ can_apply: false, reason_code: 'lot_not_available' });
  } finally {
    await fresh.stop();
  }
});
