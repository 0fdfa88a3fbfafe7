/**
 * Helpers for component tests: real servers come from the infra launcher (jest globalSetup sets
 * MONGO_URL, AMQP_URL, S3_URL, SMTP_URL and MAIL_API_URL); each test file uses its own database
 * and its own exchange so files can run in parallel.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import amqplib from 'amqplib';
import jwt from 'jsonwebtoken';
import mongoose from 'mongoose';
import {
  ServiceNames,
  parseEvent,
  type ServiceName,
  type Actor,
  type DomainEvent,
  type EventName,
  type LotSnapshot,
  type Role,
} from '@furniture/contracts';
import { TOKEN_ALGORITHM } from '../auth';
import { answerClientErrors } from '../http';
import { internalAuthorization, internalSecretDigest } from '../internal-calls';
import type { Logger } from '../logger';
import { EventBus } from '../messaging/bus';
import { topologyQueues } from '../messaging/topology';
import { connectMongo } from '../mongo';
import {
  ServiceKit,
  type ComposedService,
  type ServiceBaseConfig,
  type ServiceDefinition,
} from '../service';
import { assertAnswerInContract } from './contract';

export { assertAnswerInContract, contractProblem, type AnswerToCheck } from './contract';
export { raceProcess, raceProcesses, type RaceContext } from './races';
export { silentLogger } from './silent-logger';
export { mailsTo, searchMails, type CaughtMail } from './mails';
import { silentLogger } from './silent-logger';

export function testUrls() {
  const need = (key: string): string => {
    const value = process.env[key];
    if (!value)
      throw new Error(
        `${key} is not set: run the tests through jest (infra globalSetup) or set it`,
      );
    return value;
  };
  return {
    mongoUrl: need('MONGO_URL'),
    amqpUrl: need('AMQP_URL'),
    s3Url: process.env.S3_URL ?? '',
    smtpUrl: process.env.SMTP_URL ?? '',
    mailApiUrl: process.env.MAIL_API_URL ?? '',
  };
}

let counter = 0;
/** A name no other test file uses (databases, exchanges, buckets). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}_${randomBytes(3).toString('hex')}`.toLowerCase();
}

let internalSecrets: Record<ServiceName, string> | undefined;
/** Each service's secret for its /internal calls, one set per test process. */
export function testInternalSecrets(): Record<ServiceName, string> {
  internalSecrets ??= Object.fromEntries(
    ServiceNames.map((name) => [name, randomBytes(32).toString('base64url')]),
  ) as Record<ServiceName, string>;
  return internalSecrets;
}

/** The configuration of a test service's internal calls: its own secret, every caller's digest. */
export function testInternalEnv(service: string): Record<string, string> {
  const secrets = testInternalSecrets();
  return {
    ...(service in secrets ? { INTERNAL_SECRET: secrets[service as ServiceName] } : {}),
    INTERNAL_CALLERS: ServiceNames.map((s) => `${s}:${internalSecretDigest(secrets[s])}`).join(' '),
  };
}

/** The headers a test sends to call an /internal route as `caller`. */
export function internalHeaders(caller: ServiceName): Record<string, string> {
  return {
    authorization: internalAuthorization({ caller, secret: testInternalSecrets()[caller] }),
  };
}

let keys: { privateKey: string; publicKey: string } | undefined;
/** One RSA key pair per test process. */
export function testKeys(): { privateKey: string; publicKey: string } {
  keys ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return keys;
}

export const TEST_ISSUER = 'furniture-auth';
export const TEST_AUDIENCE = 'furniture-platform';

/** Signs an access token the way the auth service does (for services other than auth). */
export function signTestToken(
  user: {
    id: number;
    role: Role;
    name?: string;
    email?: string;
    sid?: string;
    /** a referrer's agency (issue 44), as the auth service signs it */
    agency?: { id: number; name: string };
    lang?: 'de' | 'uk';
  },
  opts: { expiresInSeconds?: number; privateKey?: string } = {},
): string {
  return jwt.sign(
    {
      sid: user.sid ?? `test-${user.id}`,
      name: user.name ?? `Test ${user.role} ${user.id}`,
      email: user.email ?? `${user.role}${user.id}@example.org`,
      role: user.role,
      ...(user.agency ? { agency_id: user.agency.id, agency_name: user.agency.name } : {}),
      ...(user.lang ? { lang: user.lang } : {}),
    },
    opts.privateKey ?? testKeys().privateKey,
    {
      algorithm: TOKEN_ALGORITHM,
      subject: String(user.id),
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      expiresIn: opts.expiresInSeconds ?? 900,
    },
  );
}

