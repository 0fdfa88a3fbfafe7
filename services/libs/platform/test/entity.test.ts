/**
 * The store's entities (services/libs/platform/src/store/entity.ts, docs/service-guide.md "The
 * store"): a record declared once, read with the store's rules, written with its events, and the
 * relay kicked by the store. Checked against what the server says of the same documents.
 */
import path from 'node:path';
import { Events } from '@furniture/contracts';
import { z } from 'zod';
import { EventBus, Store, connectMongo, createEvent, type Connection } from '../src';
import { heldLocks } from '../src/store/locks';
import {
  EventRecorder,
  deleteBrokerObjects,
  dropDatabase,
  eventually,
  raceProcesses,
  silentLogger,
  testUrls,
  uniqueName,
} from '../src/testing';

const { mongoUrl, amqpUrl } = testUrls();
let conn: Connection;
let dbName: string;

beforeAll(async () => {
  dbName = uniqueName('entity');
  conn = await connectMongo({ url: mongoUrl, dbName, logger: silentLogger, timeoutMs: 20000 });
});
afterAll(async () => {
  await dropDatabase(mongoUrl, dbName);
  await conn.close();
});

/** A date stored as a date and handed to the domain as ISO text. */
const isoDate = z.codec(z.date(), z.string(), {
  decode: (d) => d.toISOString(),
  encode: (s) => new Date(s),
});

const Wish = z.object({
  id: z.number(),
  status: z.enum(['active', 'fulfilled']),
  name: z.string(),
  notes: z.array(z.string()).default([]),
  email: z.string().nullable().default(null),
  text: z.object({ de: z.string().default(''), uk: z.string().default('') }),
  created_at: isoDate,
  rev: z.number(),
});
type Wish = z.infer<typeof Wish>;

const wishEvent = (id: number) =>
  createEvent(Events.WishCreated, {
    wish_id: id,
    applicant_name: 'Olena',
    furniture_category: 1,
    status: 'active',
  });

const wishOf = (id: number, over: Partial<Wish> = {}): Wish => ({
  id,
  status: 'active',
  name: `Olena ${id}`,
  notes: [],
  email: null,
  text: { de: 'Sofa', uk: 'Диван' },
  created_at: new Date(Date.UTC(2026, 0, id)).toISOString(),
  rev: 1,
  ...over,
});

function declareWishes(store: Store, name: string) {
  return store.entity({
    name,
    record: Wish,
    key: 'id',
    idFromKey: true,
    unique: ['name'],
    indexes: [{ status: 1, id: -1 }],
    tombstones: true,
    outbox: true,
  });
}

/** A bus and a recorder on an exchange of the test's own, the store's relay started on it. */
async function relayed(store: Store) {
  const exchange = uniqueName('ex');
  const recorder = await new EventRecorder(amqpUrl, exchange).start();
  const bus = new EventBus({
    url: amqpUrl,
    exchange,
    service: uniqueName('svc'),
    logger: silentLogger,
  });
  await bus.start();
  store.startRelay({ publisher: bus, logger: silentLogger, intervalMs: 60_000 });
  return {
    recorder,
    async stop() {
      await store.stopRelay();
      await recorder.stop();
      await bus.stop();
      await deleteBrokerObjects(amqpUrl, exchange, []);
    },
  };
}

