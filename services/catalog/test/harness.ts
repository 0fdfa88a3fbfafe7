import type { ApplicationStatus, ApplicationStatusChange, DomainEvent } from '@furniture/contracts';
import { createEvent, withDocLock } from '@furniture/platform';
import { api, listen, silentLogger, startBackbone } from '@furniture/platform/testing';
import { loadCatalogConfig } from '../src/config';
import { composeCatalog } from '../src/compose';

export {
  TEST_ADMIN as ADMIN,
  TEST_VOLUNTEER as VOLUNTEER,
  adminToken,
  volunteerToken,
} from '@furniture/platform/testing';

/**
 * Starts the real catalog service against the test servers, on its own database and exchange,
 * consuming its events like in production.
 */
export async function startCatalog(env: Record<string, string> = {}) {
  const backbone = await startBackbone('catalog');
  const { conn, recorder, bus } = backbone;
  const config = loadCatalogConfig({ ...backbone.env, OUTBOX_INTERVAL_MS: '200', ...env });
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
    queues: backbone.queues,
    async stop() {
      await server.close();
      // the relay first: a publish on a closed channel would wait for ever
      await catalog.stop();
      await backbone.stop();
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