/** The staff members the service tests act as, and their tokens. */
export const TEST_ADMIN: Actor = {
  id: 1,
  name: 'Anna Admin',
  email: 'anna@example.org',
  role: 'admin',
};
export const TEST_VOLUNTEER: Actor = {
  id: 2,
  name: 'Viktor Volunteer',
  email: 'viktor@example.org',
  role: 'volunteer',
};
export const adminToken = () => signTestToken(TEST_ADMIN);
export const volunteerToken = () => signTestToken(TEST_VOLUNTEER);

/** A lot as the catalog's events carry it; override what a test is about. */
export function testLot(lot: Partial<LotSnapshot> & { id: number }): LotSnapshot {
  const now = new Date().toISOString();
  return {
    name: { de: `Sofa ${lot.id}`, uk: `Диван ${lot.id}` },
    status: 'available',
    category_id: 1,
    photos: [],
    version: 1,
    created_at: now,
    updated_at: now,
    ...lot,
  };
}

/** Listens on a free port; `close` also ends keep-alive connections. */
export async function listen(
  app: Express,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  answerClientErrors(server);
  // idle keep-alive sockets as in production (lifecycle.ts), not node's 5 s: a test whose next
  // call comes about 4-5 s after the last (a slow render on a loaded machine) would otherwise
  // send it on a socket the server is closing that moment (fetch: ECONNRESET)
  server.keepAliveTimeout = 65000;
  server.headersTimeout = 66000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- test bodies are checked by assertions, not types */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A small JSON client for tests: `api(url).post('/x', body, { token })`. Every answer is checked
 * against the OpenAPI document (./contract.ts): one the document does not describe throws, so
 * the test fails. `{ contract: false }` for servers that are not ours (stand-ins in a test).
 */
export function api(
  baseUrl: string,
  clientOpts: {
    contract?: boolean;
    /** every call carries this service's internal credential (calls of /internal routes) */
    caller?: ServiceName;
  } = {},
) {
  type Opts = { token?: string; headers?: Record<string, string> };
  const call = async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts: Opts = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = {
      ...(clientOpts.caller ? internalHeaders(clientOpts.caller) : {}),
      ...opts.headers,
    };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.includes('json') && text) parsed = JSON.parse(text);
    if (clientOpts.contract !== false) {
      assertAnswerInContract({
        method,
        url: `${baseUrl}${path}`,
        status: res.status,
        contentType,
        body: parsed,
      });
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    get: <T = any>(path: string, opts?: Opts) => call<T>('GET', path, undefined, opts),
    delete: <T = any>(path: string, opts?: Opts) => call<T>('DELETE', path, undefined, opts),
    post: <T = any>(path: string, body?: unknown, opts?: Opts) => call<T>('POST', path, body, opts),
    put: <T = any>(path: string, body?: unknown, opts?: Opts) => call<T>('PUT', path, body, opts),
    patch: <T = any>(path: string, body?: unknown, opts?: Opts) =>
      call<T>('PATCH', path, body, opts),
  };
}

/* eslint-enable @typescript-eslint/no-explicit-any */

