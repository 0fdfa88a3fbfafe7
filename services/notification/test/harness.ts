import type { DomainEvent, Role } from '@furniture/contracts';
import { EventBus, ProcessedEvents, connectMongo, type Connection } from '@furniture/platform';
import {
  api,
  deleteBrokerObjects,
  dropDatabase,
  eventually,
  listen,
  signTestToken,
  silentLogger,
  testKeys,
  testUrls,
  uniqueName,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';
import { composeNotification } from '../src/compose';
import { loadNotificationConfig } from '../src/config';

export const ADMIN = {
  id: 1,
  role: 'admin' as Role,
  name: 'Anna Admin',
  email: 'anna@example.org',
};
export const VOLUNTEER = {
  id: 2,
  role: 'volunteer' as Role,
  name: 'Viktor Freiwillig',
  email: 'viktor@example.org',
};

/**
 * Starts the real notification service against the test servers (FerretDB, RabbitMQ, the SMTP
 * catcher), on its own database and exchange. `publish` sends events as the other services do.
 */
export async function startNotification(env: Record<string, string> = {}) {
  const urls = testUrls();
  const dbName = uniqueName('notification');
  const exchange = uniqueName('events');
  const keys = testKeys();
  const config = loadNotificationConfig({
    NODE_ENV: 'test',
    MONGO_URL: urls.mongoUrl,
    AMQP_URL: urls.amqpUrl,
    SMTP_URL: urls.smtpUrl,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    OFFICE_EMAIL: 'buero@moebelbruecke.example',
    OFFICE_PHONE: '+49 30 5550100',
    OFFICE_ADDRESS: 'Musterstraße 1, 10115 Berlin',
    PUBLIC_BASE_URL: 'https://moebel.example',
    MAIL_APPROVAL_HOLD_MS: '0',
    MAIL_RETRY_BASE_MS: '200',
    AMQP_RETRY_BASE_MS: '100',
    ...env,
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
    service: 'notification',
    logger: silentLogger,
    retryBaseMs: config.AMQP_RETRY_BASE_MS,
  });
  await bus.start();
  const service = await composeNotification({ config, logger: silentLogger, conn });
  await bus.subscribe(new ProcessedEvents(conn).wrap(service.handlers));
  service.sender.start();
  const server = await listen(service.app);
  const http = api(server.url);

  return {
    url: server.url,
    http,
    conn,
    config,
    service,
    adminToken: signTestToken(ADMIN),
    volunteerToken: signTestToken(VOLUNTEER),
    /** publishes like another service would (the broker delivers it to our queue) */
    publish: (event: DomainEvent) => bus.publish(event),
    /** waits until the log holds the entry of an event */
    async entryOf(event: DomainEvent) {
      return eventually(
        async () =>
          (await conn
            .collection<{ _id: string }>('activity_logs')
            .findOne({ _id: event.eventId })) ?? undefined,
        { what: `activity entry of ${event.name}` },
      );
    },
    /** waits until the service has recorded an event as processed (its handler finished) */
    async handled(event: DomainEvent) {
      return eventually(
        async () =>
          (await conn
            .collection<{ _id: string }>('processed_events')
            .findOne({ _id: event.eventId })) ?? undefined,
        { what: `${event.name} handled` },
      );
    },
    /** forgets that an event was processed, as if the service crashed before recording it */
    async forgetProcessed(event: DomainEvent) {
      await conn.collection<{ _id: string }>('processed_events').deleteOne({ _id: event.eventId });
    },
    async stop() {
      await server.close();
      await bus.stop();
      await service.stop();
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
export type NotificationUnderTest = Awaited<ReturnType<typeof startNotification>>;
