import type { DomainEvent, Role } from '@furniture/contracts';
import { eventually, signTestToken, startService, testUrls } from '@furniture/platform/testing';
import { notificationService } from '../src/compose';

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
  const { smtpUrl } = testUrls();
  const svc = await startService(notificationService, {
    env: {
      SMTP_URL: smtpUrl,
      OFFICE_EMAIL: 'buero@moebelbruecke.example',
      OFFICE_PHONE: '+49 30 5550100',
      OFFICE_ADDRESS: 'Musterstraße 1, 10115 Berlin',
      PUBLIC_BASE_URL: 'https://moebel.example',
      MAIL_RETRY_BASE_MS: '200',
      MAIL_PROBE_INTERVAL_MS: '200',
      ...env,
    },
  });
  const { conn } = svc;

  return {
    ...svc,
    adminToken: signTestToken(ADMIN),
    volunteerToken: signTestToken(VOLUNTEER),
    /** waits until the log holds the entry of an event */
    async entryOf(event: DomainEvent) {
      return eventually(
        async () =>
          (await conn
            .collection<{ _id: string }>('activity_logs')
            .findOne({ _id: event.eventId, state: { $ne: 'claimed' } } as never)) ?? undefined,
        { what: `activity entry of ${event.name}` },
      );
    },
    /** waits until the service has recorded an event as processed (its handler finished) */
    async handled(event: DomainEvent) {
      return eventually(
        async () =>
          (await conn
            .collection<{ _id: string }>('processed_events')
            .findOne({ _id: event.eventId, state: { $ne: 'claimed' } } as never)) ?? undefined,
        { what: `${event.name} handled` },
      );
    },
    /** forgets that an event was processed, as if the service crashed before recording it */
    async forgetProcessed(event: DomainEvent) {
      await conn.collection<{ _id: string }>('processed_events').deleteOne({ _id: event.eventId });
    },
  };
}
export type NotificationUnderTest = Awaited<ReturnType<typeof startNotification>>;
