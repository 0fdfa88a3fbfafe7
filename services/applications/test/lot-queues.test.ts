/**
 * The lots' summaries (the store's KeptSummaries, declared by the applications repository) the staff lists read queue places and lot.held_by from:
 * after every kind of write they equal what the lot's applications say, also when writes run at
 * the same time, when a rebuild races a write, and after a bulk load (rebuild).
 */
import { KeptSummaries, Store } from '@furniture/platform';
import {
  ApplicationsRepository,
  LOT_QUEUE_FIELDS,
  summarize,
  type LotMember,
} from '../src/data-access/applications-repository';
import { adminToken, applicationBody, eventually } from './harness';
import { startStack, type Stack } from './stack';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(async () => {
  await s?.stop();
});

const conn = () => s.applications.conn;
const MEMBER_FIELDS = Object.fromEntries([['_id', 0], ...LOT_QUEUE_FIELDS.map((f) => [f, 1])]);
const summaries = () =>
  conn().collection<{ _id: string; lot_id?: number; v?: number; ready?: boolean }>('lot_queues');
const members = (lotId: number) =>
  conn()
    .collection('applications')
    .find({ lot_id: lotId }, { projection: MEMBER_FIELDS })
    .toArray() as unknown as Promise<LotMember[]>;

/** The lot's stored summary, without its key and version. */
async function stored(lotId: number) {
  const doc = await summaries().findOne({ _id: String(lotId) });
  if (!doc) return null;
  const { _id, v: _v, lot_id: _lot, ...queue } = doc as Record<string, unknown>;
  return queue;
}

/**
 * The stored summary equals the one computed from the lot's applications now (after a change
 * made by an event, the summary follows the application's write by a few milliseconds).
 */
async function expectSummaryRight(lotId: number) {
  const right = async () =>
    JSON.stringify(await stored(lotId)) === JSON.stringify(summarize(await members(lotId)));
  await eventually(right, { what: `the summary of lot ${lotId}`, timeoutMs: 3000 }).catch(
    () => undefined,
  );
  expect(await stored(lotId)).toEqual(summarize(await members(lotId)));
}

