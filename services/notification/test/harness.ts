import type { DomainEvent, Role } from '@furniture/contracts';
import { ProcessedEvents } from '@furniture/platform';
import {
  api,
  eventually,
  listen,
  signTestToken,
  silentLogger,
  startBackbone,
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
  const backbone = await startBackbone('notification');
  const { conn, bus } = backbone;
  const config = loadNotificationConfig({
    ...backbone.env,
    NODE_ENV: 'test',
    SMTP_URL: backbone.urls.smtpUrl,
    OFFICE_EMAIL: 'buero@moebelbruecke.example',
    OFFICE_PHONE: '+49 30 5550100',
    OFFICE_ADDRESS: 'Musterstraße 1, 10115 Berlin',
    PUBLIC_BASE_URL: 'https://moebel.example',
    MAIL_APPROVAL_HOLD_MS: '0',
    MAIL_RETRY_BASE_MS: '200',
    AMQP_RETRY_BASE_MS: '100',
    ...env,
  });
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
      await service.stop();
      await backbone.stop();
    },
  };
}
export type NotificationUnderTest = Awaited<ReturnType<typeof startNotification>>;
