import path from 'node:path';
import { Events } from '@furniture/contracts';
import { startPrivateRabbit, type PrivateRabbit } from '@furniture/infra';
import { EventBus, type Topology } from '../src';
import { eventually, silentLogger, uniqueName } from '../src/testing';
import { receivedWishIds, wishEvent } from './wish-events';

const topology: Topology = { consumer: [Events.WishCreated], producer: [] };

/**
 * A broker restart while a service publishes: every message the broker confirmed before, during
 * or after the restart is delivered, and both sides reconnect by themselves. Runs on a private
 * RabbitMQ node so the shared broker of the other tests is not disturbed.
 */
describe('RabbitMQ restart while publishing', () => {
  let rabbit: PrivateRabbit;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    rabbit = await startPrivateRabbit({
      dataDir: path.join(
        process.env.TEST_INFRA_DIR ?? path.resolve(__dirname, '../../../../.data/test-infra'),
        'chaos-rabbit',
      ),
    });
    // the node's boot: up to 180 s beside the browser suites (private-rabbit.ts)
  }, 200_000);
  afterAll(async () => {
    for (const bus of buses) await bus.stop();
    await rabbit?.stop();
  });

  test('when the broker restarts mid-stream, then no confirmed message is lost and both sides reconnect', async () => {
    const exchange = uniqueName('chaos');
    const producer = new EventBus({
      url: rabbit.url,
      exchange,
      service: 'producer',
      logger: silentLogger,
      maxReconnectSeconds: 2,
      topology,
    });
    const consumer = new EventBus({
      url: rabbit.url,
      exchange,
      service: 'consumer',
      logger: silentLogger,
      maxReconnectSeconds: 2,
      topology,
    });
    buses.push(producer, consumer);
    await producer.start();
    await consumer.start();
    const received = await receivedWishIds(consumer);

    const total = 1500;
    const confirmed = new Set<number>();
    const failed: number[] = [];
    let restarted: Promise<void> | undefined;
    const inFlight = new Set<Promise<void>>();
    for (let i = 1; i <= total; i++) {
      const p = producer.publish(wishEvent(i)).then(
        () => void confirmed.add(i),
        () => void failed.push(i),
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      if (inFlight.size >= 50) await Promise.race(inFlight);
      if (i === 300) {
        await eventually(() => confirmed.size >= 250, { what: 'first confirms' });
        restarted = rabbit.restart(); // every connection drops now, durable data survives
      }
    }
    await restarted;
    await Promise.all(inFlight);

    expect(failed).toEqual([]);
    expect(confirmed.size).toBe(total);
    await eventually(() => received.size === total, {
      timeoutMs: 60000,
      what: `all ${total} deliveries`,
    });
    for (const id of confirmed) expect(received.has(id)).toBe(true);
    await eventually(() => producer.isConnected() && consumer.isConnected(), {
      timeoutMs: 30000,
      what: 'reconnection',
    });
    // and the reconnected pair still works
    await producer.publish(wishEvent(total + 1));
    await eventually(() => received.has(total + 1), { what: 'delivery after reconnecting' });
  });
});
