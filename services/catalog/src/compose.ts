import {
  OutboxRelay,
  ProcessedEvents,
  TokenVerifier,
  ensureIndexes,
  pingMongo,
  type Connection,
  type EventHandlers,
  type HealthCheck,
  type Logger,
  type Publisher,
} from '@furniture/platform';
import type { Collection, Document } from 'mongodb';
import { createApp } from './app';
import type { CatalogConfig } from './config';
import { CategoriesRepository } from './data-access/categories-repository';
import { LotsRepository } from './data-access/lots-repository';
import { registerModels } from './data-access/models';
import { OutboxMessages } from './data-access/outbox-messages';
import { ReadCache } from './data-access/read-cache';
import { CategoriesService } from './domain/categories-service';
import { LotEvents } from './domain/lot-events';
import { LotsService } from './domain/lots-service';
import { catalogHandlers } from './entry-points/messaging/handlers';

type ComposeConfig = Pick<
  CatalogConfig,
  | 'jwtPublicKey'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
  | 'READ_CACHE_TTL_MS'
  | 'OUTBOX_INTERVAL_MS'
  | 'METRICS_ENABLED'
>;

/**
 * Wires the catalog from its connections: used by start.ts and by the tests alike. Creates the
 * indexes and seeds the eight known categories on first start.
 */
export async function composeCatalog(opts: {
  config: ComposeConfig;
  logger: Logger;
  conn: Connection;
  publisher: Publisher;
  brokerConnected?: HealthCheck;
  isAccepting?: () => boolean;
}) {
  const { config, logger, conn } = opts;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const relay = new OutboxRelay({
    collections: [models.Lot, models.Category, models.OutboxMessage].map(
      (m) => m.collection as unknown as Collection<Document>,
    ),
    publisher: opts.publisher,
    logger,
    intervalMs: config.OUTBOX_INTERVAL_MS,
  });
  const cache = new ReadCache(config.READ_CACHE_TTL_MS);
  const onWrite = () => {
    cache.invalidate();
    relay.kick();
  };
  const lotsRepo = new LotsRepository(conn, models, onWrite);
  const categoriesRepo = new CategoriesRepository(conn, models, onWrite);
  const outbox = new OutboxMessages(models, onWrite);

  const categories = new CategoriesService({
    categories: categoriesRepo,
    lots: lotsRepo,
    cache,
  });
  const lots = new LotsService({ lots: lotsRepo, categories: categoriesRepo, cache });
  const lotEvents = new LotEvents({ lots: lotsRepo, outbox });
  const seeded = await categories.seed();
  if (seeded > 0) logger.info({ seeded }, 'known categories created');

  const verifier = new TokenVerifier({
    publicKey: config.jwtPublicKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
  const app = createApp({
    logger,
    verifier,
    categories,
    lots,
    checks: { mongo: () => pingMongo(conn) },
    info: opts.brokerConnected ? { broker: opts.brokerConnected } : undefined,
    isAccepting: opts.isAccepting,
    metrics: config.METRICS_ENABLED,
  });

  /** the consumer's handlers, each event id handled once */
  const handlers: EventHandlers = new ProcessedEvents(conn).wrap(catalogHandlers(lotEvents));

  return {
    app,
    relay,
    cache,
    categories,
    lots,
    lotEvents,
    handlers,
    stop: () => relay.stop(),
  };
}
