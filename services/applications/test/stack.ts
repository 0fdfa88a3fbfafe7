/**
 * The applications service as families and staff reach it: behind the real gateway, next to the
 * real catalog service, both on one event exchange (the approval flow runs between them).
 */
import { topologyQueues } from '@furniture/platform';
import {
  api,
  deleteBrokerObjects,
  eventually,
  startService,
  testUrls,
  uniqueName,
} from '@furniture/platform/testing';
import { startTestGateway } from '@furniture/gateway/testing';
import { catalogService } from '@furniture/catalog/service';
import type { Calendar } from '../src/domain/calendar';
import { adminToken, startApplications, waitForLot } from './harness';

async function startCatalogOn(exchange: string) {
  return startService(catalogService, { exchange });
}

export async function startStack(
  opts: {
    env?: Record<string, string>;
    gatewayEnv?: Record<string, string>;
    calendar?: Calendar;
  } = {},
) {
  const exchange = uniqueName('events');
  const catalog = await startCatalogOn(exchange);
  const applications = await startApplications({
    exchange,
    env: { CATALOG_URL: catalog.url, LOT_SNAPSHOT_SYNC: 'empty', ...opts.env },
    calendar: opts.calendar,
  });
  const gateway = await startTestGateway(
    { CATALOG_URL: catalog.url, APPLICATIONS_URL: applications.url },
    { RATE_LIMIT_PUBLIC_WRITES: '100000', ...opts.gatewayEnv },
  );
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

  let catalogStopped = false;
  return {
    url: gateway.url,
    /** takes the catalog away for the rest of the file */
    async stopCatalog() {
      catalogStopped = true;
      await catalog.stop();
    },
    http,
    applications,
    catalog,
    catalogUrl: catalog.url,
    recorder: applications.recorder,
    createLot,
    catalogLot,
    waitForCatalogStatus,
    async stop() {
      await gateway.close();
      await applications.stop();
      // a test may have stopped it already (the catalog away)
      if (!catalogStopped) await catalog.stop();
      // the exchange was shared: its queues and the exchange itself are ours to remove
      await deleteBrokerObjects(testUrls().amqpUrl, exchange, topologyQueues(exchange));
    },
  };
}
export type Stack = Awaited<ReturnType<typeof startStack>>;
