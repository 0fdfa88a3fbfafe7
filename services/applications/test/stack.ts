/**
 * The applications service as families and staff reach it: behind the real gateway, next to the
 * real catalog service, both on one event exchange (the approval flow runs between them).
 */
import { EventBus, connectMongo, type Connection } from '@furniture/platform';
import {
  api,
  deleteBrokerObjects,
  dropDatabase,
  eventually,
  listen,
  silentLogger,
  testKeys,
  testUrls,
  uniqueName,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';
import { createGatewayApp } from '../../../gateway/src/app';
import { loadGatewayConfig } from '../../../gateway/src/config';
import { composeCatalog } from '../../catalog/src/compose';
import { loadCatalogConfig } from '../../catalog/src/config';
import { adminToken, startApplications, waitForLot } from './harness';

/** No service listens here: calls the gateway routes to auth, media or notification fail fast. */
const NOWHERE = 'http://127.0.0.1:9';

async function startCatalogOn(exchange: string) {
  const urls = testUrls();
  const dbName = uniqueName('catalog');
  const keys = testKeys();
  const config = loadCatalogConfig({
    MONGO_URL: urls.mongoUrl,
    AMQP_URL: urls.amqpUrl,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    OUTBOX_INTERVAL_MS: '200',
    READ_CACHE_TTL_MS: '0',
    METRICS_ENABLED: 'false',
  });
  const conn: Connection = await connectMongo({
    url: urls.mongoUrl,
    dbName,
    logger: silentLogger,
    timeoutMs: 20000,
  });
  const bus = new EventBus({
    url: urls.amqpUrl,
    exchange,
    service: uniqueName('catalog'),
    logger: silentLogger,
    retryBaseMs: 100,
  });
  await bus.start();
  const catalog = await composeCatalog({ config, logger: silentLogger, conn, publisher: bus });
  catalog.relay.start();
  await bus.subscribe(catalog.handlers);
  const server = await listen(catalog.app);
  return {
    url: server.url,
    async stop() {
      await server.close();
      await bus.stop();
      await catalog.stop();
      await deleteBrokerObjects(urls.amqpUrl, exchange, [
        bus.queue,
        bus.retryQueue,
        bus.deadLetterQueue,
      ]);
      await dropDatabase(urls.mongoUrl, dbName).catch(() => undefined);
      await conn.close();
    },
  };
}

export async function startStack(
  opts: { env?: Record<string, string>; gatewayEnv?: Record<string, string> } = {},
) {
  const exchange = uniqueName('events');
  const catalog = await startCatalogOn(exchange);
  const applications = await startApplications({
    exchange,
    env: { CATALOG_URL: catalog.url, LOT_SNAPSHOT_SYNC: 'empty', ...opts.env },
  });
  const gatewayConfig = loadGatewayConfig({
    AUTH_URL: NOWHERE,
    CATALOG_URL: catalog.url,
    APPLICATIONS_URL: applications.url,
    MEDIA_URL: NOWHERE,
    NOTIFICATION_URL: NOWHERE,
    JWT_PUBLIC_KEY: testKeys().publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    RATE_LIMIT_PUBLIC_WRITES: '100000',
    LOG_LEVEL: 'silent',
    ...opts.gatewayEnv,
  });
  const gateway = await listen(createGatewayApp({ config: gatewayConfig, logger: silentLogger }));
  const http = api(gateway.url);

  /** Creates a lot in the catalog as staff do and waits until the applications service knows it. */
  async function createLot(overrides: Record<string, unknown> = {}): Promise<number> {
    const res = await http.post(
      '/api/v1/lots/',
      {
        name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
        description: { de: 'Gut erhaltenes Ecksofa', uk: 'Кутовий диван у доброму стані' },
        category_id: 1,
        status: 'available',
        condition: 'gut',
        donor: 'Familie Müller',
        location: 'Berlin-Neukölln',
        ...overrides,
      },
      { token: adminToken() },
    );
    if (res.status !== 201) throw new Error(`lot not created: ${JSON.stringify(res.body)}`);
    const id = res.body.id as number;
    await waitForLot(gateway.url, id);
    return id;
  }

  /** The lot as the catalog answers it (public GET /lots/{id} through the gateway). */
  async function catalogLot(id: number) {
    const res = await http.get(`/api/v1/lots/${id}`, { token: adminToken() });
    return res.body?.data ?? res.body?.lot ?? res.body;
  }

  /** Waits until the catalog shows the lot in this status. */
  async function waitForCatalogStatus(id: number, status: string) {
    await eventually(async () => (await catalogLot(id))?.status === status, {
      what: `catalog lot ${id} ${status}`,
    });
  }

  return {
    url: gateway.url,
    http,
    applications,
    catalogUrl: catalog.url,
    recorder: applications.recorder,
    createLot,
    catalogLot,
    waitForCatalogStatus,
    async stop() {
      await gateway.close();
      await applications.stop();
      await catalog.stop();
    },
  };
}
export type Stack = Awaited<ReturnType<typeof startStack>>;
