/**
 * The staff lists read block by block (blocks of 100 ids, counts kept with the writes): pages
 * that cross a block boundary, status filters and totals answer exactly what newest-first
 * paging over all stored records answers, also after the counts were rebuilt from records
 * stored without blocks (bulk-loaded, or written before the blocks existed).
 */
import { Store } from '@furniture/platform';
import { ApplicationsRepository } from '../src/data-access/applications-repository';
import { WishesRepository } from '../src/data-access/wishes-repository';
import {
  adminToken,
  applicationBody,
  newPhone,
  publishLot,
  startApplications,
  wishBody,
  type ApplicationsHarness,
} from './harness';

let h: ApplicationsHarness;
beforeAll(async () => {
  h = await startApplications();
});
afterAll(async () => {
  await h?.stop();
});

interface Stored {
  _outbox?: unknown;
  _outbox_pending?: boolean;
  id: number;
  status: string;
}

/** A stored record as a bulk load copies it: without _id, block, part and outbox (no events). */
function bulkCopy<T extends Stored & { _id?: unknown; block?: number; part?: number }>(doc: T) {
  const { _id: _ignored, block: _block, part: _part, _outbox, _outbox_pending, ...rest } = doc;
  return rest;
}

const wishes = () => h.conn.collection<Stored & { block?: number; part?: number }>('wishes');

/** Newest first, as stored (the truth the pages are compared with). */
async function storedWishes(status?: string): Promise<number[]> {
  const docs = await wishes()
    .find(status ? { status } : {}, { projection: { id: 1 } })
    .sort({ id: -1 })
    .toArray();
  return docs.map((d) => d.id);
}

async function page(query: string): Promise<{ ids: number[]; total: number }> {
  const res = await h.http.get(`/api/v1/wishes?${query}`, { token: adminToken() });
  expect(res.status).toBe(200);
  return {
    ids: (res.body.wishes as { id: number }[]).map((w) => w.id),
    total: res.body.total as number,
  };
}

/** Every window of `limit` over the list (and a few odd ones) equals the stored order. */
async function expectPagesMatch(status: string | undefined, limit: number): Promise<void> {
  const expected = await storedWishes(status);
  const filter = status ? `status=${status}&` : '';
  for (let skip = 0; skip <= expected.length + limit; skip += limit) {
    const got = await page(`${filter}limit=${limit}&skip=${skip}`);
    expect({ skip, ...got }).toEqual({
      skip,
      ids: expected.slice(skip, skip + limit),
      total: expected.length,
    });
  }
}

