import { Events, type DomainEvent } from '@furniture/contracts';
import {
  EventBus,
  EventInFlightError,
  OutboxRelay,
  ProcessedEvents,
  connectMongo,
  createEvent,
  docWithEvents,
  nextId,
  raiseCounter,
  tombstoneUpdate,
  withEvents,
  type Connection,
} from '../src';
import { heldLocks, withDocLock } from '../src/store/locks';
import {
  EventRecorder,
  deleteBrokerObjects,
  dropDatabase,
  eventually,
  silentLogger,
  testUrls,
  uniqueName,
} from '../src/testing';

const { mongoUrl, amqpUrl } = testUrls();
let conn: Connection;
let dbName: string;

beforeAll(async () => {
  dbName = uniqueName('platform');
  conn = await connectMongo({ url: mongoUrl, dbName, logger: silentLogger, timeoutMs: 20000 });
});
afterAll(async () => {
  await dropDatabase(mongoUrl, dbName);
  await conn.close();
});

const wish = (id: number) =>
  createEvent(Events.WishCreated, {
    wish_id: id,
    applicant_name: 'Olena',
    furniture_category: 1,
    status: 'active',
  });

describe('outbox relay', () => {
  test('when documents carry events, then the relay publishes them in order and clears the outbox; tombstones vanish', async () => {
    const exchange = uniqueName('ex');
    const recorder = await new EventRecorder(amqpUrl, exchange).start();
    const bus = new EventBus({
      url: amqpUrl,
      exchange,
      service: uniqueName('svc'),
      logger: silentLogger,
    });
    await bus.start();
    const col = conn.collection('things');
    try {
      // written while no relay runs: as if the process crashed right after saving
      await col.insertOne(docWithEvents({ n: 1 }, [wish(1)]));
      await col.updateOne({ n: 1 }, withEvents({ $set: { n: 1 } }, [wish(2), wish(3)]));
      await col.insertOne(docWithEvents({ n: 2 }, [wish(4)]));
      await col.updateOne({ n: 2 }, tombstoneUpdate([wish(5)]));

      const relay = new OutboxRelay({ collections: [col], publisher: bus, logger: silentLogger });
      expect(await relay.sweep()).toBe(5);
      await recorder.waitFor(Events.WishCreated, (e) => e.payload.wish_id === 5);
      const ids = recorder.of(Events.WishCreated).map((e) => e.payload.wish_id);
      expect(ids.filter((i) => i <= 3)).toEqual([1, 2, 3]);
      expect(await col.findOne({ n: 1 })).toMatchObject({ _outbox: [], _outbox_pending: false });
      expect(await col.findOne({ n: 2 })).toBeNull();
      expect(await relay.sweep()).toBe(0);
      await relay.stop();
    } finally {
      await bus.stop();
      await recorder.stop();
      await deleteBrokerObjects(amqpUrl, exchange, []);
    }
  });

  test('when many documents wait, then they are drained several at a time, each in its own order, and none is published twice', async () => {
    const col = conn.collection('many');
    for (let d = 0; d < 30; d++)
      await col.insertOne(
        docWithEvents({ id: d }, [wish(d * 10 + 1), wish(d * 10 + 2), wish(d * 10 + 3)]),
      );
    const sent: number[] = [];
    let inFlight = 0;
    let mostAtOnce = 0;
    const relay = new OutboxRelay({
      collections: [col],
      publisher: {
        publish: async (e) => {
          inFlight++;
          mostAtOnce = Math.max(mostAtOnce, inFlight);
          await new Promise((r) => setTimeout(r, Math.random() * 5));
          inFlight--;
          sent.push((e.payload as { wish_id: number }).wish_id);
        },
      },
      logger: silentLogger,
    });
    const updates = jest.spyOn(col, 'updateOne');
    expect(await relay.sweep()).toBe(90);
    // one write per document: the outbox matched by its content (FerretDB as MongoDB)
    expect(updates).toHaveBeenCalledTimes(30);
    updates.mockRestore();
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(new Set(sent).size).toBe(90);
    for (let d = 0; d < 30; d++)
      expect(sent.filter((id) => Math.floor(id / 10) === d)).toEqual([
        d * 10 + 1,
        d * 10 + 2,
        d * 10 + 3,
      ]);
    expect(await col.countDocuments({ _outbox_pending: true })).toBe(0);
    expect(await relay.sweep()).toBe(0);
  });

  test('when publishing fails, then the events stay in the outbox and go out on a later sweep', async () => {
    const col = conn.collection('flaky');
    await col.insertOne(docWithEvents({ n: 1 }, [wish(10), wish(11)]));
    const sent: DomainEvent[] = [];
    let fail = true;
    const relay = new OutboxRelay({
      collections: [col],
      publisher: {
        publish: async (e) => {
          if (fail && sent.length === 1) throw new Error('broker gone');
          sent.push(e);
        },
      },
      logger: silentLogger,
    });
    await expect(relay.sweep()).rejects.toThrow('broker gone');
    expect((await col.findOne({ n: 1 }))?._outbox).toHaveLength(1);
    fail = false;
    expect(await relay.sweep()).toBe(1);
    expect(sent.map((e) => (e.payload as { wish_id: number }).wish_id)).toEqual([10, 11]);
  });
});

