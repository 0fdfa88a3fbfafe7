// The whole platform for the browser tests: the BUILT services, gateway and SPA started with the
// launcher's startPlatform on free ports, against the infrastructure the jest global setup
// started (MONGO_URL, AMQP_URL, S3_URL, SMTP_URL, MAIL_API_URL in the environment). Each stack has
// a WhatsApp/SMS stand-in of its own: its webhooks lead to this stack's gateway (two stacks run
// side by side), so use stack.messagesApiUrl, not the global MESSAGES_API_URL.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { topologyQueues } from '@furniture/platform';
import { deleteBrokerObjects, dropDatabase } from '@furniture/platform/testing';
import {
  REPO_ROOT,
  SERVICE_NAMES,
  servicePortSpan,
  freePort,
  freePortRun,
  newMessagesCredentials,
  standInSettings,
  startMessagesStandIn,
  startPlatform,
  wireToGateway,
  type MessagesStandIn,
  type Platform,
} from '@furniture/infra';

export interface Stack {
  /** http://127.0.0.1:<port>: the gateway serving the SPA, /api/v1 and /media */
  baseUrl: string;
  apiUrl: string;
  /** Mailpit's API */
  mailApiUrl: string;
  /** this stack's WhatsApp/SMS stand-in (GET /api/messages, POST /api/inbound, …) */
  messagesApiUrl: string;
  messages: MessagesStandIn;
  /** the services' database server (scenarios that move time forward set dates in it) */
  mongoUrl: string;
  /** the database of a service on mongoUrl */
  database(service: (typeof SERVICE_NAMES)[number]): string;
  admin: { email: string; password: string };
  /** service logs (one file per process) */
  logDir: string;
  stop(): Promise<void>;
}

/**
 * Access tokens live this long in the browser tests (production: 15 minutes): every staff
 * scenario refreshes silently along the way, and the session scenario outlives a token.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 30;

const BUILT = [
  ...SERVICE_NAMES.map((name) => `services/${name}/dist/start.js`),
  'gateway/dist/start.js',
  'frontend/dist/index.html',
];

function need(key: string): string {
  const value = process.env[key];
  if (!value) {
    throw new Error(
      `${key} is not set: run the browser tests through jest from the repository root (its global setup starts the infrastructure): make e2e`,
    );
  }
  return value;
}

/** Fails at once, with the command to run, when a part of the platform has not been built. */
export function assertBuilt(): void {
  const missing = BUILT.filter((file) => !fs.existsSync(path.join(REPO_ROOT, file)));
  if (missing.length > 0) {
    throw new Error(
      `the browser tests run the built platform, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: ` +
        'build first (make e2e does; alone: node scripts/build-server.mjs && npm run build -w frontend)',
    );
  }
}

/**
 * The services keep their data in their default databases (furniture_<service>, or with the
 * stack's name after it). The test infrastructure is fresh for every run; a MONGO_URL that
 * already holds them (a `make run` server, or a stack of an interrupted run) is refused rather
 * than written into.
 */
async function assertFreshDatabases(mongoUrl: string, wanted: string[]): Promise<void> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 20_000 });
  try {
    await client.connect();
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const taken = databases.map((d) => d.name).filter((name) => wanted.includes(name));
    if (taken.length > 0) {
      throw new Error(
        `the browser tests need fresh databases, but ${taken.join(', ')} already exist on MONGO_URL. ` +
          'Leave MONGO_URL unset (the test infrastructure is fresh for every run) or drop them first.',
      );
    }
  } finally {
    await client.close();
  }
}

/**
 * Starts the platform (about 10-30 s on two cores) and answers where it is. `name` tells two
 * platforms of one run apart: their own databases (furniture_<service>_<name>), data directory,
 * exchange and bucket. `replicas`: OS processes of every service behind the gateway, on the one
 * database, broker and bucket, as `make run REPLICAS=n` and as pods.
 */
export async function startStack(name?: string, replicas = 1): Promise<Stack> {
  assertBuilt();
  const mongoUrl = need('MONGO_URL');
  const amqpUrl = need('AMQP_URL');
  const infraEnv = {
    MONGO_URL: mongoUrl,
    AMQP_URL: amqpUrl,
    S3_URL: need('S3_URL'),
    SMTP_URL: need('SMTP_URL'),
  };
  const mailApiUrl = need('MAIL_API_URL').replace(/\/$/, '');
  const suffix = name ? `_${name}` : '';
  const database = (service: (typeof SERVICE_NAMES)[number]) => `furniture_${service}${suffix}`;
  const databases = SERVICE_NAMES.map(database);
  await assertFreshDatabases(mongoUrl, databases);

  const dataDir = process.env.TEST_INFRA_DIR
    ? path.resolve(process.env.TEST_INFRA_DIR, `e2e${suffix}`)
    : path.join(REPO_ROOT, '.data', `test-e2e${suffix}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });

  // its own exchange (and so its own queues) and bucket: other test files share the broker and S3
  const tag = randomBytes(4).toString('hex');
  const exchange = `furniture.e2e.${tag}`;
  const admin = { email: 'admin@e2e.moebelbruecke.test', password: `e2e-admin-${tag}` };
  const gatewayPort = await freePort();
  // replicas beyond the first listen ten, twenty … ports above the first (startPlatform)
  const servicePortBase = await freePortRun(servicePortSpan(replicas));
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const logDir = path.join(dataDir, 'logs');

  const credentials = newMessagesCredentials();
  const messages = await startMessagesStandIn(standInSettings(credentials));
  const notificationEnv = wireToGateway(messages, credentials, baseUrl);

  let platform: Platform;
  try {
    platform = await startPlatform({
      infraEnv,
      dataDir,
      gatewayPort,
      servicePortBase,
      replicas,
      publicUrl: baseUrl,
      admin,
      overrides: {
        AMQP_EXCHANGE: exchange,
        S3_BUCKET: `furniture-e2e-${tag}`,
        ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS),
        // every scenario's staff log in from this one address: the gateway's 20 logins per 15
        // minutes and address (gateway/test covers that limit) ran out before the last scenarios
        // (429 on /auth/login) once the run got faster than 15 minutes
        RATE_LIMIT_LOGIN: '1000',
      },
      serviceEnv: { notification: notificationEnv },
      // every line is in <dataDir>/logs/<service>.log; only crashes are worth a line here
      print: (line) => {
        if (/ exited \(/.test(line)) process.stderr.write(`[e2e platform] ${line}\n`);
      },
      readyTimeoutMs: 150_000,
      databaseSuffix: suffix,
    });
  } catch (err) {
    await messages.stop();
    throw new Error(
      `the platform did not start: ${err instanceof Error ? err.message : String(err)} (logs in ${logDir})`,
    );
  }

  return {
    baseUrl,
    apiUrl: `${baseUrl}/api/v1`,
    mailApiUrl,
    messagesApiUrl: messages.apiUrl,
    messages,
    mongoUrl,
    database,
    admin,
    logDir,
    async stop() {
      await platform.stop();
      await messages.stop();
      await deleteBrokerObjects(amqpUrl, exchange, topologyQueues(exchange)).catch(() => undefined);
      for (const db of databases) await dropDatabase(mongoUrl, db).catch(() => undefined);
    },
  };
}
