import amqplib from 'amqplib';
import { Events, type DomainEvent } from '@furniture/contracts';
import {
  DependencyUnavailableError,
  EventBus,
  EventInFlightError,
  UnroutableEventError,
  createEvent,
  topologyQueues,
  type Topology,
} from '../src';
import {
  deleteBrokerObjects,
  eventually,
  publishRaw,
  silentLogger,
  testUrls,
  uniqueName,
} from '../src/testing';
import { receivedWishIds, wishEvent, wishPayload } from './wish-events';

const lotSnapshot = (id: number) => ({
  id,
  name: { de: `Sofa ${id}`, uk: `Диван ${id}` },
  status: 'available' as const,
  category_id: 1,
  photos: [],
  version: 1,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
});

/** The socket under amqp-connection-manager's current amqplib connection. */
interface SocketHolder {
  connection: { stream: { destroy(): void } };
}

async function queueDepth(url: string, queue: string): Promise<number> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createChannel();
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await conn.close();
  }
}

async function readQueue(url: string, queue: string): Promise<amqplib.GetMessage[]> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createChannel();
    const out: amqplib.GetMessage[] = [];
    for (;;) {
      const msg = await ch.get(queue, { noAck: true });
      if (!msg) return out;
      out.push(msg);
    }
  } finally {
    await conn.close();
  }
}