describe('processed events', () => {
  test('when the same event is delivered twice, then the wrapped handler runs once', async () => {
    const processed = new ProcessedEvents(conn);
    let runs = 0;
    const handlers = processed.wrap({ [Events.WishCreated]: async () => void runs++ });
    const event = wish(20);
    await handlers[Events.WishCreated]!(event);
    await handlers[Events.WishCreated]!(event);
    expect(runs).toBe(1);
  });

  test('when a handler fails, then the event is not remembered and a redelivery runs it again', async () => {
    const processed = new ProcessedEvents(conn);
    let runs = 0;
    const handlers = processed.wrap({
      [Events.WishCreated]: async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
    });
    const event = wish(21);
    await expect(handlers[Events.WishCreated]!(event)).rejects.toThrow('boom');
    await handlers[Events.WishCreated]!(event);
    expect(runs).toBe(2);
  });
});

describe('processed events on two replicas (two consumers, one database)', () => {
  test('when two pods get copies of one event at once, then its handler runs once and the other copy is retried without using an attempt', async () => {
    const podA = new ProcessedEvents(conn);
    const podB = new ProcessedEvents(conn);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handler = async () => {
      runs++;
      await gate;
    };
    const a = podA.wrap({ [Events.WishCreated]: handler });
    const b = podB.wrap({ [Events.WishCreated]: handler });
    const event = wish(30);
    const first = a[Events.WishCreated]!(event);
    await eventually(async () => runs === 1 || undefined, { what: 'the first copy handled' });
    // the second copy finds the live claim: it must neither run nor be dropped
    const second = await b[Events.WishCreated]!(event).then(
      () => null,
      (err: unknown) => err,
    );
    expect(second).toBeInstanceOf(EventInFlightError);
    expect((second as EventInFlightError).retryInMs).toBeGreaterThan(0);
    release();
    await first;
    // the retried copy now finds it done
    await b[Events.WishCreated]!(event);
    expect(runs).toBe(1);
  });

  test('when the pod holding a claim died, then another pod takes the event over once the lease ran out', async () => {
    const dead = new ProcessedEvents(conn, 200);
    const alive = new ProcessedEvents(conn, 200);
    const event = wish(31);
    expect(await dead.claim(event)).toEqual({ kind: 'mine' });
    // the dead pod never finishes; within the lease the other waits
    expect((await alive.claim(event)).kind).toBe('busy');
    // the lease (200 ms) and the grace after it (50 ms)
    await new Promise((r) => setTimeout(r, 300));
    let runs = 0;
    await alive.wrap({ [Events.WishCreated]: async () => void runs++ })[Events.WishCreated]!(event);
    expect(runs).toBe(1);
    expect(await alive.seen(event.eventId)).toBe(true);
    // the dead pod's late "done" changes nothing: the claim is not its own any more
    expect((await dead.claim(event)).kind).toBe('done');
  });

  test('when a handler runs longer than the claim lasts, then its pod renews the claim and no other pod takes the event over meanwhile', async () => {
    const slow = new ProcessedEvents(conn, 300);
    const other = new ProcessedEvents(conn, 300);
    const event = wish(33);
    let runs = 0;
    const seenByOther: string[] = [];
    const running = slow.wrap({
      [Events.WishCreated]: async () => {
        runs++;
        for (let i = 0; i < 4; i++) {
          await new Promise((r) => setTimeout(r, 250));
          seenByOther.push((await other.claim(event)).kind);
        }
      },
    })[Events.WishCreated]!(event);
    await running;
    expect({ runs, seenByOther }).toEqual({
      runs: 1,
      seenByOther: ['busy', 'busy', 'busy', 'busy'],
    });
    expect((await other.claim(event)).kind).toBe('done');
  });

  test('when two pods find the same expired claim, then exactly one takes it over', async () => {
    const dead = new ProcessedEvents(conn, 100);
    const event = wish(32);
    await dead.claim(event);
    // its claim (100 ms) and the grace the takers give it (a quarter of their 5 s lease)
    await new Promise((r) => setTimeout(r, 1400));
    const pods = [new ProcessedEvents(conn, 5000), new ProcessedEvents(conn, 5000)];
    const claims = await Promise.all(pods.map((p) => p.claim(event)));
    expect(claims.filter((c) => c.kind === 'mine')).toHaveLength(1);
  });
});