export async function dropDatabase(mongoUrl: string, dbName: string): Promise<void> {
  const conn = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
  try {
    await conn.dropDatabase();
  } finally {
    await conn.close();
  }
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10000);
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${opts.what ?? 'condition'}${last ? `: ${String(last)}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/**
 * Whether the document `filter` names exists and the outbox relay has published its events
 * (`_outbox_pending: false`): a test that writes the document behind the store's back waits for
 * this, as FerretDB writes a document back whole and a relay write in flight would undo its own.
 */
export async function outboxPublished(
  collection: { findOne(filter: object, opts?: object): Promise<object | null> },
  filter: object,
): Promise<boolean> {
  const doc = (await collection.findOne(filter, { projection: { _outbox_pending: 1 } })) as {
    _outbox_pending?: boolean;
  } | null;
  return doc?._outbox_pending === false;
}

/**
 * Records every event published on an exchange (its own exclusive queue bound to '#'), so a test
 * can assert what a service emitted.
 */
export class EventRecorder {
  readonly events: DomainEvent[] = [];
  private conn?: amqplib.ChannelModel;

  constructor(
    private readonly url: string,
    private readonly exchange: string,
  ) {}

  async start(): Promise<this> {
    this.conn = await amqplib.connect(this.url);
    const ch = await this.conn.createChannel();
    await ch.assertExchange(this.exchange, 'topic', { durable: true });
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
    await ch.bindQueue(queue, this.exchange, '#');
    await ch.consume(
      queue,
      (msg) => {
        if (msg) this.events.push(parseEvent(JSON.parse(msg.content.toString('utf8'))));
      },
      { noAck: true },
    );
    return this;
  }

  of<N extends EventName>(name: N): DomainEvent<N>[] {
    return this.events.filter((e): e is DomainEvent<N> => e.name === name);
  }

  async waitFor<N extends EventName>(
    name: N,
    predicate: (e: DomainEvent<N>) => boolean = () => true,
    timeoutMs = 10000,
  ): Promise<DomainEvent<N>> {
    return eventually(() => this.of(name).find(predicate), { timeoutMs, what: `event ${name}` });
  }

  async stop(): Promise<void> {
    await this.conn?.close().catch(() => undefined);
  }
}

/** Publishes a raw message to an exchange (for contract-breaking messages in tests). */
export async function publishRaw(
  url: string,
  exchange: string,
  routingKey: string,
  content: unknown,
): Promise<void> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createConfirmChannel();
    await ch.assertExchange(exchange, 'topic', { durable: true });
    ch.publish(
      exchange,
      routingKey,
      Buffer.from(typeof content === 'string' ? content : JSON.stringify(content)),
      {
        persistent: true,
      },
    );
    await ch.waitForConfirms();
  } finally {
    await conn.close();
  }
}

/** Deletes the queues and (unless null: shared with others) the exchange a test created. */
export async function deleteBrokerObjects(
  url: string,
  exchange: string | null,
  queues: string[],
): Promise<void> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createChannel();
    for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
    if (exchange) await ch.deleteExchange(exchange).catch(() => undefined);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/**
 * Starts a real service in this process the way `runService` does (the same kit, the same
 * subscriptions, the same background work) against the test servers, listening on a free port:
 * on its own database and exchange (unless shared with other services of the same test), with an
 * EventRecorder listening to everything published there. `env` overrides configuration;
 * `options` are the service's compose options (a stub for an external system, …). `stop()`
 * removes what was created.
 */
export async function startService<C extends ServiceBaseConfig, S extends ComposedService, O>(
  def: ServiceDefinition<C, S, O>,
  opts: {
    env?: Record<string, string>;
    exchange?: string;
    options?: O;
    /** the service's logger (silent by default; the log privacy test reads one) */
    logger?: Logger;
    /**
     * the database to use, which the caller owns: kept at stop() (the restore drill starts the
     * services again on what it restored); a new one, dropped at stop(), when not given
     */
    dbName?: string;
  } = {},
) {
  const urls = testUrls();
  const dbName = opts.dbName ?? uniqueName(def.name);
  const exchange = opts.exchange ?? uniqueName('events');
  const conn = await connectMongo({
    url: urls.mongoUrl,
    dbName,
    logger: silentLogger,
    timeoutMs: 20000,
  });
  const recorder = await new EventRecorder(urls.amqpUrl, exchange).start();
  const bus = new EventBus({
    url: urls.amqpUrl,
    exchange,
    service: def.name,
    logger: silentLogger,
    retryBaseMs: 100,
    probeIntervalMs: 200,
  });
  await bus.start();
  const config = def.loadConfig({
    NODE_ENV: 'test',
    MONGO_URL: urls.mongoUrl,
    MONGO_DB: dbName,
    AMQP_URL: urls.amqpUrl,
    AMQP_EXCHANGE: exchange,
    AMQP_RETRY_BASE_MS: '100',
    JWT_PUBLIC_KEY: testKeys().publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    METRICS_ENABLED: 'false',
    OUTBOX_INTERVAL_MS: '200',
    ...testInternalEnv(def.name),
    ...opts.env,
  });
  const kit = new ServiceKit(def.name, config, opts.logger ?? silentLogger, conn, bus);
  const service = await def.compose(kit, opts.options ?? ({} as O));
  await kit.subscribe(service.handlers);
  await kit.start();
  const server = await listen(service.app);
  return {
    url: server.url,
    http: api(server.url),
    service,
    kit,
    conn,
    bus,
    recorder,
    config,
    exchange,
    /** the queues the service consumes from */
    queues: [bus.queue, bus.retryQueue, bus.deadLetterQueue],
    /** publishes an event on the service's exchange, as another service would */
    publish: (event: DomainEvent) => bus.publish(event),
    async stop() {
      await server.close();
      // background work first: the relay must not publish on a closed channel
      await kit.stop();
      await bus.stop();
      await recorder.stop();
      // a shared exchange (and its queues) belongs to whoever created it
      if (!opts.exchange)
        await deleteBrokerObjects(urls.amqpUrl, exchange, topologyQueues(exchange));
      if (!opts.dbName) await dropDatabase(urls.mongoUrl, dbName).catch(() => undefined);
      await conn.close();
    },
  };
}