describe('EventBus on the real broker', () => {
  const { amqpUrl } = testUrls();
  let exchange: string;
  let buses: EventBus[] = [];

  beforeEach(() => {
    exchange = uniqueName('ex');
    buses = [];
  });
  afterEach(async () => {
    for (const bus of buses) await bus.stop();
    await deleteBrokerObjects(amqpUrl, exchange, topologyQueues(exchange, topology));
  });

  /** The consumers of these tests and what their queues are bound to. */
  const topology: Topology = {
    consumer: [Events.LotCreated, Events.LotDeleted, Events.WishCreated],
    producer: [],
  };

  function bus(service: string, extra: Partial<ConstructorParameters<typeof EventBus>[0]> = {}) {
    const b = new EventBus({
      url: amqpUrl,
      exchange,
      service,
      logger: silentLogger,
      retryBaseMs: 50,
      maxAttempts: 3,
      probeIntervalMs: 100,
      topology,
      ...extra,
    });
    buses.push(b);
    return b;
  }

  test('when an event is published, then a subscribed service receives it validated', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer');
    await producer.start();
    await consumer.start();
    const received: DomainEvent[] = [];
    await consumer.subscribe({ [Events.LotCreated]: async (e) => void received.push(e) });
    const event = createEvent(
      Events.LotCreated,
      { lot: lotSnapshot(1) },
      { id: 7, name: 'A', email: 'a@b.c', role: 'admin' },
    );
    await producer.publish(event);
    await eventually(() => received.length === 1, { what: 'delivery' });
    expect(received[0]).toEqual(event);
  });

  test('when an event breaks its contract, then publishing refuses it', async () => {
    const producer = bus('producer');
    await producer.start();
    const event = createEvent(Events.LotCreated, { lot: lotSnapshot(1) });
    (event.payload as { lot: { status: string } }).lot.status = 'vanished';
    await expect(producer.publish(event)).rejects.toThrow();
  });

  test('when a message on the wire breaks its contract, then it lands in the dead-letter queue and the handler never runs', async () => {
    const consumer = bus('consumer');
    await consumer.start();
    let calls = 0;
    await consumer.subscribe({ [Events.LotCreated]: async () => void calls++ });
    await publishRaw(amqpUrl, exchange, Events.LotCreated, {
      eventId: 'not-a-uuid',
      name: 'lot.created',
      payload: {},
    });
    await publishRaw(amqpUrl, exchange, Events.LotCreated, 'not even json');
    await eventually(async () => (await queueDepth(amqpUrl, consumer.deadLetterQueue)) === 2, {
      what: 'dead letters',
    });
    const dead = await readQueue(amqpUrl, consumer.deadLetterQueue);
    expect(dead.map((m) => m.properties.headers?.['x-dead-reason'])).toEqual([
      'contract',
      'contract',
    ]);
    expect(calls).toBe(0);
    expect(await queueDepth(amqpUrl, consumer.queue)).toBe(0);
  });

  test('when a handler throws, then it is retried with backoff and dead-lettered after the last attempt', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer');
    await producer.start();
    await consumer.start();
    const attempts: number[] = [];
    await consumer.subscribe({
      [Events.LotCreated]: async () => {
        attempts.push(Date.now());
        throw new Error('database down');
      },
    });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(2) }));
    await eventually(async () => (await queueDepth(amqpUrl, consumer.deadLetterQueue)) === 1, {
      what: 'dead letter',
    });
    expect(attempts).toHaveLength(3);
    // 50 ms then 100 ms between attempts
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(45);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(95);
    const [dead] = await readQueue(amqpUrl, consumer.deadLetterQueue);
    expect(JSON.parse(dead!.content.toString()).payload.lot.id).toBe(2);
    expect(dead!.properties.headers?.['x-attempt']).toBe(3);
    expect(dead!.properties.headers).toMatchObject({
      'x-dead-reason': 'handler',
      'x-dead-error': 'database down',
    });
    expect(dead!.properties.expiration).toBeUndefined();
  });

  test('when the queues are quorum queues (a cluster), then delivery, retry with backoff and dead-lettering work as on classic ones, and the queue is of that type', async () => {
    const producer = bus('producer', { queueType: 'quorum' });
    const consumer = bus('consumer', { queueType: 'quorum' });
    await producer.start();
    await consumer.start();
    const attempts: number[] = [];
    await consumer.subscribe({
      [Events.LotCreated]: async () => {
        attempts.push(Date.now());
        throw new Error('database down');
      },
      [Events.WishCreated]: async () => void attempts.push(-1),
    });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(3) }));
    await eventually(async () => (await queueDepth(amqpUrl, consumer.deadLetterQueue)) === 1, {
      what: 'dead letter through the quorum retry queue',
    });
    expect(attempts).toHaveLength(3);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(95);
    const [dead] = await readQueue(amqpUrl, consumer.deadLetterQueue);
    expect(dead!.properties.headers).toMatchObject({ 'x-dead-reason': 'handler' });
    // a quorum queue refuses to be declared as a classic one
    const conn = await amqplib.connect(amqpUrl);
    try {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await expect(ch.assertQueue(consumer.queue, { durable: true })).rejects.toThrow(
        /PRECONDITION_FAILED|x-queue-type/,
      );
    } finally {
      await conn.close().catch(() => undefined);
    }
  });

  test('when another pod holds the event (EventInFlightError), then it is looked at again later without using an attempt, and never dead-lettered', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer', { maxAttempts: 1 });
    await producer.start();
    await consumer.start();
    let tries = 0;
    let handled = 0;
    await consumer.subscribe({
      [Events.LotCreated]: async (e) => {
        tries++;
        if (tries <= 2) throw new EventInFlightError(e.eventId, 60);
        handled++;
      },
    });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(4) }));
    await eventually(() => handled === 1, { what: 'handled after the other claim' });
    expect(tries).toBe(3);
    expect(await queueDepth(amqpUrl, consumer.deadLetterQueue)).toBe(0);
  });

  test('when a dead-lettered error text holds a phone number or an e-mail address, then both are masked', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer', { maxAttempts: 1 });
    await producer.start();
    await consumer.start();
    await consumer.subscribe({
      [Events.LotCreated]: async () => {
        throw new Error('E11000 dup key { phone: "+49 176 12345678", email: "olena@example.org" }');
      },
    });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(12) }));
    await eventually(async () => (await queueDepth(amqpUrl, consumer.deadLetterQueue)) === 1, {
      what: 'dead letter',
    });
    const [dead] = await readQueue(amqpUrl, consumer.deadLetterQueue);
    const text = String(dead!.properties.headers?.['x-dead-error']);
    expect(text).toContain('[phone]');
    expect(text).toContain('[email]');
    expect(text).not.toMatch(/12345678|olena/);
  });

  test('when a handler fails because a dependency is unreachable, then the event waits without using up attempts until the dependency answers, and is never dead-lettered', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer', { maxAttempts: 2 });
    await producer.start();
    await consumer.start();
    let databaseUp = false;
    let calls = 0;
    const handled: number[] = [];
    await consumer.subscribe(
      {
        [Events.LotCreated]: async (e) => {
          calls++;
          if (!databaseUp) {
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27018'), {
              name: 'MongoServerSelectionError',
            });
          }
          handled.push(e.payload.lot.id);
        },
      },
      { dependencies: { mongo: () => databaseUp } },
    );
    for (const id of [21, 22, 23]) {
      await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(id) }));
    }
    await eventually(() => consumer.consumerState().state === 'paused', { what: 'paused' });
    expect(consumer.consumerState()).toEqual({ state: 'paused', waiting_for: ['mongo'] });
    // far longer than two attempts with backoff would take: nothing dead-lettered, nothing lost
    await new Promise((r) => setTimeout(r, 1000));
    const callsWhileDown = calls;
    expect(callsWhileDown).toBeLessThanOrEqual(3); // the messages already delivered, once each
    expect(await queueDepth(amqpUrl, consumer.deadLetterQueue)).toBe(0);

    databaseUp = true;
    const back = Date.now();
    await eventually(() => handled.length === 3, { what: 'handled after the database is back' });
    expect(Date.now() - back).toBeLessThan(3000);
    expect(handled.sort()).toEqual([21, 22, 23]);
    expect(consumer.consumerState().state).toBe('consuming');
    expect(await queueDepth(amqpUrl, consumer.deadLetterQueue)).toBe(0);
  });

  test('when another service is unreachable (DependencyUnavailableError) while the dependencies answer, then the event is tried again later with backoff, not dead-lettered', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer', { maxAttempts: 1 });
    await producer.start();
    await consumer.start();
    const attempts: number[] = [];
    await consumer.subscribe({
      [Events.LotCreated]: async () => {
        attempts.push(Date.now());
        if (attempts.length < 3) throw new DependencyUnavailableError('catalog');
      },
    });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(31) }));
    await eventually(() => attempts.length === 3, { what: 'three attempts', timeoutMs: 15000 });
    // paused for a growing while in between (0.5 s, then 1 s)
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(450);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(950);
    expect(await queueDepth(amqpUrl, consumer.deadLetterQueue)).toBe(0);
  });

  test('when an event is published before its consumer ever started, then it waits in the consumer queue declared by the publisher', async () => {
    const producer = bus('producer');
    await producer.start();
    await producer.publish(createEvent(Events.WishCreated, wishPayload(41)));
    const consumer = bus('consumer');
    await consumer.start();
    const got: number[] = [];
    await consumer.subscribe({
      [Events.WishCreated]: async (e) => void got.push(e.payload.wish_id),
    });
    await eventually(() => got.includes(41), { what: 'the early event' });
  });

  test('when the connection drops with publishes the broker has not confirmed yet, then each is sent again after reconnecting and none fails', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer');
    await producer.start();
    await consumer.start();
    const received = await receivedWishIds(consumer);
    const total = 300;
    const outcomes = Array.from({ length: total }, (_, i) =>
      producer.publish(wishEvent(i + 1)).then(
        () => 'confirmed',
        (err: Error) => err.message,
      ),
    );
    // the queued publishes are written to the socket on the next turn; cut it right after
    await new Promise((r) => setImmediate(r));
    const model = (producer as unknown as { connection: { connection?: SocketHolder } }).connection
      .connection;
    model?.connection.stream.destroy();

    const results = await Promise.all(outcomes);
    expect(results.filter((r) => r !== 'confirmed')).toEqual([]);
    await eventually(() => received.size === total, { timeoutMs: 20000, what: 'all deliveries' });
  });

  test('when no queue is bound to an event, then publishing rejects with UnroutableEventError instead of dropping it', async () => {
    const producer = bus('producer');
    await producer.start();
    await expect(
      producer.publish(createEvent(Events.LotUpdated, { lot: lotSnapshot(51), changes: {} })),
    ).rejects.toBeInstanceOf(UnroutableEventError);
    // a bound one still goes through on the same channel
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(52) }));
  });

  test('when a service handles an event its queue is not bound to, then subscribing refuses (the topology is the one declaration)', async () => {
    const consumer = bus('consumer');
    await consumer.start();
    await expect(
      consumer.subscribe({ [Events.LotUpdated]: async () => undefined }),
    ).rejects.toThrow(/not bound/);
  });

  test('when the broker cannot be reached, then stop() returns within its grace time and a waiting publish is rejected', async () => {
    const lonely = new EventBus({
      url: 'amqp://guest:guest@127.0.0.1:9',
      exchange,
      service: 'producer',
      logger: silentLogger,
      topology,
    });
    await lonely.start(200);
    const pending = lonely.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(61) }));
    const outcome = pending.then(
      () => 'published',
      () => 'rejected',
    );
    const t = Date.now();
    await lonely.stop(1000);
    expect(Date.now() - t).toBeLessThan(4000);
    expect(await outcome).toBe('rejected');
  });

  test('when a handler fails once and then succeeds, then the event is handled exactly once and nothing is dead-lettered', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer');
    await producer.start();
    await consumer.start();
    let calls = 0;
    let handled = 0;
    await consumer.subscribe({
      [Events.LotCreated]: async () => {
        calls++;
        if (calls === 1) throw new Error('transient');
        handled++;
      },
    });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(3) }));
    await eventually(() => handled === 1, { what: 'handled' });
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(2);
    expect(await queueDepth(amqpUrl, consumer.deadLetterQueue)).toBe(0);
  });

  test('when only some event names are subscribed, then others are not delivered to that service', async () => {
    const producer = bus('producer');
    const consumer = bus('consumer');
    await producer.start();
    await consumer.start();
    const names: string[] = [];
    await consumer.subscribe({ [Events.LotDeleted]: async (e) => void names.push(e.name) });
    await producer.publish(createEvent(Events.LotCreated, { lot: lotSnapshot(4) }));
    await producer.publish(createEvent(Events.LotDeleted, { lot: lotSnapshot(4) }));
    await eventually(() => names.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(names).toEqual([Events.LotDeleted]);
  });
});