describe('an entity', () => {
  test('when records are read, then only their declared fields leave the store, defaults fill what an older version did not store, and tombstones are never read', async () => {
    const name = uniqueName('wishes');
    const store = new Store(conn);
    const wishes = declareWishes(store, name);
    await store.open(silentLogger);
    await wishes.insert(wishOf(1), { stored: { name_key: 'olena 1' } });
    // what a version before `notes`, `email` and `text.uk` stored
    await conn.collection(name).insertOne({
      _id: '2',
      id: 2,
      status: 'active',
      name: 'Oksana',
      text: { de: 'Tisch' },
      created_at: new Date(Date.UTC(2026, 1, 2)),
      rev: 1,
    } as never);
    await wishes.insert(wishOf(3));
    expect(await wishes.remove({ id: 3 }, { events: [wishEvent(3)] })).toBe(true);

    const one = await wishes.get(1);
    expect(one).toEqual(wishOf(1));
    // the stored form: the key as `_id`, the date as a date, the derived key beside the record
    const raw = await conn.collection(name).findOne({ _id: '1' } as never);
    expect(raw).toMatchObject({ id: 1, name_key: 'olena 1', created_at: expect.any(Date) });
    expect(await wishes.get(2)).toEqual({
      id: 2,
      status: 'active',
      name: 'Oksana',
      notes: [],
      email: null,
      text: { de: 'Tisch', uk: '' },
      created_at: '2026-02-02T00:00:00.000Z',
      rev: 1,
    });
    // a default is a fresh value each time, not one shared by every record
    (await wishes.get(2))!.notes.push('changed by a reader');
    expect((await wishes.get(2))!.notes).toEqual([]);
    // the tombstone waits for its events, and no read finds it
    expect(await conn.collection(name).countDocuments({ id: 3 })).toBe(1);
    expect(await wishes.get(3)).toBeNull();
    expect(await wishes.exists({ id: 3 })).toBe(false);
    expect(await wishes.count()).toBe(2);
    expect((await wishes.find({}, { sort: { id: 1 } })).map((w) => w.id)).toEqual([1, 2]);
    expect(
      await wishes.find({ status: 'active' }, { sort: { id: -1 }, fields: ['id', 'name'] }),
    ).toEqual([
      { id: 2, name: 'Oksana' },
      { id: 1, name: 'Olena 1' },
    ]);
    const streamed: number[] = [];
    for await (const w of wishes.stream({}, { sort: { id: -1 }, batchSize: 1 }))
      streamed.push(w.id);
    expect(streamed).toEqual([2, 1]);
    // the privacy lookup's view: every field kept, the store's own left out, tombstones included
    const stored = await wishes.storedAs({}, { sort: { id: 1 } });
    expect(stored.map((d) => d.id)).toEqual([1, 2, 3]);
    expect(stored[0]).toHaveProperty('name_key', 'olena 1');
    for (const doc of stored) {
      for (const field of ['_id', '_outbox', '_outbox_pending', '_purge'])
        expect(doc).not.toHaveProperty(field);
    }
    expect(stored[2]).toHaveProperty('deleted_at');
  });

  test('when a record does not say what its declaration says, then it is refused and nothing is stored', async () => {
    const name = uniqueName('wishes');
    const store = new Store(conn);
    const wishes = declareWishes(store, name);
    await store.open(silentLogger);
    const bad = { ...wishOf(1), status: 'lost' } as unknown as Wish;
    await expect(wishes.insert(bad)).rejects.toThrow(/not what its declaration says/);
    expect(await conn.collection(name).countDocuments()).toBe(0);
  });

  test('when writes carry events, then the store relays them at once, in order, without anyone asking; a tombstone goes once its events are out', async () => {
    const name = uniqueName('wishes');
    const store = new Store(conn);
    const wishes = declareWishes(store, name);
    await store.open(silentLogger);
    // the relay's interval is a minute: only the store's kick can publish within the test
    const relay = await relayed(store);
    try {
      await wishes.insert(wishOf(1), { events: [wishEvent(1)] });
      expect(
        await wishes.update(
          { id: 1, status: 'active' },
          { $set: { name: 'O.' } },
          { events: [wishEvent(2)] },
        ),
      ).toBe(true);
      // a guard that no longer holds writes nothing and publishes nothing
      expect(
        await wishes.update(
          { id: 1, status: 'fulfilled' },
          { $set: { name: 'x' } },
          { events: [wishEvent(99)] },
        ),
      ).toBe(false);
      const changed = await wishes.mutate(1, () => ({
        set: { status: 'fulfilled' as const },
        events: (after) => [wishEvent(after.rev * 10)],
      }));
      expect(changed).toMatchObject({ changed: true, after: { status: 'fulfilled', rev: 2 } });
      expect(await wishes.insertUnlessTaken(wishOf(4), { events: [wishEvent(4)] })).toBe(true);
      expect(await wishes.remove({ id: 4 }, { events: [wishEvent(5)] })).toBe(true);
      await relay.recorder.waitFor(Events.WishCreated, (e) => e.payload.wish_id === 5);
      const ids = relay.recorder.of(Events.WishCreated).map((e) => e.payload.wish_id);
      // in order per record (the relay drains several records side by side)
      expect(ids.filter((id) => id !== 4 && id !== 5)).toEqual([1, 2, 20]);
      expect(ids.filter((id) => id === 4 || id === 5)).toEqual([4, 5]);
      await eventually(async () => (await conn.collection(name).countDocuments({ id: 4 })) === 0, {
        what: 'the tombstone deleted once its event is out',
      });
      // the relay marks a record's events out after publishing them, records side by side: the
      // last event seen may come before another record's mark
      await eventually(
        async () => (await conn.collection(name).countDocuments({ _outbox_pending: true })) === 0,
        { what: 'every record marked published' },
      );
      expect(heldLocks()).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  test('when an entity without an outbox is given events, then the write is refused before anything is stored', async () => {
    const store = new Store(conn);
    const name = uniqueName('plain');
    const plain = store.entity({ name, record: Wish, key: 'id' });
    await store.open(silentLogger);
    await expect(plain.insert(wishOf(1), { events: [wishEvent(1)] })).rejects.toThrow(
      /declares no outbox/,
    );
    await plain.insert(wishOf(1));
    await expect(
      plain.update({ id: 1 }, { $set: { name: 'x' } }, { events: [wishEvent(2)] }),
    ).rejects.toThrow(/declares no outbox/);
    expect((await plain.get(1))!.name).toBe('Olena 1');
  });

  test('when a collection is declared a second time, then the same declaration answers the same entity and a different one is refused at once', () => {
    const store = new Store(conn);
    const name = uniqueName('twice');
    const decl = { name, record: Wish, key: 'id', tombstones: true } as const;
    const first = store.entity(decl);
    expect(store.entity({ ...decl })).toBe(first);
    expect(() => store.entity({ ...decl, tombstones: false })).toThrow(/declared twice/);
    expect(() => store.collection({ name, key: 'id' })).toThrow(/declared twice/);
    expect(() =>
      store.entity({ ...decl, list: { counts: `${name}_counts`, countedBy: ['status'] } }),
    ).toThrow(/declared twice/);
  });

  test('when two OS processes insert under the same unique keys at once, then each key is won by exactly one of them', async () => {
    const name = uniqueName('claims');
    const n = 25;
    const [wonA, wonB] = await raceProcesses<number[]>(
      path.join(__dirname, 'entity-race.ts'),
      { mongoUrl, dbName },
      [name, String(n), 'a'],
      [name, String(n), 'b'],
    );
    expect([...wonA, ...wonB].sort((x, y) => x - y)).toEqual(
      Array.from({ length: n }, (_, i) => i + 1),
    );
    const stored = await conn.collection(name).find({}).toArray();
    expect(stored).toHaveLength(n);
    for (const doc of stored)
      expect((doc.by === 'a' ? wonA : wonB).includes(doc.key as number)).toBe(true);
  });
});

describe('a listed entity', () => {
  const Item = z.object({
    id: z.number(),
    kind: z.enum(['chair', 'table', 'bed']),
    status: z.enum(['open', 'closed']),
    rev: z.number(),
  });
  const KINDS = ['chair', 'table', 'bed'] as const;
  const STATUSES = ['open', 'closed'] as const;

  const declare = (store: Store, name: string, countedBy: string[]) =>
    store.entity({
      name,
      record: Item,
      key: 'id',
      tombstones: true,
      list: { counts: `${name}_counts`, countedBy },
    });

  /** What the server says of a newest-first page, tombstones left out. */
  const expected = async (name: string, where: object) =>
    (
      await conn
        .collection(name)
        .find({ ...where, deleted_at: null })
        .sort({ id: -1 })
        .toArray()
    ).map((d) => d.id as number);

  test('when the declaration of its counts changes, then the counts built for the old one are not read, are rebuilt at the next start, and every page agrees with the server throughout', async () => {
    const name = uniqueName('items');
    const before = new Store(conn);
    const items = declare(before, name, ['status']);
    await before.open(silentLogger);
    for (let i = 0; i < 150; i++) {
      const id = await items.nextId();
      await items.insert({ id, kind: KINDS[id % 3]!, status: STATUSES[id % 2]!, rev: 1 });
    }
    const counts = conn.collection<{ _id: string; declaration?: string }>(`${name}_counts`);
    const stampBefore = (await counts.findOne({ _id: 'all' }))!.declaration;
    expect(stampBefore).toContain('status');

    // the next version counts by kind too
    const after = new Store(conn);
    const changed = declare(after, name, ['kind', 'status']);
    const { rebuilt } = await after.open(silentLogger);
    // until the rebuild is done, a counted page is asked of the server: never empty, never wrong
    const bed = await changed.pageWithTotal({ kind: 'bed' }, { skip: 0, limit: 10 });
    expect(bed.records.map((r) => r.id)).toEqual(
      (await expected(name, { kind: 'bed' })).slice(0, 10),
    );
    await rebuilt;
    expect((await counts.findOne({ _id: 'all' }))!.declaration).not.toBe(stampBefore);
    for (const where of [
      {},
      { kind: 'bed' },
      { kind: 'chair', status: 'closed' },
      { status: 'open' },
    ]) {
      const all = await expected(name, where);
      const page = await changed.pageWithTotal(where, { skip: 5, limit: 20 });
      expect({ where, ids: page.records.map((r) => r.id), total: page.total }).toEqual({
        where,
        ids: all.slice(5, 25),
        total: all.length,
      });
      expect(await changed.count(where)).toBe(all.length);
    }
    // a replica of the old version still writing during the rollout does not move the new counts
    await items.insert({ id: await items.nextId(), kind: 'bed', status: 'open', rev: 1 });
    const kept = (await counts.findOne({ _id: 'all' })) as unknown as { n: Record<string, number> };
    expect(Object.keys(kept.n).every((k) => k.split(':').length === 4)).toBe(true);
  });

  test('when counts were kept by a version before their stamp, then the first stamping version adopts them without a rebuild', async () => {
    const name = uniqueName('items');
    const store = new Store(conn);
    const items = declare(store, name, ['status']);
    await store.open(silentLogger);
    for (let id = 1; id <= 30; id++)
      await items.insert({ id, kind: KINDS[id % 3]!, status: STATUSES[id % 2]!, rev: 1 });
    const counts = conn.collection<{ _id: string }>(`${name}_counts`);
    await counts.updateOne({ _id: 'all' }, { $unset: { declaration: '' } });

    const next = new Store(conn);
    const again = declare(next, name, ['status']);
    const said: string[] = [];
    const logger = {
      info: (a: unknown, b?: string) => said.push(typeof a === 'string' ? a : (b ?? '')),
      error: (a: unknown) => said.push(`error ${String(a)}`),
    } as unknown as Parameters<Store['open']>[0];
    await (
      await next.open(logger)
    ).rebuilt;
    expect(said.filter((m) => m.startsWith('rebuilding'))).toEqual([]);
    expect(await counts.findOne({ _id: 'all' })).toHaveProperty('declaration');
    expect(await again.count({ status: 'open' })).toBe(
      (await expected(name, { status: 'open' })).length,
    );
  });
});