async function createWish(): Promise<number> {
  const res = await h.http.post(
    '/api/v1/wishes/',
    wishBody({ applicant_whatsapp: newPhone(), furniture_category: 3 }),
  );
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe('the staff wish list, block by block', () => {
  test('when staff page through more than one block of wishes, all or by status, then every page and total equal newest-first paging over the stored wishes', async () => {
    // ids from 191 on: the wishes span the blocks 1 and 2 (ids 100–199, 200–299); block 2 holds
    // more of them than a part (25 ids), so its pages are read part by part
    await h.conn
      .collection<{ _id: string; seq: number }>('counters')
      .updateOne({ _id: 'wishes' }, { $max: { seq: 190 } }, { upsert: true });
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push(await createWish());
    // the wishes span at least two blocks of 100 ids
    expect(new Set(ids.map((id) => Math.floor(id / 100))).size).toBeGreaterThan(1);
    // some change status (the counts follow), one of them back again
    for (const id of ids.filter((_, i) => i % 3 === 0)) {
      const res = await h.http.patch(
        `/api/v1/wishes/${id}/status?status=cancelled`,
        {},
        {
          token: adminToken(),
        },
      );
      expect(res.status).toBe(200);
    }
    for (const id of ids.filter((_, i) => i % 3 !== 0 && i % 7 === 1)) {
      const res = await h.http.patch(
        `/api/v1/wishes/${id}/status?status=fulfilled`,
        {},
        {
          token: adminToken(),
        },
      );
      expect(res.status).toBe(200);
    }
    const back = await h.http.patch(
      `/api/v1/wishes/${ids[0]}/status?status=active`,
      {},
      {
        token: adminToken(),
      },
    );
    expect(back.status).toBe(200);
    // a status change refused does not count
    const refused = await h.http.patch(
      `/api/v1/wishes/${ids[1]}/status?status=active`,
      {},
      {
        token: adminToken(),
      },
    );
    expect(refused.status).toBe(409);

    for (const limit of [4, 7, 20]) await expectPagesMatch(undefined, limit);
    for (const status of ['active', 'cancelled', 'fulfilled']) await expectPagesMatch(status, 3);
    expect((await page('limit=5')).total).toBe(60);
    expect((await page('status=active&limit=5')).total).toBe((await storedWishes('active')).length);
    // every stored wish knows its block and part
    const stored = await wishes().find({}).toArray();
    expect(stored.every((w) => w.block === Math.floor(w.id / 100))).toBe(true);
    expect(stored.every((w) => w.part === Math.floor(w.id / 25))).toBe(true);
  });

  test('when wishes were stored without blocks or counts (bulk, before the blocks), then the rebuild gives them their blocks and the pages count them', async () => {
    const template = await wishes().findOne({ id: await createWish() });
    const before = await storedWishes();
    const first = Math.max(...before) + 1000;
    const bulk = Array.from({ length: 150 }, (_, i) => {
      const rest = bulkCopy(template!);
      return { ...rest, id: first + i, status: i % 2 ? 'active' : 'fulfilled' };
    });
    await wishes().insertMany(bulk);
    await h.conn
      .collection('wish_counts')
      .updateOne({ _id: 'all' as never }, { $set: { ready: false } });
    // until the rebuild, the list counts per request
    await expectPagesMatch('active', 50);
    await new WishesRepository(new Store(h.conn)).stored.rebuild();

    expect(await wishes().countDocuments({ block: { $exists: false } })).toBe(0);
    expect(await wishes().countDocuments({ part: { $exists: false } })).toBe(0);
    await expectPagesMatch(undefined, 40);
    await expectPagesMatch('active', 33);
    expect((await page('limit=1')).total).toBe(before.length + 150);
  });
});

describe('a rolling upgrade', () => {
  test('when a replica of the version before parts stores a wish after the counts were rebuilt, then the minute job gives it its part and the pages show it', async () => {
    // a fresh block with more wishes than a part: its pages are read part by part
    const start = (Math.floor(Math.max(0, ...(await storedWishes())) / 100) + 1) * 100;
    await h.conn
      .collection<{ _id: string; seq: number }>('counters')
      .updateOne({ _id: 'wishes' }, { $max: { seq: start + 9 } }, { upsert: true });
    for (let i = 0; i < 30; i++) await createWish();
    // the older replica: an id from the counter, the block, no part, its counts added
    const template = await wishes().findOne({ id: start + 10 });
    const counter = await h.conn
      .collection<{ _id: string; seq: number }>('counters')
      .findOneAndUpdate({ _id: 'wishes' }, { $inc: { seq: 1 } }, { returnDocument: 'after' });
    const id = counter!.seq;
    await wishes().insertOne({
      ...bulkCopy(template!),
      id,
      block: Math.floor(id / 100),
      status: 'active',
    } as never);
    await h.conn.collection('wish_counts').updateOne(
      { _id: 'all' as never },
      {
        $inc: { 'n.status:active': 1, [`n.block:active:${Math.floor(id / 100)}`]: 1 },
      },
    );
    expect((await page('limit=40')).ids).not.toContain(id);

    const repo = new WishesRepository(new Store(h.conn)).stored;
    expect(await repo.placeNewest()).toBe(1);
    expect((await wishes().findOne({ id }))?.part).toBe(Math.floor(id / 25));
    expect((await page('limit=40')).ids[0]).toBe(id);
    await expectPagesMatch(undefined, 20);
    await expectPagesMatch('active', 9);
    expect(await repo.placeNewest()).toBe(0);
  });
});

describe('the staff application list, block by block', () => {
  const applications = () =>
    h.conn.collection<Stored & { block?: number; part?: number }>('applications');

  async function expectApplicationPages(status: string | undefined, limit: number) {
    const expected = (
      await applications()
        .find(status ? { status } : {}, { projection: { id: 1 } })
        .sort({ id: -1 })
        .toArray()
    ).map((d) => d.id);
    const filter = status ? `status=${status}&` : '';
    for (let skip = 0; skip <= expected.length + limit; skip += limit) {
      const res = await h.http.get(`/api/v1/applications?${filter}limit=${limit}&skip=${skip}`, {
        token: adminToken(),
      });
      expect(res.status).toBe(200);
      expect({
        skip,
        ids: (res.body.applications as { id: number }[]).map((a) => a.id),
        total: res.body.total,
      }).toEqual({ skip, ids: expected.slice(skip, skip + limit), total: expected.length });
    }
  }

  test('when applications were stored without blocks or counts (bulk, before the blocks), then the rebuild gives them their blocks and the pages count them', async () => {
    const lot = await publishLot(h);
    const created = await h.http.post('/api/v1/applications', applicationBody(lot.id));
    expect(created.status).toBe(201);
    const template = await applications().findOne({ id: created.body.id as number });
    const first = (created.body.id as number) + 1000;
    const bulk = Array.from({ length: 150 }, (_, i) => {
      const rest = bulkCopy(template!);
      return {
        ...rest,
        id: first + i,
        applicant_phone: `bulk:${i}`,
        // the unique keys of issue 42: each copy its own
        queue_ticket: first + i,
        phone_slot: `a:${first + i}`,
        status: i % 3 ? 'rejected' : 'pending',
      };
    });
    await applications().insertMany(bulk);
    await h.conn
      .collection('application_counts')
      .updateOne({ _id: 'all' as never }, { $set: { ready: false } });
    // until the rebuild, the list counts per request
    await expectApplicationPages('pending', 30);
    await new ApplicationsRepository(new Store(h.conn)).stored.rebuild();

    expect(await applications().countDocuments({ block: { $exists: false } })).toBe(0);
    expect(await applications().countDocuments({ part: { $exists: false } })).toBe(0);
    await expectApplicationPages(undefined, 40);
    await expectApplicationPages('pending', 17);
    await expectApplicationPages('rejected', 45);
  });

  test('when the counts were built by a version whose applications had no parts, then the next start keeps using them for whole blocks, gives every application its part and then reads parts', async () => {
    const repo = new ApplicationsRepository(new Store(h.conn)).stored;
    expect(await repo.open()).toBe(false);
    await applications().updateMany({}, { $unset: { part: '' } });
    await h.conn
      .collection('application_counts')
      .updateOne({ _id: 'all' as never }, { $unset: { layout: '' } });
    expect(await repo.open()).toBe(true);
    // the older counts stay in use, without part reads: the lists stay fast and complete
    const counts = () => h.conn.collection('application_counts').findOne({ _id: 'all' as never });
    expect(await counts()).toMatchObject({ ready: true });
    expect((await counts())?.layout).toBeUndefined();
    await expectApplicationPages('rejected', 45);
    await expectApplicationPages(undefined, 40);
    await repo.rebuild();
    expect(await counts()).toMatchObject({ ready: true, layout: 2 });
    const stored = await applications().find({}).toArray();
    expect(stored.every((a) => a.part === Math.floor(a.id / 25))).toBe(true);
    expect(await repo.open()).toBe(false);
    await expectApplicationPages(undefined, 30);
    await expectApplicationPages('pending', 11);
  });
});
