import type { Express } from 'express';
import type { Collection, Document } from 'mongodb';
import { Gauge, Histogram } from 'prom-client';
import { Limits, type ServiceName } from '@furniture/contracts';
import { readSecret } from './config';
import { TokenVerifier } from './auth';
import { RevokedTokens, RevokingEvents, loadRevocations } from './revocations';
import { isTransientError } from './failures';
import {
  internalAuthFromConfig,
  internalClient,
  type InternalClient,
  type InternalCredential,
} from './internal-calls';
import { createMetricsApp, metricsRegistry, type HealthCheck, type ServiceAppDeps } from './http';
import { Lifecycle, runMain } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { EventBus, type EventHandlers } from './messaging/bus';
import { OutboxRelay } from './messaging/outbox';
import { ProcessedEvents } from './messaging/processed';
import { Store, type Lease, type StoreJob } from './store';
import {
  connectMongo,
  freshMongoAnswers,
  pingMongo,
  watchMongoConnection,
  type Connection,
} from './mongo';

/** The configuration keys the kit reads (baseConfigShape); each service adds its own. */
export interface ServiceBaseConfig {
  NODE_ENV: string;
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  DRAIN_DELAY_MS: number;
  MONGO_URL: string;
  MONGO_DB: string;
  AMQP_URL: string;
  AMQP_EXCHANGE: string;
  AMQP_QUEUE_TYPE: 'classic' | 'quorum';
  AUTH_URL?: string;
  INTERNAL_SECRET?: string;
  INTERNAL_SECRET_FILE?: string;
  INTERNAL_CALLERS?: string;
  INTERNAL_CALLERS_FILE?: string;
  AMQP_PREFETCH: number;
  AMQP_MAX_ATTEMPTS: number;
  AMQP_RETRY_BASE_MS: number;
  PORT: number;
  HOST: string;
  JWT_PUBLIC_KEY?: string;
  JWT_PUBLIC_KEY_FILE?: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  METRICS_ENABLED: boolean;
  METRICS_PORT: number;
  OUTBOX_INTERVAL_MS: number;
  /** the leased recount of kept counts (config.ts); defaults when absent */
  COUNTS_RECOUNT_MS?: number;
  COUNTS_RECOUNT_SETTLE_MS?: number;
  PROCESSED_EVENTS_RETENTION_DAYS: number;
  MAX_CONCURRENT_REQUESTS: number;
  MAX_REQUEST_WAIT_MS: number;
  PUBLIC_REQUEST_SHARE: number;
}

/** Anything with a driver collection: a mongoose model, or a collection itself. */
type HasCollection = { collection: unknown } | Collection<Document>;

type Job = StoreJob & { timer?: NodeJS.Timeout; oneReplica?: boolean };

/**
 * What every service wires the same way, in one place used identically by `runService` and by the
 * test harness (`startService` in ./testing): the token verifier, the outbox relay, scheduled
 * jobs, readiness checks, metrics of the event flow, and idempotent event handling. A service's
 * compose function receives the kit and wires only its domain.
 */
export class ServiceKit<C extends ServiceBaseConfig = ServiceBaseConfig> {
  readonly verifier: TokenVerifier;
  /** sessions and users revoked by the auth service's events, checked by the verifier */
  readonly revoked = new RevokedTokens();
  /** aborted by stop (ends a revocation catch-up still waiting for auth) */
  private readonly stopping = new AbortController();
  readonly processed: ProcessedEvents;
  /** this service's credential for /internal calls, and the digests of those who may call it */
  private readonly internalAuth: {
    credential?: InternalCredential;
    callers: ReturnType<typeof internalAuthFromConfig>['callers'];
  };
  /** the service database's storage module: repositories declare what they store there */
  readonly store: Store;
  /** settles when the counts the store found outdated at start are rebuilt */
  storeRebuilt: Promise<void> = Promise.resolve();
  private readonly relays: OutboxRelay[] = [];
  private readonly jobs: Job[] = [];
  private readonly starters: (() => unknown)[] = [];
  private readonly stoppers: (() => Promise<unknown> | unknown)[] = [];
  private readonly checks: Record<string, HealthCheck>;
  /** shown on /ready without failing it (catch-ups that go on after the start) */
  private readonly infos: Record<string, HealthCheck> = {};
  private started = false;

