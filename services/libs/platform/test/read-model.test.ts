import type { LotSnapshot } from '@furniture/contracts';
import { LotReadModel, ProcessedEvents, connectMongo, createEvent, type Connection } from '../src';
import { Events } from '@furniture/contracts';
import { dropDatabase, silentLogger, testLot, testUrls, uniqueName } from '../src/testing';

let conn: Connection;
let dbName: string;
beforeAll(async () => {
  dbName = uniqueName('readmodel');
  conn = await connectMongo({ url: testUrls().mongoUrl, dbName, logger: silentLogger });
});
afterAll(async () => {
  await dropDatabase(testUrls().mongoUrl, dbName).catch(() => undefined);
  await conn.close();
});

const raw = () => conn.collection<{ _id: string }>('lots_race');

let ids = 100;
const lot = (overrides: Partial<LotSnapshot> = {}): LotSnapshot =>
  testLot({ id: ++ids, ...overrides });

/**
 * The read model of another replica: its writes happen between this replica's read and write
 * (FerretDB's per-document locks are per process, so two replicas do not wait for each other).
 */
function withWriteBetweenReadAndUpdate(model: LotReadModel, write: () => Promise<unknown>) {
  const collection = (model as unknown as { collection: { findOne: (...a: unknown[]) => unknown } })
    .collection;
  const original = collection.findOne.bind(collection);
  let done = false;
  collection.findOne = async (...args: unknown[]) => {
    const found = await original(...args);
    if (!done) {
      done = true;
      await write();
    }
    return found;
  };
}

describe('lot read model (applications and media)', () => {
  test('when another replica deletes the lot between this replica’s read and its update, then the update does not bring the lot back', async () => {
    const replicaA = new LotReadModel(conn, 'lots_race');
    await replicaA.ensureIndexes();
    const l = lot();
    await replicaA.apply(l);
    // the other replica's write, under its own (other process's) lock
    withWriteBetweenReadAndUpdate(replicaA, () =>
      raw().updateOne({ _id: String(l.id) }, { $set: { deleted: true } }),
    );
    const applied = await replicaA.apply({
      ...l,
      version: 2,
      name: { de: 'Sofa neu', uk: 'Диван новий' },
    });
    expect(applied).toBe(false);
    expect(await replicaA.get(l.id)).toMatchObject({ deleted: true });
  });

  test('when another replica stores a newer version in between, then the older update is not written over it', async () => {
    const replicaA = new LotReadModel(conn, 'lots_race');
    const l = lot();
    await replicaA.apply(l);
    withWriteBetweenReadAndUpdate(replicaA, () =>
      raw().updateOne({ _id: String(l.id) }, { $set: { version: 5, status: 'reserved' } }),
    );
    expect(await replicaA.apply({ ...l, version: 3, status: 'archived' })).toBe(false);
    expect(await replicaA.get(l.id)).toMatchObject({ version: 5, status: 'reserved' });
  });

  test('when a deletion arrives with an older snapshot, then the lot is deleted and keeps its newest name; later updates do not revive it', async () => {
    const model = new LotReadModel(conn, 'lots_race');
    const l = lot();
    await model.apply({ ...l, version: 4, name: { de: 'Neu', uk: 'Новий' } });
    await model.markDeleted({ ...l, version: 2, name: { de: 'Alt', uk: 'Старий' } });
    expect(await model.get(l.id)).toMatchObject({
      deleted: true,
      name: { de: 'Neu', uk: 'Новий' },
    });
    expect(await model.apply({ ...l, version: 9 })).toBe(false);
    expect((await model.get(l.id))?.deleted).toBe(true);
  });

  test('when a page of the snapshot collides with lots events stored meanwhile, then the newer of the two stays', async () => {
    const model = new LotReadModel(conn, 'lots_page');
    await model.ensureIndexes();
    const [a, b] = [lot(), lot()];
    await model.apply({ ...b, version: 3, status: 'reserved' });
    await model.insertPage([a, { ...b, version: 1 }]);
    expect(await model.get(a.id)).toMatchObject({ version: 1 });
    expect(await model.get(b.id)).toMatchObject({ version: 3, status: 'reserved' });
  });
});

describe('processed events', () => {
  test('when processed event ids are older than the retention time, then housekeeping forgets them and keeps the recent ones', async () => {
    const processed = new ProcessedEvents(conn);
    await processed.ensureIndexes();
    const old = createEvent(Events.LotCreated, { lot: lot() });
    const recent = createEvent(Events.LotCreated, { lot: lot() });
    await processed.remember(old);
    await processed.remember(recent);
    await conn
      .collection<{ _id: string }>('processed_events')
      .updateOne({ _id: old.eventId }, { $set: { processed_at: new Date('2020-01-01') } });
    const purged = await processed.purgeBefore(new Date(Date.now() - 24 * 3600 * 1000));
    expect(purged).toBe(1);
    expect(await processed.seen(old.eventId)).toBe(false);
    expect(await processed.seen(recent.eventId)).toBe(true);
  });
});
