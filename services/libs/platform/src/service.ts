import type { Express } from 'express';
import type { HealthCheck } from './http';
import { Lifecycle, runMain } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { EventBus, type EventHandlers } from './messaging/bus';
import type { Publisher } from './messaging/outbox';
import { connectMongo, type Connection } from './mongo';

/** The configuration keys every service's composition root reads (baseConfigShape + own). */
export interface ServiceBaseConfig {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  MONGO_URL: string;
  MONGO_DB: string;
  AMQP_URL: string;
  AMQP_EXCHANGE: string;
  AMQP_PREFETCH: number;
  AMQP_MAX_ATTEMPTS: number;
  AMQP_RETRY_BASE_MS: number;
  PORT: number;
  HOST: string;
}

/** What a service's compose function receives (the same in start.ts and in tests). */
export interface ServiceDeps<C> {
  config: C;
  logger: Logger;
  conn: Connection;
  publisher: Publisher;
  brokerConnected: HealthCheck;
  isAccepting: () => boolean;
}

/** What a service's compose function gives back. */
export interface ComposedService {
  app: Express;
  /** events this service consumes (subscribed after start) */
  handlers?: EventHandlers;
  /** background work: the outbox relay, read-model rebuilds, seeding */
  start(): Promise<void> | void;
  /** stops the background work (the HTTP server and connections are closed by runService) */
  stop(): Promise<void>;
}

/**
 * The composition root shared by every service: config, logger, graceful shutdown, its own
 * database, the event bus, the service itself, its subscriptions, its background work, then the
 * HTTP listener.
 * Shutdown runs in reverse: stop accepting, finish requests, stop background work, close the
 * broker and the database.
 */
export function runService<C extends ServiceBaseConfig>(opts: {
  name: string;
  loadConfig: () => C;
  compose: (deps: ServiceDeps<C>) => Promise<ComposedService>;
  /** extra fields for the "listening" log line */
  describe?: (config: C) => Record<string, unknown>;
}): void {
  runMain(opts.name, async () => {
    const config = opts.loadConfig();
    const logger = createLogger(opts.name, config.LOG_LEVEL);
    const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
    lifecycle.handleSignals();

    const conn = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
    lifecycle.onShutdown('mongo', () => conn.close());

    const bus = new EventBus({
      url: config.AMQP_URL,
      exchange: config.AMQP_EXCHANGE,
      service: opts.name,
      logger,
      prefetch: config.AMQP_PREFETCH,
      maxAttempts: config.AMQP_MAX_ATTEMPTS,
      retryBaseMs: config.AMQP_RETRY_BASE_MS,
    });
    await bus.start();
    lifecycle.onShutdown('broker', () => bus.stop());

    const service = await opts.compose({
      config,
      logger,
      conn,
      publisher: bus,
      brokerConnected: () => bus.isConnected(),
      isAccepting: lifecycle.isAccepting,
    });
    lifecycle.onShutdown('background work', () => service.stop());
    if (service.handlers) await bus.subscribe(service.handlers);
    await service.start();

    await lifecycle.listen(service.app, config.PORT, config.HOST);
    logger.info(
      { port: config.PORT, ...opts.describe?.(config) },
      `${opts.name} service listening`,
    );
  });
}
