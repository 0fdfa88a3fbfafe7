import amqplib from 'amqplib';
import { Events, type DomainEvent } from '@furniture/contracts';
import { EventBus, createEvent } from '../src';
import {
  deleteBrokerObjects,
  eventually,
  publishRaw,
  silentLogger,
  testUrls,
  uniqueName,
} from '../src/testing';

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
    await deleteBrokerObjects(
      amqpUrl,
      exchange,
      buses.flatMap((b) => [b.queue, b.retryQueue, b.deadLetterQueue]),
    );
  });

  function bus(service: string, extra: Partial<ConstructorParameters<typeof EventBus>[0]> = {}) {
    const b = new EventBus({
      url: amqpUrl,
      exchange,
      service,
      logger: silentLogger,
      retryBaseMs: 50,
      maxAttempts: 3,
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
    expect(dead.map((m) => m.properties.headers?.['x-death']?.[0]?.reason)).toEqual([
      'rejected',
      'rejected',
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
