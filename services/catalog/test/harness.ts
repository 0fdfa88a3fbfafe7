import type {
  Actor,
  ApplicationStatus,
  ApplicationStatusChange,
  DomainEvent,
} from '@furniture/contracts';
import {
  EventBus,
  connectMongo,
  createEvent,
  withDocLock,
  type Connection,
} from '@furniture/platform';
import {
  EventRecorder,
  api,
  deleteBrokerObjects,
  dropDatabase,
  listen,
  signTestToken,
  silentLogger,
  testKeys,
  testUrls,
  uniqueName,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';
import { loadCatalogConfig } from '../src/config';
import { composeCatalog } from '../src/compose';

export const ADMIN: Actor = { id: 1, name: 'Anna Admin', email: 'anna@example.org', role: 'admin' };
export const VOLUNTEER: Actor = {
  id: 2,
  name: 'Viktor Volunteer',
  email: 'viktor@example.org',
  role: 'volunteer',
};

export const adminToken = () => signTestToken(ADMIN);
export const volunteerToken = () => signTestToken(VOLUNTEER);

/**
 * Starts the real catalog service against the test servers, on its own database and exchange,
 * consuming its events like in production.
 */
export async function startCatalog(env: Record<string, string> = {}) {
  const urls = testUrls();
  const dbName = uniqueName('catalog');
  const exchange = uniqueName('events');
  const serviceName = uniqueName('catalog');
  const keys = testKeys();
  const config = loadCatalogConfig({
    MONGO_URL: urls.mongoUrl,
    AMQP_URL: urls.amqpUrl,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    OUTBOX_INTERVAL_MS: '200',
    METRICS_ENABLED: 'false',
    ...env,
  });
  const conn: Connection = await connectMongo({
    url: urls.mongoUrl,
    dbName,
    logger: silentLogger,
    timeoutMs: 20000,
  });
  const recorder = await new EventRecorder(urls.amqpUrl, exchange).start();
  const bus = new EventBus({
    url: urls.amqpUrl,
    exchange,
    service: serviceName,
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
    http: api(server.url),
    catalog,
    conn,
    recorder,
    config,
    /**
     * Changes a stored lot behind the API (e.g. its creation date), under the lot's lock like
     * every write of the service: FerretDB would otherwise lose one of two concurrent updates.
     */
    setLotFields: (id: number, set: Record<string, unknown>) =>
      withDocLock(conn.collection('lots'), id, () =>
        conn.collection('lots').updateOne({ id }, { $set: set }),
      ),
    /** publishes an event on the service's exchange, as another service would */
    publish: (event: DomainEvent) => bus.publish(event),
    /** the queues the service consumes from */
    queues: [bus.queue, bus.retryQueue, bus.deadLetterQueue],
    async stop() {
      await server.close();
      // the relay first: a publish on a closed channel would wait for ever
      await catalog.stop();
      await bus.stop();
      await recorder.stop();
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
export type CatalogHarness = Awaited<ReturnType<typeof startCatalog>>;

/** A valid lot form body; override what a test is about. */
export function lotBody(overrides: Record<string, unknown> = {}) {
  return {
    name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
    description: { de: 'Gut erhaltenes Ecksofa', uk: 'Кутовий диван у доброму стані' },
    category_id: 1,
    status: 'available',
    dimensions: '250 x 160 cm',
    condition: 'gut',
    donor: 'Familie Müller',
    location: 'Berlin-Neukölln',
    ...overrides,
  };
}

/** The payload of an application status event (application.approved and friends). */
export function applicationChange(
  applicationId: number,
  lotId: number,
  change: {
    old_status: ApplicationStatus;
    new_status: ApplicationStatus;
    reason?: ApplicationStatusChange['reason'];
  },
): ApplicationStatusChange {
  return {
    application_id: applicationId,
    lot_id: lotId,
    old_status: change.old_status,
    new_status: change.new_status,
    reason: change.reason ?? 'staff',
    note: null,
    applicant_name: 'Olena Kovalenko',
    applicant_email: null,
    language: 'uk',
    lot_name: { de: 'Ecksofa', uk: 'Диван' },
  };
}

export { createEvent };
