/**
 * The store's contract (services/libs/platform/src/store, docs/service-guide.md "The store"): what
 * a repository declares and asks, checked against what the server says of the same documents.
 */
import path from 'node:path';
import type { Document } from 'mongodb';
import {
  connectMongo,
  docKey,
  Store,
  tombstoneUpdate,
  type Connection,
  type StoredList,
} from '../src';
import { heldLocks } from '../src/store/locks';
import { blockOf, partOf } from '../src/store/counts';
import { dropDatabase, raceProcesses, silentLogger, testUrls, uniqueName } from '../src/testing';

const { mongoUrl } = testUrls();
let conn: Connection;
let dbName: string;

beforeAll(async () => {
  dbName = uniqueName('store');
  conn = await connectMongo({ url: mongoUrl, dbName, logger: silentLogger, timeoutMs: 20000 });
});
afterAll(async () => {
  await dropDatabase(mongoUrl, dbName);
  await conn.close();
});

interface Item extends Document {
  id: number;
  kind: string;
  status: string;
  deleted_at?: Date | null;
  rev: number;
}

const KINDS = ['chair', 'table', 'bed'];
const STATUSES = ['open', 'closed'];

/** A fresh list of `n` items (ids 1..n), written through the store, opened as at a start. */
async function itemList(n: number, name = uniqueName('items')) {
  const store = new Store(conn);
  const list = store.list<Item>({
    name,
    counts: `${name}_counts`,
    countedBy: ['kind', 'status'],
    tallied: { status: 'status' },
    tombstones: true,
  });
  await store.open(silentLogger);
  for (let i = 0; i < n; i++) {
    const id = await list.nextId();
    await list.insert({ id, kind: KINDS[id % 3]!, status: STATUSES[id % 2]!, rev: 1 });
  }
  return { store, list, raw: conn.collection<Item>(name) };
}

/** What the server says a newest-first page of a filter is, tombstones left out. */
async function expected(raw: ReturnType<typeof conn.collection<Item>>, where: Document) {
  const docs = await raw
    .find({ ...where, deleted_at: null })
    .sort({ id: -1 })
    .toArray();
  return docs.map((d) => d.id);
}

async function expectPagesAgree(list: StoredList<Item>, raw: Parameters<typeof expected>[0]) {
  for (const where of [
    {},
    { status: 'open' },
    { kind: 'bed' },
    { kind: 'chair', status: 'closed' },
    { kind: { $in: ['chair', 'bed'] } },
    { status: { $in: [] } },
  ]) {
    const all = await expected(raw, where);
    for (const [skip, limit] of [
      [0, 7],
      [5, 30],
      [90, 20],
      [all.length - 3, 10],
    ] as const) {
      const { docs, total } = await list.pageWithTotal(where, { skip: Math.max(0, skip), limit });
      expect({ where, skip, ids: docs.map((d) => d.id), total }).toEqual({
        where,
        skip,
        ids: all.slice(Math.max(0, skip), Math.max(0, skip) + limit),
        total: all.length,
      });
    }
    // a cursor: the page after an id
    const cursor = all[11];
    if (cursor !== undefined) {
      const page = await list.page(where, { limit: 15, beforeId: cursor });
      expect(page.map((d) => d.id)).toEqual(all.filter((id) => id < cursor).slice(0, 15));
    }
    expect(await list.count(where)).toBe(all.length);
  }
}

