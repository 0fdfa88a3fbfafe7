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
import type { ApplicationsConfig } from './config';
import { ApplicationsRepository } from './data-access/applications-repository';
import { LotsRepository } from './data-access/lots-repository';
import { registerModels } from './data-access/models';
import { ReservationsRepository } from './data-access/reservations-repository';
import { WishesRepository } from './data-access/wishes-repository';
import { LotReactions } from './domain/lot-reactions';
import { LotSync, type LotSnapshotSource } from './domain/lot-sync';
import { Moderation } from './domain/moderation';
import { PublicApplications } from './domain/public-applications';
import { QueueCounts } from './domain/queue-counts';
import { WishesService } from './domain/wishes-service';
import { lotEventHandlers } from './entry-points/messaging/lot-events';
import { CatalogClient } from './integrations/catalog-client';

type ComposeConfig = Pick<
  ApplicationsConfig,
  | 'METRICS_ENABLED'
  | 'jwtPublicKey'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
  | 'CATALOG_URL'
  | 'MAX_OPEN_APPLICATIONS_PER_PHONE'
  | 'LOT_SNAPSHOT_PAGE_SIZE'
  | 'RESERVATION_CLAIM_STALE_SECONDS'
  | 'STATUS_CHECK_MAX_RESULTS'
>;

/**
 * Wires the applications service from its connections: used by start.ts and by the tests alike.
 * The caller starts the relay, subscribes `handlers` and runs `lotSync.start(...)`.
 */
export async function composeApplications(opts: {
  config: ComposeConfig;
  logger: Logger;
  conn: Connection;
  publisher: Publisher;
  /** where the lot snapshot comes from (the catalog's internal endpoint by default) */
  lotSource?: LotSnapshotSource;
  brokerConnected?: HealthCheck;
  isAccepting?: () => boolean;
  relayIntervalMs?: number;
}) {
  const { config, logger, conn } = opts;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const applications = new ApplicationsRepository(conn, models);
  const reservations = new ReservationsRepository(models);
  const lots = new LotsRepository(models);
  const wishesRepo = new WishesRepository(conn, models);
  const queueCounts = new QueueCounts();

  const relay = new OutboxRelay({
    collections: [
      models.Application.collection as unknown as Collection<Document>,
      models.Wish.collection as unknown as Collection<Document>,
    ],
    publisher: opts.publisher,
    logger,
    intervalMs: opts.relayIntervalMs,
  });
  const onEvents = () => relay.kick();

  const publicApplications = new PublicApplications({
    applications,
    lots,
    reservations,
    queueCounts,
    maxOpenPerPhone: config.MAX_OPEN_APPLICATIONS_PER_PHONE,
    statusCheckMax: config.STATUS_CHECK_MAX_RESULTS,
    onEvents,
  });
  const moderation = new Moderation({
    applications,
    lots,
    reservations,
    queueCounts,
    staleClaimMs: config.RESERVATION_CLAIM_STALE_SECONDS * 1000,
    onEvents,
  });
  const wishes = new WishesService({ wishes: wishesRepo, onEvents });
  const reactions = new LotReactions({
    applications,
    lots,
    reservations,
    queueCounts,
    onEvents,
  });
  const handlers: EventHandlers = lotEventHandlers(reactions, new ProcessedEvents(conn));
  const lotSync = new LotSync({
    lots,
    source: opts.lotSource ?? new CatalogClient(config.CATALOG_URL),
    logger,
    pageSize: config.LOT_SNAPSHOT_PAGE_SIZE,
  });

  const verifier = new TokenVerifier({
    publicKey: config.jwtPublicKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
  const app = createApp({
    logger,
    verifier,
    publicApplications,
    moderation,
    wishes,
    checks: { mongo: () => pingMongo(conn) },
    info: opts.brokerConnected ? { broker: opts.brokerConnected } : undefined,
    isAccepting: opts.isAccepting,
    metrics: config.METRICS_ENABLED,
  });

  return {
    app,
    relay,
    handlers,
    lotSync,
    lots,
    stop: async () => {
      lotSync.stop();
      await relay.stop();
    },
  };
}