  constructor(
    readonly name: string,
    readonly config: C,
    readonly logger: Logger,
    readonly conn: Connection,
    readonly bus: EventBus,
    private readonly isAccepting?: () => boolean,
  ) {
    this.verifier = new TokenVerifier({
      publicKey: readSecret(config.JWT_PUBLIC_KEY, config.JWT_PUBLIC_KEY_FILE, 'JWT_PUBLIC_KEY'),
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      isRevoked: (token) => this.revoked.isRevoked(token),
    });
    this.internalAuth = internalAuthFromConfig(name, config);
    this.processed = new ProcessedEvents(conn);
    this.store = new Store(conn);
    this.checks = { mongo: () => pingMongo(conn) };
    const retentionMs = config.PROCESSED_EVENTS_RETENTION_DAYS * 24 * 3600 * 1000;
    this.every('processed events housekeeping', 3600 * 1000, () =>
      this.processed.purgeBefore(new Date(Date.now() - retentionMs)),
    );
  }

  /** A client of another service's /internal routes, with this service's credential. */
  internalClient(service: ServiceName, baseUrl: string, timeoutMs?: number): InternalClient {
    return internalClient({
      service,
      baseUrl,
      credential: this.internalAuth.credential,
      timeoutMs,
    });
  }

  /** A readiness check besides the database (S3 for media). Also a dependency of the handlers. */
  check(name: string, check: HealthCheck): void {
    this.checks[name] = check;
  }

  /**
   * The outbox relay of these collections, started and stopped with the service. The store asks
   * it to publish after every write through the store that carries events; the answer asks it
   * by hand (writes around the store only).
   */
  outbox(collections: HasCollection[]): () => void {
    const relay = new OutboxRelay({
      collections: collections.map(
        (c) => ('collection' in c ? c.collection : c) as Collection<Document>,
      ),
      publisher: this.bus,
      logger: this.logger,
      intervalMs: this.config.OUTBOX_INTERVAL_MS,
    });
    this.relays.push(relay);
    // every write through the store that carries events asks it to publish at once
    this.store.alsoKick(() => relay.kick());
    return () => relay.kick();
  }

  /** Publishes every pending outbox event now; resolves when done (tests). */
  async flushOutbox(): Promise<number> {
    let n = await this.store.flushOutbox();
    for (const relay of this.relays) n += await relay.sweep();
    return n;
  }

  /**
   * Work that runs every `everyMs` while the service runs (what TTL indexes would do, …).
   * `oneReplica`: a pass runs only in the replica that holds the job's lease (Leases), so that
   * several replicas do not do it twice; its writes must still be guarded.
   */
  every(
    name: string,
    everyMs: number,
    run: (lease?: Lease) => Promise<unknown>,
    opts: { oneReplica?: boolean } = {},
  ): void {
    this.jobs.push({ name, everyMs, run, oneReplica: opts.oneReplica });
  }

  onStart(fn: () => unknown): void {
    this.starters.push(fn);
  }

  /**
   * Work that should be done before the service answers but needs something that may be away
   * (the erasure ledger on S3): waited for at most `waitMs` at start. Not done by then, the
   * service starts anyway, tries again in the background (a doubling pause up to a minute) until
   * it succeeds, and /ready shows `<name>: false` meanwhile, without failing it: an outage of S3
   * holds up no rollout and no scale-up (issue 43).
   */
  catchUp(name: string, run: () => Promise<unknown>, opts: { waitMs?: number } = {}): void {
    let done = false;
    this.infos[name] = () => done;
    this.onStart(async () => {
      const loop = (async () => {
        for (let pause = 1000; !this.stopping.signal.aborted; pause = Math.min(pause * 2, 60_000)) {
          try {
            await run();
            done = true;
            return;
          } catch (err) {
            this.logger.warn(
              { err: (err as Error).message, work: name, retryInMs: pause },
              'catch-up at start failed; the service answers and tries again',
            );
            await new Promise((resolve) => setTimeout(resolve, pause).unref());
          }
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, opts.waitMs ?? 5000);
        timer.unref();
      });
      await Promise.race([loop, waited]);
      clearTimeout(timer);
      if (!done)
        this.logger.warn(
          { work: name },
          'not caught up at start: answering meanwhile (see /ready)',
        );
    });
  }

  onStop(fn: () => Promise<unknown> | unknown): void {
    this.stoppers.push(fn);
  }