describe('a list', () => {
  test('when documents are inserted, changed, moved between counted values and deleted, then every page, cursor, count and tally of counted fields agrees with the server', async () => {
    const { list, raw } = await itemList(260);
    await expectPagesAgree(list, raw);
    // moves between counted values, guarded
    for (let id = 3; id <= 260; id += 7)
      expect(
        await list.update({ id, status: STATUSES[id % 2] }, { $set: { status: 'held' } }),
      ).toBe(true);
    // a guard that no longer holds changes nothing
    expect(await list.update({ id: 3, status: 'open' }, { $set: { status: 'closed' } })).toBe(
      false,
    );
    // tombstones leave the counts
    for (let id = 5; id <= 260; id += 11)
      await list.update({ id }, { $set: { deleted_at: new Date() } });
    await expectPagesAgree(list, raw);
    const { total, by } = await list.tallies(['status']);
    const live = await raw.find({ deleted_at: null }).toArray();
    expect(total).toBe(live.length);
    for (const status of ['open', 'closed', 'held'])
      expect(by.get('status')!.get(status) ?? 0).toBe(
        live.filter((d) => d.status === status).length,
      );
    const kinds = (await list.tallies(['kind'], { status: 'held' })).by.get('kind')!;
    for (const kind of KINDS)
      expect(kinds.get(kind) ?? 0).toBe(
        live.filter((d) => d.kind === kind && d.status === 'held').length,
      );
    // several filters from one read of the counts: each as if asked alone
    const wheres = [
      { status: 'held' },
      { status: { $in: ['open', 'closed'] } },
      { id: { $gt: 99 } },
    ];
    const each = await list.talliesEach(['kind'], wheres);
    expect(each).toHaveLength(3);
    for (const [i, where] of wheres.entries())
      expect(each[i]).toEqual(await list.tallies(['kind'], where));
    expect(each[1]!.total).toBe(live.filter((d) => d.status !== 'held').length);
    expect(heldLocks()).toBe(0);
  });

  test('when a filter names a field the counts do not know, then the server answers it, in the same order', async () => {
    const { list, raw } = await itemList(60);
    const where = { id: { $gt: 20 }, status: 'open' };
    const all = await expected(raw, where);
    expect((await list.pageWithTotal(where, { skip: 3, limit: 10 })).docs.map((d) => d.id)).toEqual(
      all.slice(3, 13),
    );
    expect(await list.count(where)).toBe(all.length);
  });

  test('when documents were bulk-loaded without their buckets or counts, then the next start rebuilds the counts, the lists answer meanwhile and agree after', async () => {
    const name = uniqueName('bulk');
    const raw = conn.collection<Item>(name);
    await raw.insertMany(
      Array.from({ length: 180 }, (_, i) => ({
        id: i + 1,
        kind: KINDS[i % 3]!,
        status: STATUSES[i % 2]!,
        rev: 1,
      })),
    );
    const store = new Store(conn);
    const list = store.list<Item>({
      name,
      counts: `${name}_counts`,
      countedBy: ['kind', 'status'],
      tombstones: true,
    });
    const { rebuilt } = await store.open(silentLogger);
    // while the rebuild runs (or before it), every page is the server's
    await expectPagesAgree(list, raw);
    await rebuilt;
    expect(await raw.countDocuments({ part: { $exists: false } })).toBe(0);
    expect(await list.open()).toBe(false);
    await expectPagesAgree(list, raw);
  });

  test('when two replicas start over counts that must be rebuilt, then one rebuilds them, the other waits, and both lists agree after', async () => {
    const name = uniqueName('replicas');
    const raw = conn.collection<Item>(name);
    await raw.insertMany(
      Array.from({ length: 120 }, (_, i) => ({
        id: i + 1,
        kind: KINDS[i % 3]!,
        status: STATUSES[i % 2]!,
        rev: 1,
      })),
    );
    const replica = () => {
      const store = new Store(conn);
      const list = store.list<Item>({
        name,
        counts: `${name}_counts`,
        countedBy: ['kind', 'status'],
        tombstones: true,
      });
      const said: string[] = [];
      const logger = {
        info: (a: unknown, b?: string) => said.push(typeof a === 'string' ? a : (b ?? '')),
        error: (a: unknown) => said.push(`error ${String(a)}`),
      } as unknown as Parameters<Store['open']>[0];
      return { store, list, said, logger };
    };
    // a rebuild left unfinished (its replica was replaced mid-way): every new replica finds it so
    await conn
      .collection<{ _id: string }>(`${name}_counts`)
      .insertOne({ _id: 'all', ready: false, layout: 1, n: {} } as never);
    const [a, b] = [replica(), replica()];
    // a rolling upgrade: both start before either has finished
    const [openA, openB] = await Promise.all([
      a.store.open(a.logger, { leaseMs: 300 }),
      b.store.open(b.logger, { leaseMs: 300 }),
    ]);
    await Promise.all([openA.rebuilt, openB.rebuilt]);
    const rebuilders = [a, b].filter((r) => r.said.some((m) => m.startsWith('counts of')));
    expect(rebuilders).toHaveLength(1);
    const waiter = [a, b].find((r) => !rebuilders.includes(r))!;
    expect(waiter.said).toContain('another replica rebuilds the counts');
    expect(await a.list.isRebuilt()).toBe(true);
    await expectPagesAgree(a.list, raw);
    await expectPagesAgree(b.list, raw);
  });

  test('when two writers count into one list, then each writes a shard of its own, the pages agree with the server, and a shard left idle is folded into the counts once', async () => {
    const name = uniqueName('items');
    const { list, raw } = await itemList(40, name);
    // a second process's store on the same list (its own shard of the counts)
    const other = new Store(conn);
    const second = other.list<Item>({
      name,
      counts: `${name}_counts`,
      countedBy: ['kind', 'status'],
      tallied: { status: 'status' },
      tombstones: true,
    });
    await other.open(silentLogger);
    for (let i = 0; i < 30; i++) {
      const id = await second.nextId();
      await second.insert({ id, kind: KINDS[id % 3]!, status: STATUSES[id % 2]!, rev: 1 });
    }
    const counts = conn.collection<Document>(`${name}_counts`);
    const shards = await counts.find({ of: 'all' }).toArray();
    expect(shards).toHaveLength(2);
    await expectPagesAgree(list, raw);
    await expectPagesAgree(second, raw);
    // a shard nobody wrote for the fold's time: one replica folds it, the pages stay the same
    await counts.updateOne(
      { _id: shards[0]!._id },
      { $set: { at: new Date(Date.now() - 16 * 60_000) } },
    );
    const fold = other.jobs().find((j) => j.name === `counts of ${name} folded`)!;
    expect(fold.oneReplica).toBe(true);
    expect(await fold.run()).toBe(1);
    expect(await fold.run()).toBe(0);
    expect(await counts.countDocuments({ of: 'all' })).toBe(1);
    await expectPagesAgree(list, raw);
    await expectPagesAgree(second, raw);
    // a rebuild counts everything and drops the shards
    await list.rebuild();
    expect(await counts.countDocuments({ of: 'all' })).toBe(0);
    await expectPagesAgree(second, raw);
  });

  test('when a process died between its writes and their counts, then the recount repairs the counts that held still and leaves one whose documents moved for its next pass', async () => {
    const name = uniqueName('items');
    const { store, list, raw } = await itemList(30, name);
    // the status's own tally (kept for the whole list) as the counts say and as the server does
    const tallied = async () =>
      Object.fromEntries((await list.tallies(['status'])).by.get('status')!);
    // what a process killed after its document writes and before their counts leaves behind
    const lostWrite = async (id: number) =>
      raw.insertOne({
        id,
        kind: 'bed',
        status: 'open',
        rev: 1,
        block: blockOf(id),
        part: partOf(id),
      });
    for (const id of [31, 32, 33]) await lostWrite(id);
    await raw.updateOne({ id: 4 }, { $set: { status: 'closed' } });
    const server = (where: Document) => raw.countDocuments({ ...where, deleted_at: null });
    expect(await list.count({ kind: 'bed' })).toBe((await server({ kind: 'bed' })) - 3);
    expect(await list.count({ kind: 'table', status: 'closed' })).toBe(
      (await server({ kind: 'table', status: 'closed' })) - 1,
    );
    const recount = store
      .jobs({ recountSettleMs: 1500 })
      .find((j) => j.name === `counts of ${name} recounted`)!;
    expect(recount.oneReplica).toBe(true);
    // while its two passes lie apart, another bed is stored (its count lost too): the beds'
    // count moved between the passes and is left for the next recount; the tables' is repaired
    await Promise.all([
      recount.run(),
      new Promise((resolve) => setTimeout(resolve, 750)).then(() => lostWrite(34)),
    ]);
    expect(await list.count({ kind: 'table', status: 'closed' })).toBe(
      await server({ kind: 'table', status: 'closed' }),
    );
    expect(await list.count({ kind: 'bed' })).toBe((await server({ kind: 'bed' })) - 4);
    // the next one, with nothing moving, repairs the rest: pages, counts and tallies agree
    await recount.run();
    await expectPagesAgree(list, raw);
    expect(await tallied()).toEqual({
      open: await server({ status: 'open' }),
      closed: await server({ status: 'closed' }),
    });
    // nothing drifted: a recount changes nothing
    const before = await conn.collection(`${name}_counts`).find({}).toArray();
    await recount.run();
    expect(await conn.collection(`${name}_counts`).find({}).toArray()).toEqual(before);
    // a recount whose lease was lost before its repair writes nothing
    await lostWrite(35);
    await store
      .jobs({ recountSettleMs: 50 })
      .find((j) => j.name === `counts of ${name} recounted`)!
      .run({ name: 'lost', fence: 1, lost: new AbortController().signal, held: () => false });
    expect(await list.count({ kind: 'bed' })).toBe((await server({ kind: 'bed' })) - 1);
  });

  test('when an older replica stored documents without their part, then the minute job gives the newest blocks theirs and the pages show them', async () => {
    const name = uniqueName('parts');
    const store = new Store(conn);
    // named by a string _id, as the catalog's lots are
    const list = store.list<Item>({
      name,
      key: '_id',
      counts: `${name}_counts`,
      countedBy: ['status'],
    });
    await store.open(silentLogger);
    for (let i = 0; i < 60; i++) {
      const id = await list.nextId();
      await list.insert({ _id: String(id), id, kind: 'bed', status: 'open', rev: 1 });
    }
    const raw = conn.collection<Item>(name);
    await raw.updateMany({ id: { $gte: 40 } }, { $unset: { part: '' } });
    expect(await list.placeNewest()).toBe(21);
    expect(await raw.countDocuments({ part: { $exists: false } })).toBe(0);
    expect((await list.page({ status: 'open' }, { limit: 30 })).map((d) => d.id)).toEqual(
      Array.from({ length: 30 }, (_, i) => 60 - i),
    );
    expect(await list.placeNewest()).toBe(0);
  });

  test('when a list is kept by day, then the whole log pages day by day, newest first, and the days carry their counts', async () => {
    const name = uniqueName('log');
    const store = new Store(conn);
    const log = store.list<Document>({
      name,
      key: '_id',
      counts: `${name}_counts`,
      tallied: { kind: 'kind' },
      day: {
        from: 'at',
        of: (at) => at.toISOString().slice(0, 10),
        order: { at: -1, id: -1 },
      },
    });
    await store.open(silentLogger);
    const start = Date.UTC(2026, 0, 30, 20);
    for (let i = 1; i <= 90; i++)
      await log.insert({
        _id: `e${i}`,
        id: i,
        kind: KINDS[i % 3],
        // out of id order within a day, across a month's end
        at: new Date(start + ((i * 37) % 90) * 3600_000),
      });
    const all = await conn.collection(name).find({}).sort({ at: -1, id: -1 }).toArray();
    for (const [skip, limit] of [
      [0, 10],
      [17, 25],
      [80, 20],
    ] as const)
      expect((await log.page({}, { skip, limit })).map((d) => d._id)).toEqual(
        all.slice(skip, skip + limit).map((d) => d._id),
      );
    const days = (await log.buckets())!;
    expect(days.map(([day]) => day)).toEqual([...new Set(all.map((d) => d.day as string))]);
    expect(days.reduce((n, [, size]) => n + size, 0)).toBe(90);
    expect((await log.tallies(['kind'])).by.get('kind')!.get('bed')).toBe(30);
  });
});

