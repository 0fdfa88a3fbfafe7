import {
  LotReadModel,
  LotReadModelSync,
  catalogSnapshotSource,
  defineService,
  ensureIndexes,
  type LotSnapshotSource,
  type ServiceKit,
} from '@furniture/platform';
import { createApp } from './app';
import { loadApplicationsConfig, type ApplicationsConfig } from './config';
import { ApplicationsRepository } from './data-access/applications-repository';
import {
  ensureLookupIndexes,
  mongoLookupLimit,
  mongoWriteLimits,
  purgeExpiredLookups,
} from './data-access/lookup-limit';
import { registerModels } from './data-access/models';
import { PrivacyRepository } from './data-access/privacy-repository';
import { WishesRepository } from './data-access/wishes-repository';
import type { Calendar } from './domain/calendar';
import { LotReactions } from './domain/lot-reactions';
import { Pickups } from './domain/pickups';
import { Moderation } from './domain/moderation';
import { Privacy } from './domain/privacy';
import { PublicApplications } from './domain/public-applications';
import { QueueCounts } from './domain/queue-counts';
import { WishesService } from './domain/wishes-service';
import { eventHandlers } from './entry-points/messaging/handlers';

export interface ApplicationsOptions {
  /** where the lot snapshot comes from (the catalog's internal endpoint by default) */
  lotSource?: LotSnapshotSource;
  /** the clock of the pickup dates (tests set the day) */
  calendar?: Calendar;
  /** the clock of the retention job (tests set it) */
  now?: () => Date;
}

/** Wires the applications service's domain on the kit (start.ts and the tests alike). */
export async function composeApplications(
  kit: ServiceKit<ApplicationsConfig>,
  options: ApplicationsOptions = {},
) {
  const { config, logger, conn } = kit;
  const models = registerModels(conn);
  await ensureIndexes(conn);
  const lots = new LotReadModel(conn);
  await lots.ensureIndexes();

  const applications = new ApplicationsRepository(conn, models);
  if (await applications.openCounts()) {
    // in the background: the service answers meanwhile, counting per request as before
    kit.onStart(() => {
      void applications
        .rebuildCounts((msg) => logger.info(msg))
        .catch((err: unknown) => logger.error({ err }, 'rebuilding the application counts failed'));
    });
  } else if (await applications.openQueues()) {
    // the lots' summaries alone (lot-queues.ts), in the background too
    kit.onStart(() => {
      void applications
        .rebuildQueues((msg) => logger.info(msg))
        .catch((err: unknown) => logger.error({ err }, 'rebuilding the lot queues failed'));
    });
  }
  const wishesRepo = new WishesRepository(conn, models);
  if (await wishesRepo.openCounts()) {
    kit.onStart(() => {
      void wishesRepo
        .rebuildCounts((msg) => logger.info(msg))
        .catch((err: unknown) => logger.error({ err }, 'rebuilding the wish counts failed'));
    });
  }
  // records an older replica stored without their part during a rolling upgrade (blocks.ts)
  kit.every('parts of the newest applications and wishes', 60_000, async () => {
    const placed = (await applications.placeNewest()) + (await wishesRepo.placeNewest());
    if (placed > 0) logger.info({ placed }, 'newest applications and wishes given their part');
  });
  const queueCounts = new QueueCounts();
  const onEvents = kit.outbox([models.Application, models.Wish]);

  const publicApplications = new PublicApplications({
    applications,
    lots,
    queueCounts,
    maxOpenPerPhone: config.MAX_OPEN_APPLICATIONS_PER_PHONE,
    statusCheckMax: config.STATUS_CHECK_MAX_RESULTS,
    onEvents,
  });
  const pickups = new Pickups({
    applications,
    lots,
    queueCounts,
    onEvents,
    calendar: options.calendar ?? { now: () => new Date(), timeZone: config.TIMEZONE },
    logger,
    pickupDays: config.PICKUP_DAYS,
    reminderDays: config.PICKUP_REMINDER_DAYS,
    autoApproveNext: config.PICKUP_LAPSE_AUTO_APPROVE,
  });
  kit.every('pickup dates', config.PICKUP_CHECK_INTERVAL_MS, () => pickups.checkDeadlines());
  const moderation = new Moderation({ applications, lots, queueCounts, pickups, onEvents });
  const wishes = new WishesService({ wishes: wishesRepo, lots, onEvents });
  const reactions = new LotReactions({ applications, lots, queueCounts, pickups, onEvents });

  const privacy = new Privacy({
    privacy: new PrivacyRepository(conn, models),
    onEvents,
    now: options.now ?? (() => new Date()),
    retentionDays: config.PERSONAL_DATA_RETENTION_DAYS,
    logger,
  });
  kit.every('personal data retention', config.RETENTION_CHECK_INTERVAL_MS, () =>
    privacy.applyRetention(),
  );

  const lotSync = new LotReadModelSync({
    lots,
    source: options.lotSource ?? catalogSnapshotSource(config.CATALOG_URL),
    logger,
    pageSize: config.LOT_SNAPSHOT_PAGE_SIZE,
  });
  // in the background: the API answers meanwhile, from the events that arrive
  kit.onStart(() => lotSync.start(config.LOT_SNAPSHOT_SYNC));
  kit.onStop(() => lotSync.stop());

  await ensureLookupIndexes(conn);
  const lookupLimit = mongoLookupLimit(conn, {
    perIp: config.PHONE_LOOKUPS_PER_IP,
    windowSeconds: config.PHONE_LOOKUPS_WINDOW_SECONDS,
  });
  const writeLimits = mongoWriteLimits(conn, {
    perIp: config.PUBLIC_WRITES_PER_IP,
    windowSeconds: config.PUBLIC_WRITES_PER_IP_WINDOW_SECONDS,
    perPhone: config.PUBLIC_WRITES_PER_PHONE,
    phoneWindowSeconds: config.PUBLIC_WRITES_PER_PHONE_WINDOW_SECONDS,
  });
  // what a TTL index would do on MongoDB (FerretDB has none)
  kit.every('rate limit counters housekeeping', 3600 * 1000, () => purgeExpiredLookups(conn));
  const app = createApp({
    ...kit.appDeps(),
    publicApplications,
    moderation,
    wishes,
    privacy,
    lookupLimit,
    writeLimits,
  });
  return {
    app,
    handlers: eventHandlers(reactions),
    lotSync,
    lots,
    moderation,
    reactions,
    pickups,
    privacy,
  };
}

export const applicationsService = defineService({
  name: 'applications',
  loadConfig: loadApplicationsConfig,
  compose: composeApplications,
});