  /** What createApp takes besides the service's own objects. */
  appDeps(): ServiceAppDeps {
    return {
      logger: this.logger,
      verifier: this.verifier,
      checks: this.checks,
      info: { broker: () => this.bus.isConnected(), ...this.infos },
      details: () => ({ consumer: this.bus.consumerState() }),
      isAccepting: this.isAccepting,
      metrics: this.config.METRICS_ENABLED,
      shedding: {
        concurrency: this.config.MAX_CONCURRENT_REQUESTS,
        maxWaitMs: this.config.MAX_REQUEST_WAIT_MS,
        publicShare: this.config.PUBLIC_REQUEST_SHARE,
      },
      internalCallers: this.internalAuth.callers,
    };
  }

  /** The handlers with each event id handled once, subscribed with the readiness checks. */
  async subscribe(handlers: EventHandlers | undefined): Promise<void> {
    if (!handlers || Object.keys(handlers).length === 0) return;
    await this.bus.subscribe(this.processed.wrap(handlers), { dependencies: this.checks });
  }

  /** Loads the sessions ended within an access token's lifetime (and a margin), in the background. */
  private async catchUpRevocations(): Promise<void> {
    const authUrl = this.config.AUTH_URL;
    if (!authUrl) return;
    const loaded = await loadRevocations({
      authUrl,
      credential: this.internalAuth.credential,
      revoked: this.revoked,
      windowMs: 2 * Limits.accessTokenTtlSeconds * 1000,
      signal: this.stopping.signal,
    });
    if (loaded === null)
      this.logger.warn('could not load the ended sessions from auth; the events alone count');
    else this.logger.debug({ loaded }, 'ended sessions loaded');
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.processed.ensureIndexes();
    this.storeRebuilt = (await this.store.open(this.logger)).rebuilt;
    this.store.onRecount = (list, keys) =>
      this.logger.warn({ list, keys }, 'kept counts had drifted and were repaired');
    const upkeep = this.store.jobs({
      recountEveryMs: this.config.COUNTS_RECOUNT_MS,
      recountSettleMs: this.config.COUNTS_RECOUNT_SETTLE_MS,
    });
    for (const job of upkeep)
      this.every(job.name, job.everyMs, job.run, { oneReplica: job.oneReplica });
    // a logout, password change, demotion or deletion reaches this process within moments; what
    // ended before it started, or while its broker connection was gone, it asks the auth service
    await this.bus.broadcast(
      RevokingEvents,
      (event) => this.revoked.apply(event),
      () => void this.catchUpRevocations(),
    );
    // the entities' outboxes: the store kicks the relay after every write that carries events
    this.store.startRelay({
      publisher: this.bus,
      logger: this.logger,
      intervalMs: this.config.OUTBOX_INTERVAL_MS,
    });
    for (const relay of this.relays) relay.start();
    const leases = this.store.leases();
    for (const job of this.jobs) {
      const pass = job.oneReplica
        ? async () => {
            // held for one and a half intervals from the pass's start and renewed while it runs:
            // the holder's next pass renews it, the others skip theirs until it ran out
            await leases.whileHeld(`job:${job.name}`, job.everyMs * 1.5, job.run, { keep: true });
          }
        : job.run;
      job.timer = setInterval(() => {
        pass().catch((err: unknown) =>
          this.logger[isTransientError(err) ? 'info' : 'warn'](
            { err: (err as Error).message, job: job.name },
            'scheduled job failed; it runs again later',
          ),
        );
      }, job.everyMs);
      job.timer.unref();
    }
    for (const fn of this.starters) await fn();
    if (this.config.METRICS_ENABLED) this.registerMetrics();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    for (const job of this.jobs) if (job.timer) clearInterval(job.timer);
    for (const fn of [...this.stoppers].reverse()) await fn();
    await Promise.all([this.store.stopRelay(), ...this.relays.map((r) => r.stop())]);
  }

  private registerMetrics(): void {
    const registry = metricsRegistry(this.name);
    const gauge = (name: string, help: string, collect: () => Promise<number | null>) => {
      if (registry.getSingleMetric(name)) return;
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const value = await collect().catch(() => null);
          if (value !== null) this.set(value);
        },
      });
    };
    gauge(
      'events_dead_letter_depth',
      'Messages in this service’s dead-letter queue (npm run dlq lists and replays them)',
      () => this.bus.deadLetterDepth(),
    );
    gauge('events_consumer_paused', '1 while consuming waits for a dependency', async () =>
      this.bus.consumerState().state === 'paused' ? 1 : 0,
    );
    gauge('outbox_backlog', 'Documents with events not yet published', async () => {
      let n = await this.store.outboxBacklog();
      for (const relay of this.relays) n += await relay.backlog();
      return n;
    });
  }
}

