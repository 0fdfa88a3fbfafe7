/**
 * Two OS processes of a service on one database (issue 42): the BUILT catalog and applications
 * services, each started twice as separate node processes (as two pods), on fresh databases of
 * the test run's FerretDB and one exchange of its RabbitMQ. A test calls each process directly,
 * alternating, so that every race it sets up is a race between processes: nothing of the store's
 * in-process turns (store/locks.ts) is shared between them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { REPO_ROOT, Supervisor, TEST_DATA_DIR, freePortRun, waitUntil } from '@furniture/infra';
import {
  adminToken,
  deleteBrokerObjects,
  dropDatabase,
  testInternalEnv,
  testKeys,
  testUrls,
  uniqueName,
} from '@furniture/platform/testing';
import { topologyQueues } from '@furniture/platform';
import { callJson, type Answer } from './lab';

export type TwoServiceName = 'catalog' | 'applications' | 'notification';
const SERVICES: TwoServiceName[] = ['catalog', 'applications', 'notification'];

export type { Answer } from './lab';

export class TwoProcesses {
  private constructor(
    private readonly supervisor: Supervisor,
    private readonly mongo: MongoClient,
    readonly exchange: string,
    readonly databases: Record<TwoServiceName, string>,
    /** each service's two processes' URLs */
    readonly urls: Record<TwoServiceName, [string, string]>,
    /** the applications service's LINK_SECRET (the test derives booking links from it) */
    readonly linkSecret: string,
    readonly env: Record<string, string>,
  ) {}

  static async start(
    opts: {
      env?: Record<string, string>;
      /** env of one service's processes only */
      serviceEnv?: Partial<Record<TwoServiceName, Record<string, string>>>;
    } = {},
  ): Promise<TwoProcesses> {
    const missing = SERVICES.filter(
      (s) => !fs.existsSync(path.join(REPO_ROOT, 'services', s, 'dist', 'start.js')),
    );
    if (missing.length > 0)
      throw new Error(`the cross-process suite runs the built services: build first (${missing})`);
    const urls = testUrls();
    const exchange = uniqueName('twoproc');
    const databases = {
      catalog: uniqueName('twoproc_catalog'),
      applications: uniqueName('twoproc_applications'),
      notification: uniqueName('twoproc_notification'),
    };
    const dataDir = path.join(TEST_DATA_DIR, exchange);
    const base = await freePortRun(SERVICES.length * 2);
    const port = (service: TwoServiceName, n: 0 | 1) => base + SERVICES.indexOf(service) * 2 + n;
    const url = (service: TwoServiceName, n: 0 | 1) => `http://127.0.0.1:${port(service, n)}`;
    const serviceUrls = Object.fromEntries(
      SERVICES.map((s) => [s, [url(s, 0), url(s, 1)]]),
    ) as Record<TwoServiceName, [string, string]>;
    const linkSecret = randomBytes(32).toString('hex');
    const supervisor = new Supervisor({
      logDir: path.join(dataDir, 'logs'),
      print: (line) => {
        if (/ exited \(/.test(line)) process.stderr.write(`[two-processes] ${line}\n`);
      },
      cwd: REPO_ROOT,
    });
    const common: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      MONGO_URL: urls.mongoUrl,
      AMQP_URL: urls.amqpUrl,
      SMTP_URL: urls.smtpUrl,
      AMQP_EXCHANGE: exchange,
      JWT_PUBLIC_KEY: testKeys().publicKey,
      METRICS_PORT: '0',
      OUTBOX_INTERVAL_MS: '500',
      CATALOG_URL: serviceUrls.catalog.join(','),
      APPLICATIONS_URL: serviceUrls.applications.join(','),
      PUBLIC_BASE_URL: 'https://moebel.example',
      // one machine sends every family's request: the public limits are not what is tested
      PHONE_LOOKUPS_PER_IP: '100000',
      PUBLIC_WRITES_PER_IP: '100000',
      PUBLIC_WRITES_PER_PHONE: '100000',
      ...opts.env,
    };
    for (const service of SERVICES) {
      for (const n of [0, 1] as const) {
        supervisor.start({
          name: `${service}-${n + 1}`,
          entry: path.join(REPO_ROOT, 'services', service, 'dist', 'start.js'),
          env: {
            ...common,
            ...testInternalEnv(service),
            ...(service === 'applications' ? { LINK_SECRET: linkSecret } : {}),
            ...opts.serviceEnv?.[service],
            MONGO_DB: databases[service],
            PORT: String(port(service, n)),
          },
        });
      }
    }
    const mongo = new MongoClient(urls.mongoUrl, { directConnection: true });
    const lab = new TwoProcesses(
      supervisor,
      mongo,
      exchange,
      databases,
      serviceUrls,
      linkSecret,
      common,
    );
    try {
      await Promise.all(
        SERVICES.flatMap((s) =>
          serviceUrls[s].map((u) =>
            waitUntil(
              async () => {
                const res = await fetch(`${u}/ready`);
                if (!res.ok) throw new Error(`${u}: ${res.status}`);
              },
              { timeoutMs: 90_000, intervalMs: 300, what: `${s} at ${u} ready` },
            ),
          ),
        ),
      );
    } catch (err) {
      await lab.stop();
      throw err;
    }
    return lab;
  }

  db(service: TwoServiceName): Db {
    return this.mongo.db(this.databases[service]);
  }

  /** Process n (0 or 1) of a service, called as the gateway would (same paths under /api/v1). */
  async call<T = unknown>(
    service: TwoServiceName,
    n: number,
    method: string,
    url: string,
    opts: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    const token = opts.token === undefined ? adminToken() : opts.token;
    return callJson<T>(`${this.urls[service][n % 2]}/api/v1${url}`, method, token, {
      ...opts,
      timeoutMs: 60_000,
    });
  }

  /** kill -9 of process n of a service (the supervisor starts it again). */
  kill(service: TwoServiceName, n: 0 | 1): void {
    this.supervisor.signal(`${service}-${n + 1}`, 'SIGKILL');
  }

  /** Waits until process n of a service answers ready (after a kill, its new start). */
  async ready(service: TwoServiceName, n: 0 | 1): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await until(
      `${service}-${n + 1} ready`,
      async () => (await fetch(`${this.urls[service][n]}/ready`).catch(() => null))?.ok,
      90_000,
    );
  }

  async stop(): Promise<void> {
    await this.supervisor.stop().catch(() => undefined);
    await this.mongo.close().catch(() => undefined);
    const urls = testUrls();
    for (const db of Object.values(this.databases))
      await dropDatabase(urls.mongoUrl, db).catch(() => undefined);
    await deleteBrokerObjects(urls.amqpUrl, this.exchange, topologyQueues(this.exchange)).catch(
      () => undefined,
    );
  }
}

/** Polls until `check` answers true-ish. */
export async function until<T>(
  what: string,
  check: () => Promise<T | false | undefined | null>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v !== false && v !== undefined && v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