describe('a collection', () => {
  test('when a declared collection is read, then tombstones and the store’s own fields are left out unless asked for, and sort, skip, limit and projection hold', async () => {
    const name = uniqueName('reads');
    const store = new Store(conn);
    const stored = store.collection<Item & { _id: string }>({
      name,
      key: '_id',
      tombstones: true,
      outbox: true,
    });
    await store.open(silentLogger);
    for (let id = 1; id <= 6; id++)
      await stored.insert({
        _id: docKey(id),
        id,
        kind: KINDS[id % 3]!,
        status: 'open',
        rev: 1,
        deleted_at: id === 4 ? new Date() : null,
      });
    // an event waiting in a document's outbox (the store's own field)
    await conn
      .collection(name)
      .updateOne({ _id: '2' as never }, { $set: { _outbox: [{ eventId: 'e' }] } });
    expect(await stored.get(4)).toBeNull();
    expect((await stored.get(4, { withDeleted: true }))?.id).toBe(4);
    expect(await stored.get(2)).toEqual(
      expect.not.objectContaining({ _outbox: expect.anything() }),
    );
    expect((await stored.find({}, { sort: { id: -1 } })).map((d) => d.id)).toEqual([6, 5, 3, 2, 1]);
    expect(
      (await stored.find({}, { sort: { id: 1 }, skip: 1, limit: 2 })).map((d) => d.id),
    ).toEqual([2, 3]);
    expect(await stored.find({ id: 2 }, { projection: { id: 1, _id: 0 } })).toEqual([{ id: 2 }]);
    expect((await stored.findOne({ kind: 'chair' }, { sort: { id: -1 } }))?.id).toBe(6);
    expect(await stored.countStored()).toBe(5);
    expect(await stored.countStored({}, { withDeleted: true })).toBe(6);
    expect(await stored.exists({ id: 4 })).toBe(false);
    expect(await stored.exists({ id: 4 }, { withDeleted: true })).toBe(true);
    // a filter that names deleted_at itself is taken as it is (the erasure's reads)
    expect((await stored.find({ deleted_at: { $ne: null } })).map((d) => d.id)).toEqual([4]);
  });

  test('when a record is changed by compare-and-set while another write changes it, then the change is decided again on the newer record', async () => {
    const store = new Store(conn);
    const name = uniqueName('cas');
    const stored = store.collection<Item>({ name });
    await stored.insert({ id: 1, kind: 'bed', status: 'open', rev: 1 });
    const read = () => conn.collection<Item>(name).findOne({ id: 1 });
    let decisions = 0;
    const result = await stored.mutate(1, read, async (current) => {
      decisions++;
      // another process's write between this read and the write
      if (decisions === 1)
        await conn.collection(name).updateOne({ id: 1 }, { $set: { kind: 'sofa', rev: 2 } });
      return { set: { status: `${current.kind}-closed` }, events: () => [] };
    });
    expect(decisions).toBe(2);
    expect(result).toMatchObject({ changed: true, after: { status: 'sofa-closed', rev: 3 } });
    expect(await read()).toMatchObject({ kind: 'sofa', status: 'sofa-closed', rev: 3 });
  });

  test('when many first increments of a counter race, then none is lost', async () => {
    const stored = new Store(conn).collection<{ _id: string; n: number }>({
      name: uniqueName('counters'),
      key: '_id',
    });
    await Promise.all(
      Array.from({ length: 25 }, () => stored.upsert({ _id: 'c' }, { $inc: { n: 1 } })),
    );
    expect(await stored.collection.findOne({ _id: 'c' })).toMatchObject({ n: 25 });
  });

  test('when documents expire, then the store deletes them and keeps the others', async () => {
    const store = new Store(conn);
    const name = uniqueName('expiring');
    const stored = store.collection<{ _id: string; at: Date }>({
      name,
      key: '_id',
      expiry: { field: 'at', afterMs: 3600_000 },
    });
    await store.open(silentLogger);
    const now = Date.now();
    await stored.insert({ _id: 'old', at: new Date(now - 2 * 3600_000) });
    await stored.insert({ _id: 'young', at: new Date(now - 60_000) });
    expect(store.jobs().map((j) => j.name)).toContain(`expired ${name}`);
    expect(await stored.purgeExpired()).toBe(1);
    expect((await stored.collection.find({}).toArray()).map((d) => d._id)).toEqual(['young']);
  });

  test('when a budget of points is spent, then the next point waits for its window and a forgotten key starts again', async () => {
    const store = new Store(conn);
    const limiter = store.limiter({ table: uniqueName('limits'), points: 3, windowSeconds: 60 });
    await store.open(silentLogger);
    const waits = await Promise.all(Array.from({ length: 5 }, () => limiter.take('k')));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
    expect(waits.filter((w) => w > 0 && w <= 60)).toHaveLength(2);
    await limiter.forget('k');
    expect(await limiter.take('k')).toBe(0);
  });

  test('when twenty takes of one key arrive at once, then they are counted together and exactly the budget goes', async () => {
    const table = uniqueName('limits');
    const store = new Store(conn);
    const limiter = store.limiter({ table, points: 7, windowSeconds: 60 });
    await store.open(silentLogger);
    const waits = await Promise.all(Array.from({ length: 20 }, () => limiter.take('k')));
    expect(waits.filter((w) => w === 0)).toHaveLength(7);
    // the first seven in the order they came
    expect(waits.slice(0, 7)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const [row] = await conn.collection(table).find({}).toArray();
    expect(row!.points).toBe(20);
  });

  test('when a limiter lets takes ahead, then a key under half its budget is answered before it is counted, and near the budget each take is counted exactly', async () => {
    const own = await connectMongo({ url: mongoUrl, dbName, logger: silentLogger });
    try {
      const table = uniqueName('limits');
      const store = new Store(own);
      const limiter = store.limiter({ table, points: 10, windowSeconds: 60, ahead: true });
      await store.open(silentLogger);
      // one at a time: ten go, the eleventh and twelfth wait for the window
      const waits: number[] = [];
      for (let i = 0; i < 12; i++) waits.push(await limiter.take('visitor'));
      expect(waits.slice(0, 10)).toEqual(Array(10).fill(0));
      expect(waits.slice(10).every((w) => w > 0 && w <= 60)).toBe(true);
      // a fresh key: the first take waits for its count; the next goes ahead, so it is answered
      // even though the database is gone; once the count fails, the next take fails too (the
      // gateway then counts in its memory)
      expect(await limiter.take('other')).toBe(0);
      await own.close(true);
      expect(await limiter.take('other')).toBe(0);
      // (it is counted a moment later: AHEAD_COUNT_MS)
      await new Promise((r) => setTimeout(r, 600));
      await expect(limiter.take('other')).rejects.toThrow();
    } finally {
      await own.close(true).catch(() => undefined);
    }
  });

  test('when two replicas ask for a job’s lease at once, then one holds it; its holder renews it, and the other gets it only once it ran out and the grace passed', async () => {
    const job = uniqueName('job');
    const [a, b] = [new Store(conn).leases(), new Store(conn).leases()];
    const t0 = Date.now();
    const at = (seconds: number) => new Date(t0 + seconds * 1000);
    const first = await Promise.all([a.take(job, 60_000, at(0)), b.take(job, 60_000, at(0))]);
    expect(first.filter(Boolean)).toHaveLength(1);
    const [holder, other] = first[0] ? [a, b] : [b, a];
    expect(await other.take(job, 60_000, at(30))).toBe(false);
    expect(await holder.take(job, 60_000, at(30))).toBe(true);
    // renewed at 30 s: held until 90 s, taken over 2 s (the grace) after that
    expect(await other.take(job, 60_000, at(80))).toBe(false);
    expect(await other.take(job, 60_000, at(91))).toBe(false);
    expect(await other.take(job, 60_000, at(92))).toBe(true);
    expect(await holder.take(job, 60_000, at(93))).toBe(false);
  });

  test('when a lease changes hands, then its term rises; a holder whose renewal meets a newer term is told it lost the lease while its work runs, and gives nothing up', async () => {
    const job = uniqueName('job');
    const leases = conn.collection<{ _id: string; name: string; term: number; holder: string }>(
      'job_leases',
    );
    const [a, b] = [new Store(conn).leases(), new Store(conn).leases()];
    const t0 = Date.now();
    const at = (seconds: number) => new Date(t0 + seconds * 1000);
    expect(await a.hold(job, 60_000, at(0))).toBe(1);
    expect(await a.hold(job, 60_000, at(30))).toBe(1);
    expect(await b.hold(job, 60_000, at(92))).toBe(2);
    // a term's document is written by its holder only: the old one stays as its holder left it
    expect(await leases.findOne({ _id: `${job}#1` })).toMatchObject({ holder: a.holder });

    const held = uniqueName('job');
    let fence = 0;
    let heldAfter = true;
    const ran = await a.whileHeld(held, 300, async (lease) => {
      fence = lease.fence;
      expect(lease.held()).toBe(true);
      // another process took the next term (this one paused longer than the lease, say)
      await leases.insertOne({
        _id: `${held}#2`,
        name: held,
        term: 2,
        holder: 'another process',
        until: at(600),
      } as never);
      await new Promise((resolve) => lease.lost.addEventListener('abort', resolve));
      heldAfter = lease.held();
    });
    expect({ ran, fence, heldAfter }).toEqual({ ran: true, fence: 1, heldAfter: false });
    // the new holder keeps it: the old one's end gave nothing up
    expect(await a.take(held, 300)).toBe(false);
    expect(await leases.findOne({ _id: `${held}#2` })).toMatchObject({ holder: 'another process' });
  });

  test('when a write through the store carries events, then the relays are asked to publish at once; a write without events asks nothing', async () => {
    const store = new Store(conn);
    let asked = 0;
    store.alsoKick(() => asked++);
    const things = store.collection<{ _id: string; n: number }>({
      name: uniqueName('things'),
      key: '_id',
    });
    const event = { eventId: uniqueName('event'), name: 'test.thing', payload: {} } as never;
    await things.insert({ _id: 'a', n: 1 });
    expect(asked).toBe(0);
    await things.insert({ _id: 'b', n: 1 }, [event]);
    expect(asked).toBe(1);
    expect(await things.update({ _id: 'a' }, { $set: { n: 2 } })).toBe(true);
    expect(asked).toBe(1);
    expect(await things.update({ _id: 'a' }, { $set: { n: 3 } }, [event])).toBe(true);
    expect(asked).toBe(2);
    // a tombstone carries its events in the update itself
    expect(await things.update({ _id: 'b' }, tombstoneUpdate([event]))).toBe(true);
    expect(asked).toBe(3);
    // a guarded write that matched nothing stored nothing
    expect(await things.update({ _id: 'nobody' }, { $set: { n: 1 } }, [event])).toBe(false);
    expect(asked).toBe(3);
  });

  test('when two OS processes claim the same pieces of work at once, then each is claimed by exactly one; a claim that ran out is taken over by one of two claimers', async () => {
    const prefix = uniqueName('work');
    const [a, b] = await raceProcesses<number[]>(
      path.join(__dirname, 'claims-race.ts'),
      { mongoUrl, dbName },
      [prefix, '30'],
      [prefix, '30'],
    );
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));

    const claims = new Store(conn).claims();
    const key = uniqueName('attempt');
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    expect(await claims.claim(key, 1000, at(0))).toBe(true);
    expect(await claims.claim(key, 1000, at(900))).toBe(false);
    // ran out at 1000 ms; taken over only after the grace (250 ms), by one of two
    expect(await claims.claim(key, 1000, at(1100))).toBe(false);
    const takers = await Promise.all([
      claims.claim(key, 1000, at(1300)),
      claims.claim(key, 1000, at(1300)),
    ]);
    expect(takers.filter(Boolean)).toHaveLength(1);
    expect(await claims.claim(key, 1000, at(1400))).toBe(false);
  }, 60_000);

  test('when two OS processes take turns at a lease and stall past it now and then, then no mark of one term is written after the next term began', async () => {
    const name = uniqueName('lease');
    const marks = uniqueName('lease_marks');
    const leaseMs = 400;
    const [a, b] = await raceProcesses<{ held: number; stalled: number }>(
      path.join(__dirname, 'lease-race.ts'),
      { mongoUrl, dbName },
      [name, marks, 'a', '8', String(leaseMs)],
      [name, marks, 'b', '8', String(leaseMs)],
    );
    const written = await conn
      .collection<{ by: string; term: number; at: number }>(marks)
      .find({})
      .toArray();
    // both held it, and stalls cost holders their lease more than once
    expect(a.held).toBeGreaterThan(1);
    expect(b.held).toBeGreaterThan(1);
    expect(a.stalled + b.stalled).toBeGreaterThan(2);
    const terms = new Map<number, { by: Set<string>; first: number; last: number }>();
    for (const m of written) {
      const t = terms.get(m.term) ?? { by: new Set<string>(), first: m.at, last: m.at };
      t.by.add(m.by);
      t.first = Math.min(t.first, m.at);
      t.last = Math.max(t.last, m.at);
      terms.set(m.term, t);
    }
    expect(terms.size).toBeGreaterThan(3);
    const ordered = [...terms.entries()].sort(([x], [y]) => x - y);
    for (const [term, t] of ordered)
      expect({ term, holders: t.by.size }).toEqual({ term, holders: 1 });
    // each term's marks all before the first mark of any later term
    const overlaps = ordered.flatMap(([term, t], i) =>
      ordered
        .slice(i + 1)
        .filter(([, later]) => later.first < t.last)
        .map(([later]) => [term, later]),
    );
    expect(overlaps).toEqual([]);
  }, 60_000);
});