async function apply(lotId: number, name = 'Olena Kovalenko'): Promise<number> {
  const res = await s.http.post(
    '/api/v1/applications/',
    applicationBody(lotId, { applicant_name: name }),
  );
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const patchStatus = (id: number, body: object) =>
  s.http.patch(`/api/v1/applications/${id}/status`, body, { token: adminToken() });

async function getApp(id: number) {
  const res = await s.http.get(`/api/v1/applications/${id}`, { token: adminToken() });
  expect(res.status).toBe(200);
  return res.body;
}

/** Queue place and holder of each listed application of the lot, as the staff list shows them. */
async function listed(lotId: number, status?: string) {
  const res = await s.http.get(
    `/api/v1/applications?lot_id=${lotId}${status ? `&status=${status}` : ''}&limit=50`,
    { token: adminToken() },
  );
  expect(res.status).toBe(200);
  return Object.fromEntries(
    (
      res.body.applications as {
        id: number;
        queue_position: number | null;
        lot: { held_by: unknown };
      }[]
    ).map((a) => [a.id, { place: a.queue_position, held_by: a.lot.held_by }]),
  );
}

/** The applications' repository as a new process declares it (its store's start-up, rebuild). */
const repository = () => new ApplicationsRepository(new Store(conn()));

describe('the lots’ summaries', () => {
  test('when families apply and staff approve, cancel, reconsider, reject and complete, then queue places and the holder follow every step', async () => {
    const lot = await s.createLot();
    const a = await apply(lot, 'Familie A');
    const b = await apply(lot, 'Familie B');
    const c = await apply(lot, 'Familie C');
    await expectSummaryRight(lot);
    expect(await listed(lot)).toEqual({
      [a]: { place: 1, held_by: null },
      [b]: { place: 2, held_by: null },
      [c]: { place: 3, held_by: null },
    });
    expect(await stored(lot)).toEqual({ open: [a, b, c], holder: null });

    // b's approval: the holder while it is under way, and once the catalog reserved the lot
    expect((await patchStatus(b, { status: 'approved' })).status).toBe(202);
    await eventually(async () => (await getApp(b)).status === 'approved', { what: 'b approved' });
    // the reservation rejected the rivals (their events come back through the broker)
    await eventually(async () => (await getApp(a)).status === 'rejected', { what: 'a rejected' });
    await eventually(async () => (await getApp(c)).status === 'rejected', { what: 'c rejected' });
    await expectSummaryRight(lot);
    expect(await stored(lot)).toMatchObject({
      open: [b],
      holder: { id: b, applicant_name: 'Familie B' },
    });

    // a reconsidered: pending behind the holder, which it names (approve and reject hidden)
    expect((await patchStatus(a, { status: 'pending' })).status).toBe(200);
    await expectSummaryRight(lot);
    expect(await listed(lot, 'pending')).toEqual({
      [a]: { place: 1, held_by: { id: b, applicant_name: 'Familie B' } },
    });

    // b's reservation cancelled: nobody holds the lot; c, rejected for b, comes back once the
    // catalog released the lot; all wait in the order they applied
    expect(
      (await patchStatus(b, { status: 'pending', note: 'Familie meldet sich nicht' })).status,
    ).toBe(200);
    await eventually(async () => (await getApp(c)).status === 'pending', { what: 'c back' });
    await expectSummaryRight(lot);
    expect(await listed(lot, 'pending')).toEqual({
      [a]: { place: 1, held_by: null },
      [b]: { place: 2, held_by: null },
      [c]: { place: 3, held_by: null },
    });

    // a rejected: b and c move up
    expect((await patchStatus(a, { status: 'rejected', note: 'Nicht erreichbar' })).status).toBe(
      200,
    );
    await expectSummaryRight(lot);
    expect(await listed(lot, 'pending')).toEqual({
      [b]: { place: 1, held_by: null },
      [c]: { place: 2, held_by: null },
    });

    // b approved again and the lot handed over: no open application, no holder
    expect((await patchStatus(b, { status: 'approved' })).status).toBe(202);
    await eventually(async () => (await getApp(b)).status === 'approved', {
      what: 'b approved again',
    });
    await eventually(async () => (await getApp(c)).status === 'rejected', {
      what: 'c rejected again',
    });
    expect((await patchStatus(b, { status: 'completed' })).status).toBe(200);
    await expectSummaryRight(lot);
    expect(await stored(lot)).toEqual({ open: [], holder: null });
  });

  test('when an approval fails, then the application no longer holds the lot', async () => {
    const lot = await s.createLot();
    const a = await apply(lot, 'Familie A');
    const repo = repository();
    await repo.requestApproval(a, { requested_by: null, note: null, pickup_by: '2026-12-31' }, []);
    expect(await stored(lot)).toMatchObject({ holder: { id: a, applicant_name: 'Familie A' } });
    await repo.failApproval(a, { reason: 'not_available', lot_status: 'reserved' }, 'x', []);
    await expectSummaryRight(lot);
    expect(await stored(lot)).toMatchObject({ open: [a], holder: null });
  });

  test('when many families apply to one lot at the same moment, then the summary lists every one in id order', async () => {
    const lot = await s.createLot();
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => apply(lot, `Familie ${i}`)));
    await expectSummaryRight(lot);
    expect((await stored(lot))?.open).toEqual([...ids].sort((x, y) => x - y));
    const places = await listed(lot);
    expect([...ids].sort((x, y) => x - y).map((id) => places[id]?.place)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  test('when a write changes a lot while the rebuild is under way, then the write’s summary stays', async () => {
    const lot = await s.createLot();
    const a = await apply(lot, 'Familie A');
    await apply(lot, 'Familie B');
    // a summary gone wrong (a process died between its write and the summary's)
    await summaries().updateOne({ _id: String(lot) }, { $set: { open: [] } });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let read!: () => void;
    const readDone = new Promise<void>((resolve) => (read = resolve));
    // the applications as the rebuild reads them, all at once: then a write comes in between
    const gated = {
      find: (query: object, options: object) => ({
        toArray: async () => {
          const docs = await conn().collection('applications').find(query, options).toArray();
          if (Object.keys(query).length === 0) {
            read();
            await gate;
          }
          return docs;
        },
      }),
    };
    const check = new KeptSummaries(
      conn(),
      { collection: gated as never },
      {
        name: 'lot_queues',
        groupBy: 'lot_id',
        fields: LOT_QUEUE_FIELDS,
        summarize,
      },
    ).rebuild();
    await readDone;
    expect((await patchStatus(a, { status: 'rejected', note: 'Abgesagt' })).status).toBe(200);
    release();
    await check;
    await expectSummaryRight(lot);
    expect((await stored(lot))?.open).toHaveLength(1);
  });

  test('when applications were bulk-loaded without summaries, then the lists answer from the applications until the rebuild, and from the rebuilt summaries after it', async () => {
    const lot = await s.createLot();
    const a = await apply(lot, 'Familie A');
    // as a bulk load does: applications written straight into the collection
    const template = await conn().collection('applications').findOne({ id: a });
    const { _id, _outbox, _outbox_pending, ...doc } = template!;
    const extra = a + 100_000;
    await conn()
      .collection('applications')
      .insertOne({
        ...doc,
        id: extra,
        block: Math.floor(extra / 100),
        part: Math.floor(extra / 25),
        applicant_phone: '+4917600000001',
        queue_ticket: extra,
        phone_slot: `a:${extra}`,
        status: 'approved',
        applicant_name: 'Familie Bulk',
      });
    await summaries().deleteOne({ _id: String(lot) });
    const repo = repository().stored;
    // the bench's way: the counts marked not ready, then the service restarts
    await conn()
      .collection<{ _id: string }>('application_counts')
      .updateOne({ _id: 'all' }, { $set: { ready: false } });
    expect(await repo.open()).toBe(true);
    expect(await summaries().findOne({ _id: 'state' })).toMatchObject({ ready: false });
    const holder = { id: extra, applicant_name: 'Familie Bulk' };
    expect(await listed(lot)).toEqual({
      [a]: { place: 1, held_by: holder },
      [extra]: { place: 2, held_by: holder },
    });
    await repo.rebuild();
    expect(await summaries().findOne({ _id: 'state' })).toMatchObject({ ready: true });
    await expectSummaryRight(lot);
    expect(await stored(lot)).toMatchObject({ open: [a, extra], holder });
    expect(await listed(lot)).toEqual({
      [a]: { place: 1, held_by: holder },
      [extra]: { place: 2, held_by: holder },
    });
    // a summary left behind (a process died between a write and its summary's): a page showing
    // the holder does not believe it
    await summaries().updateOne({ _id: String(lot) }, { $set: { holder: null } });
    expect(await listed(lot)).toEqual({
      [a]: { place: 1, held_by: holder },
      [extra]: { place: 2, held_by: holder },
    });
    // complete summaries are not rebuilt at start; marked incomplete (or missing, as after an
    // upgrade over stored applications), they are
    expect(await repo.open()).toBe(false);
    await summaries().deleteOne({ _id: 'state' });
    expect(await repo.open()).toBe(true);
    await repo.rebuild();
    expect(await summaries().findOne({ _id: 'state' })).toMatchObject({ ready: true });
    await expectSummaryRight(lot);
  });
});
