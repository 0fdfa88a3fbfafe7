/**
 * The catalog, applications and notification services as in production (the same kit, each on
 * its own database), on one event exchange, behind the real gateway. Auth and media join when
 * asked (`full`: the security suites log in for real and call every route); otherwise tokens are
 * signed with the test key and no photos are uploaded.
 */
import { authService } from '@furniture/auth/service';
import { startTestGateway } from '@furniture/gateway/testing';
import { mediaService } from '@furniture/media/service';
import { applicationsService } from '@furniture/applications/service';
import {
  catalogService,
  mediaLotPhotoCopies,
  type CatalogOptions,
} from '@furniture/catalog/service';
import { notificationService } from '@furniture/notification/service';
import { internalClient, topologyQueues, type Logger } from '@furniture/platform';
import {
  EventRecorder,
  api,
  adminToken,
  deleteBrokerObjects,
  eventually,
  startService,
  testInternalSecrets,
  testKeys,
  testUrls,
  uniqueName,
} from '@furniture/platform/testing';

type ServiceName = 'catalog' | 'applications' | 'notification' | 'auth' | 'media';

/** The administrator the auth service seeds in the full stack. */
export const SYSTEM_ADMIN = { email: 'admin@example.org', password: 'Moebel-Bruecke-Admin-7' };

export async function startSystem(
  opts: {
    full?: boolean;
    gatewayEnv?: Record<string, string>;
    /** the catalog's compose options (its clock) */
    catalogOptions?: CatalogOptions;
    /** the media service's configuration besides the test servers' (S3_URL, …) */
    mediaEnv?: Record<string, string>;
    /** the auth service's configuration besides the key and the administrator (`full` only) */
    authEnv?: Record<string, string>;
    /** every service's and the gateway's logger (silent by default) */
    logger?: (name: string) => Logger;
    /**
     * each service's database, kept when the stack stops (the restore drill starts a second
     * stack on what it restored); new ones, dropped at stop, when not given
     */
    databases?: Partial<Record<ServiceName, string>>;
    /** the media service's bucket (a new one when not given) */
    bucket?: string;
    /** the applications service's and the catalog's erasure ledger (ERASURE_LEDGER) */
    erasureLedger?: string;
  } = {},
) {
  const logger = opts.logger;
  const urls = testUrls();
  const exchange = uniqueName('system');
  const db = opts.databases ?? {};
  // the catalog copies a donated item's photos through the media service, which starts after it
  let mediaUrl = '';
  // the catalog's own credential, as the catalog service's kit sends it
  const mediaCalls = () =>
    internalClient({
      service: 'media',
      baseUrl: mediaUrl,
      credential: { caller: 'catalog', secret: testInternalSecrets().catalog },
    });
  const catalog = await startService(catalogService, {
    exchange,
    logger: logger?.('catalog'),
    dbName: db.catalog,
    env: opts.erasureLedger ? { ERASURE_LEDGER: opts.erasureLedger } : undefined,
    options: {
      photoCopies: {
        adopt: (...args) => mediaLotPhotoCopies(mediaCalls()).adopt(...args),
      },
      ...opts.catalogOptions,
    },
  });
  const applications = await startService(applicationsService, {
    logger: logger?.('applications'),
    exchange,
    dbName: db.applications,
    env: {
      ...(opts.erasureLedger ? { ERASURE_LEDGER: opts.erasureLedger } : {}),
      CATALOG_URL: catalog.url,
      LOT_SNAPSHOT_SYNC: 'never',
      PHONE_LOOKUPS_PER_IP: '100000',
      PUBLIC_WRITES_PER_IP: '100000',
      PUBLIC_WRITES_PER_PHONE: '100000',
    },
  });
  const notification = await startService(notificationService, {
    logger: logger?.('notification'),
    exchange,
    dbName: db.notification,
    env: {
      SMTP_URL: urls.smtpUrl,
      PUBLIC_BASE_URL: 'https://moebel.example',
      OFFICE_EMAIL: 'buero@moebelbruecke.example',
      OFFICE_PHONE: '+49 30 5550100',
      MAIL_PROBE_INTERVAL_MS: '200',
    },
  });
  const auth = opts.full
    ? await startService(authService, {
        logger: logger?.('auth'),
        exchange,
        dbName: db.auth,
        env: {
          JWT_PRIVATE_KEY: testKeys().privateKey,
          ADMIN_EMAIL: SYSTEM_ADMIN.email,
          ADMIN_PASSWORD: SYSTEM_ADMIN.password,
          LOGIN_MAX_FAILURES_PER_IP: '100000',
          ...opts.authEnv,
        },
      })
    : undefined;
  const bucket = opts.bucket ?? uniqueName('system').replace(/_/g, '-');
  const media = opts.full
    ? await startService(mediaService, {
        logger: logger?.('media'),
        exchange,
        dbName: db.media,
        env: { S3_URL: urls.s3Url, S3_BUCKET: bucket, CATALOG_URL: catalog.url, ...opts.mediaEnv },
      })
    : undefined;
  mediaUrl = media?.url ?? '';
  const recorder = await new EventRecorder(urls.amqpUrl, exchange).start();
  const gateway = await startTestGateway(
    {
      CATALOG_URL: catalog.url,
      APPLICATIONS_URL: applications.url,
      NOTIFICATION_URL: notification.url,
      ...(auth ? { AUTH_URL: auth.url } : {}),
      ...(media ? { MEDIA_URL: media.url } : {}),
    },
    {
      RATE_LIMIT_PUBLIC_WRITES: '100000',
      RATE_LIMIT_PUBLIC_LOOKUPS: '100000',
      RATE_LIMIT_LOGIN: '100000',
      // every read reaches the services: a change made by an event is seen at once
      PUBLIC_CACHE_MAX_MS: '0',
      ...opts.gatewayEnv,
    },
    logger?.('gateway'),
  );
  const http = api(gateway.url);
  const staff = () => ({ token: adminToken() });

  /** A lot created in the catalog as staff do, once the applications service knows it. */
  async function createLot(
    name = 'Ecksofa grau',
    overrides: Record<string, unknown> = {},
  ): Promise<number> {
    const res = await http.post(
      '/api/v1/lots/',
      {
        name: { de: name, uk: 'Кутовий диван сірий' },
        description: { de: 'Gut erhalten', uk: 'У доброму стані' },
        category_id: 1,
        status: 'available',
        ...overrides,
      },
      staff(),
    );
    if (res.status !== 201) throw new Error(`lot not created: ${JSON.stringify(res.body)}`);
    const id = res.body.id as number;
    await eventually(
      async () => (await http.get(`/api/v1/lots/${id}/applications-info`)).status === 200,
      { what: `lot ${id} known to applications` },
    );
    return id;
  }

  return {
    url: gateway.url,
    http,
    staff,
    recorder,
    catalog,
    applications,
    notification,
    auth,
    media,
    bucket,
    createLot,
    async stop() {
      await gateway.close();
      await recorder.stop();
      for (const s of [media, auth, notification, applications, catalog]) await s?.stop();
      await deleteBrokerObjects(urls.amqpUrl, exchange, topologyQueues(exchange));
    },
  };
}
export type System = Awaited<ReturnType<typeof startSystem>>;
