// The gateway's cache feed on the real broker: an event that may change a public answer (a lot
// updated, as the catalog publishes it) drops what the gateway keeps; so do losing the broker
// and binding again.
import { randomUUID } from 'node:crypto';
import { Events, type LotSnapshot } from '@furniture/contracts';
import { createEvent, EventBus, topologyQueues } from '@furniture/platform';
import {
  deleteBrokerObjects,
  eventually,
  silentLogger,
  testLot,
  TEST_ADMIN,
} from '@furniture/platform/testing';
import { cacheFeedOf } from '../src/cache-feed';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('the cache feed', () => {
  const exchange = `test.gateway-feed.${randomUUID()}`;
  const gatewayBus = new EventBus({
    url: AMQP_URL,
    exchange,
    service: 'gateway',
    logger: silentLogger,
  });
  const catalogBus = new EventBus({
    url: AMQP_URL,
    exchange,
    service: 'catalog',
    logger: silentLogger,
  });

  afterAll(async () => {
    await gatewayBus.stop();
    await catalogBus.stop();
    await deleteBrokerObjects(AMQP_URL, exchange, topologyQueues(exchange)).catch(() => undefined);
  });

  test('when the catalog publishes lot.updated, then every kept answer is dropped', async () => {
    await gatewayBus.start();
    await catalogBus.start();
    const feed = cacheFeedOf(gatewayBus, silentLogger, 50);
    let drops = 0;
    feed.subscribe(() => drops++);
    // bound: live, and everything kept before is dropped (events may have been missed)
    await eventually(() => feed.live());
    const afterBinding = drops;
    expect(afterBinding).toBeGreaterThanOrEqual(1);

    const lot: LotSnapshot = testLot({ id: 77 });
    await catalogBus.publish(createEvent(Events.LotUpdated, { lot, changes: {} }, TEST_ADMIN));
    await eventually(() => drops === afterBinding + 1);
    expect(drops).toBe(afterBinding + 1);
  });
});