describe('integer ids', () => {
  test('when many ids are drawn at once, then they are distinct and consecutive', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(conn, 'parallel')));
    expect(new Set(ids).size).toBe(50);
    expect(Math.min(...ids)).toBe(1);
    expect(Math.max(...ids)).toBe(50);
  });

  test('when a counter is raised past seeded ids, then the next id follows them', async () => {
    await raiseCounter(conn, 'seeded', 8);
    await raiseCounter(conn, 'seeded', 3);
    expect(await nextId(conn, 'seeded')).toBe(9);
  });
});

describe('document locks (FerretDB applies updates without isolation)', () => {
  test('when 50 updates of one document run at once under its lock, then none is lost', async () => {
    const col = conn.collection('locked');
    await col.insertOne({ id: 1, n: 0, tags: [] });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        withDocLock(col, 1, () =>
          col.updateOne({ id: 1 }, { $inc: { n: 1 }, $push: { tags: i } } as never),
        ),
      ),
    );
    const doc = await col.findOne({ id: 1 });
    expect(doc?.n).toBe(50);
    expect(doc?.tags).toHaveLength(50);
    expect(heldLocks()).toBe(0);
  });

  test('when the relay drains a document while its state changes, then neither the change nor a new event is lost', async () => {
    const col = conn.collection('racy');
    await col.insertOne(docWithEvents({ id: 7, status: 'a' }, [wish(30)]));
    const sent: number[] = [];
    const relay = new OutboxRelay({
      collections: [col],
      publisher: {
        publish: async (e) => void sent.push((e.payload as { wish_id: number }).wish_id),
      },
      logger: silentLogger,
    });
    await Promise.all([
      relay.sweep(),
      ...Array.from({ length: 10 }, (_, i) =>
        withDocLock(col, 7, () =>
          col.updateOne({ id: 7 }, withEvents({ $set: { status: `s${i}` } }, [wish(31 + i)])),
        ),
      ),
    ]);
    await relay.sweep();
    expect((await col.findOne({ id: 7 }))?.status).toBe('s9');
    expect(sent.sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => 30 + i));
  });
});

describe('outbox relay during a broker outage', () => {
  test('when the broker does not confirm, then the relay waits without holding the document lock', async () => {
    const col = conn.collection('outage');
    await col.insertOne(docWithEvents({ id: 9, status: 'a' }, [wish(50)]));
    let release!: () => void;
    const brokerBack = new Promise<void>((resolve) => (release = resolve));
    const relay = new OutboxRelay({
      collections: [col],
      publisher: { publish: () => brokerBack },
      logger: silentLogger,
    });
    const sweeping = relay.sweep();
    await new Promise((r) => setTimeout(r, 100)); // the relay is now waiting for the broker
    // a staff edit of the same document goes through meanwhile
    const edit = await withDocLock(col, 9, () =>
      col.updateOne({ id: 9 }, withEvents({ $set: { status: 'b' } }, [wish(51)])),
    );
    expect(edit.modifiedCount).toBe(1);
    release();
    expect(await sweeping).toBe(1);
    expect(await relay.sweep()).toBe(1);
    expect(await col.findOne({ id: 9 })).toMatchObject({
      status: 'b',
      _outbox: [],
      _outbox_pending: false,
    });
  });
});