/** What a service's compose function gives back: its app, its handlers, and whatever tests use. */
export interface ComposedService {
  app: Express;
  /** events this service consumes (wrapped for idempotency and subscribed by the kit) */
  handlers?: EventHandlers;
}

/** A service: its name, its configuration, and its domain wiring on top of the kit. */
export interface ServiceDefinition<C extends ServiceBaseConfig, S extends ComposedService, O> {
  name: string;
  loadConfig: (env?: NodeJS.ProcessEnv) => C;
  compose: (kit: ServiceKit<C>, options: O) => Promise<S>;
  /** extra fields for the "listening" log line */
  describe?: (config: C) => Record<string, unknown>;
}

export function defineService<C extends ServiceBaseConfig, S extends ComposedService, O = object>(
  def: ServiceDefinition<C, S, O>,
): ServiceDefinition<C, S, O> {
  return def;
}

/** The bus of a service from its configuration. */
export function busFromConfig(name: string, config: ServiceBaseConfig, logger: Logger): EventBus {
  const age = config.METRICS_ENABLED ? eventAgeHistogram(name) : undefined;
  return new EventBus({
    url: config.AMQP_URL,
    exchange: config.AMQP_EXCHANGE,
    queueType: config.AMQP_QUEUE_TYPE,
    service: name,
    logger,
    prefetch: config.AMQP_PREFETCH,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    retryBaseMs: config.AMQP_RETRY_BASE_MS,
    onHandled: age ? (event, seconds) => age.observe({ event: event.name }, seconds) : undefined,
  });
}

/** Time from an event's occurrence to its handling: a stuck flow between two services shows here. */
function eventAgeHistogram(name: string): Histogram {
  const registry = metricsRegistry(name);
  return (
    (registry.getSingleMetric('events_age_at_handling_seconds') as Histogram | undefined) ??
    new Histogram({
      name: 'events_age_at_handling_seconds',
      help: 'Seconds from an event’s occurrence to the end of its handling here',
      labelNames: ['event'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
      registers: [registry],
    })
  );
}

/**
 * The composition root shared by every service: config, logger, graceful shutdown, its own
 * database, the event bus, the kit, the service itself, its subscriptions, its background work,
 * then the HTTP listener. Shutdown runs in reverse: stop accepting, finish requests, stop
 * background work, close the broker and the database, all within the grace time.
 */
export function runService<C extends ServiceBaseConfig, S extends ComposedService, O>(
  def: ServiceDefinition<C, S, O>,
  options: O = {} as O,
): void {
  runMain(def.name, async () => {
    const config = def.loadConfig();
    const logger = createLogger(def.name, config.LOG_LEVEL);
    const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS, config.DRAIN_DELAY_MS);
    lifecycle.handleSignals(def.name);

    const conn = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
    lifecycle.onShutdown('mongo', () => conn.close());
    const stopWatching = watchMongoConnection({
      ping: () => pingMongo(conn),
      freshAnswers: () => freshMongoAnswers(config.MONGO_URL),
      onStuck: () => {
        logger.error(
          'MongoDB answers a new connection but not this process’s one; restarting the service',
        );
        // at once, not by the graceful shutdown: its steps would wait for the same broken
        // connection; unacknowledged events return to the queue, unpublished ones wait in the
        // outbox (the crash the fault suite's kill -9 already proves safe)
        setTimeout(() => process.exit(1), 200).unref();
      },
    });
    lifecycle.onShutdown('mongo watch', stopWatching);

    const bus = busFromConfig(def.name, config, logger);
    await bus.start();
    lifecycle.onShutdown('broker', () => bus.stop());

    const kit = new ServiceKit(def.name, config, logger, conn, bus, lifecycle.isAccepting);
    const service = await def.compose(kit, options);
    lifecycle.onShutdown('background work', () => kit.stop());
    await kit.subscribe(service.handlers);
    await kit.start();

    await lifecycle.listen(service.app, config.PORT, config.HOST);
    const metrics = config.METRICS_ENABLED
      ? await lifecycle.listen(createMetricsApp(def.name), config.METRICS_PORT, config.HOST)
      : undefined;
    const metricsPort = (metrics?.address() as { port?: number } | null)?.port;
    logger.info(
      { port: config.PORT, metricsPort, ...def.describe?.(config) },
      `${def.name} service listening`,
    );
  });
}
