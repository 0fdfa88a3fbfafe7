import { backfillApplicationKeys } from './data-access/applications-keys';
import { backfillSeats } from './data-access/handover-seats';
import { randomBytes } from 'node:crypto';
import {
  LotReadModel,
  LotReadModelSync,
  catalogSnapshotSource,
  defineService,
  ensureIndexes,
  erasureLedgerOf,
  ledgerWatermark,
  nextId,
  phoneLookupLimit,
  publicWriteLimits,
  readSecret,
  type LotSnapshotSource,
  type Logger,
  type ServiceKit,
} from '@furniture/platform';
import { createApp } from './app';
import { loadApplicationsConfig, type ApplicationsConfig } from './config';
import { ApplicationsRepository } from './data-access/applications-repository';
import { ErasureMarks } from './data-access/erasure-marks';
import { registerModels } from './data-access/models';
import { PrivacyRepository } from './data-access/privacy-repository';
import { ReferralQuotaRepository } from './data-access/referral-quota-repository';
import { WishesRepository } from './data-access/wishes-repository';
import { HandoversRepository } from './data-access/handovers-repository';
import { HandoverBookings } from './domain/handover-bookings';
import { LinkSecrets } from './domain/link-secrets';
import { Handovers, type DonationContactsSource } from './domain/handovers';
import { catalogDonations } from './integrations/catalog-donations';
import type { Calendar } from './domain/calendar';
import { LotReactions } from './domain/lot-reactions';
import { Pickups } from './domain/pickups';
import { MessageRequests } from './domain/message-requests';
import { Moderation } from './domain/moderation';
import { Privacy, type DonorRecordsSource } from './domain/privacy';
import { PublicApplications } from './domain/public-applications';
import { Referrals } from './domain/referrals';
import { WishesService } from './domain/wishes-service';
import { eventHandlers } from './entry-points/messaging/handlers';
import { catalogDonors } from './integrations/catalog-donors';

export interface ApplicationsOptions {
  /** where the lot snapshot comes from (the catalog's internal endpoint by default) */
  lotSource?: LotSnapshotSource;
  /** the clock of the pickup dates (tests set the day) */
  calendar?: Calendar;
  /** the clock of the retention job (tests set it) */
  now?: () => Date;
  /** the donations of a number (the catalog's internal privacy calls by default) */
  donors?: DonorRecordsSource;
  /** donations as drivers need them (the catalog's internal call by default) */
  donations?: DonationContactsSource;
}

/** LINK_SECRET: given (required in production), or a new one for this process elsewhere. */
function linkSecret(config: ApplicationsConfig, logger: Logger): string {
  if (config.LINK_SECRET || config.LINK_SECRET_FILE)
    return readSecret(config.LINK_SECRET, config.LINK_SECRET_FILE, 'LINK_SECRET').trim();
  if (config.NODE_ENV === 'production')
    throw new Error(
      'Invalid configuration:\n  LINK_SECRET: set LINK_SECRET or LINK_SECRET_FILE (32+ characters, e.g. openssl rand -base64 32)',
    );
  logger.warn('LINK_SECRET is not set: booking links and feed keys change at every start');
  return randomBytes(32).toString('base64url');
}

/** Wires the applications service's domain on the kit (start.ts and the tests alike). */
export async function composeApplications(
  kit: ServiceKit<ApplicationsConfig>,
  options: ApplicationsOptions = {},
) {
  const { config, logger, conn } = kit;
  const catalog = kit.internalClient('catalog', config.CATALOG_URL);
  const models = registerModels(conn);
  // keys of applications stored before them, then the unique indexes on them (issue 42)
  const keyed = await backfillApplicationKeys(
    models.Application.collection as never,
    config.MAX_OPEN_APPLICATIONS_PER_PHONE,
  );
  const seated = await backfillSeats(models.Handover.collection as never);
  if (keyed + seated > 0)
    logger.info(
      { keyed, seated },
      'applications and bookings stored before their unique keys got them',
    );
  await ensureIndexes(conn);
  const lots = new LotReadModel(conn);
  await lots.ensureIndexes();

  // their writes go through the store, which asks this relay to publish after each with events
  kit.outbox([models.Application, models.Wish, models.Handover]);
  const applications = new ApplicationsRepository(kit.store);
  const wishesRepo = new WishesRepository(kit.store);
  const calendar = options.calendar ?? { now: () => new Date(), timeZone: config.TIMEZONE };

  // the handover (issue 29): bookings first, every status change gives an ended one back
  const handoverBookings = new HandoverBookings({
    handovers: new HandoversRepository(kit.store, conn),
    applications,
    lots,
    calendar,
    logger,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    changeHours: config.HANDOVER_CHANGE_HOURS,
    links: new LinkSecrets(linkSecret(config, logger)),
  });
  const handoverLinks = handoverBookings;

  // erasures on request against submissions of the same phone, across processes (issue 42)
  const erasures = new ErasureMarks(kit.store);
  const publicApplications = new PublicApplications({
    applications,
    lots,
    erasures,
    // the privacy service is made below; a submission calls this only once the service runs
    eraseLate: (id) => privacy.eraseLate(id),
    maxOpenPerPhone: config.MAX_OPEN_APPLICATIONS_PER_PHONE,
    statusCheckMax: config.STATUS_CHECK_MAX_RESULTS,
  });
  const pickups = new Pickups({
    applications,
    lots,
    handoverLinks,
    calendar,
    logger,
    pickupDays: config.PICKUP_DAYS,
    reminderDays: config.PICKUP_REMINDER_DAYS,
    autoApproveNext: config.PICKUP_LAPSE_AUTO_APPROVE,
  });
  // one replica at a time: a reminder marked by two would be mailed twice (FerretDB's guarded
  // updates are not atomic across processes); each pass asks its lease before each write
  kit.every(
    'pickup dates',
    config.PICKUP_CHECK_INTERVAL_MS,
    (lease) => pickups.checkDeadlines(lease?.held),
    { oneReplica: true },
  );
  const moderation = new Moderation({ applications, lots, pickups, handoverLinks });
  const wishes = new WishesService({
    wishes: wishesRepo,
    lots,
    erasures,
    eraseLate: (id) => privacy.eraseLate(id, 'wish'),
  });
  const referrals = new Referrals({
    publicApplications,
    moderation,
    drawId: () => nextId(conn, 'referrals'),
    validDays: config.REFERRAL_VALID_DAYS,
    changes: { applications, lots, handoverLinks },
    wishes,
    wishesRepo,
    bookingOf: (applicationId) => handoverBookings.referrerBookingOf(applicationId),
    perReferrerPerDay: config.REFERRALS_PER_REFERRER_PER_DAY,
    quota: new ReferralQuotaRepository(kit.store),
    timeZone: config.TIMEZONE,
  });
  kit.every(
    'expired referrals',
    config.PICKUP_CHECK_INTERVAL_MS,
    (lease) => referrals.expire(new Date(), lease?.held),
    { oneReplica: true },
  );
  const messageRequests = new MessageRequests({ applications, wishes: wishesRepo, lots });
  const reactions = new LotReactions({ applications, lots, pickups, handoverLinks });
  const handovers = new Handovers({
    bookings: handoverBookings,
    pickups,
    donations: options.donations ?? catalogDonations(catalog),
    missedGraceMinutes: config.HANDOVER_MISSED_GRACE_MINUTES,
  });
  kit.onStart(async () => {
    const hashed = await handovers.hashClearSecrets();
    if (hashed.links + hashed.feeds > 0)
      logger.info(hashed, 'booking links and feed keys stored in clear replaced by their digests');
  });
  // reminders the day before, missed slots, follow-ups: one replica at a time (each write guarded)
  kit.every(
    'handovers',
    config.HANDOVER_CHECK_INTERVAL_MS,
    (lease) => handovers.check(lease?.held),
    {
      oneReplica: true,
    },
  );

  const privacy = new Privacy({
    privacy: new PrivacyRepository(conn, {
      applications: applications.stored,
      wishes: wishesRepo.stored,
    }),
    handovers,
    erasures,
    donors: options.donors ?? catalogDonors(catalog),
    now: options.now ?? (() => new Date()),
    retentionDays: config.PERSONAL_DATA_RETENTION_DAYS,
    logger,
    ledger: erasureLedgerOf(config),
  });
  // before the service answers: nothing a restored backup brought back is served (docs/privacy.md);
  // a ledger that does not answer holds the start up for a few seconds only
  kit.catchUp('erasure_ledger', () => privacy.catchUp());
  const ledger = erasureLedgerOf(config);
  if (ledger)
    kit.every(
      'erasure ledger compaction',
      24 * 3600 * 1000,
      async () => {
        const dropped = await ledger.compact(
          ledgerWatermark(new Date(), config.PERSONAL_DATA_RETENTION_DAYS),
        );
        if (dropped > 0) logger.info({ dropped }, 'erasure ledger compacted');
      },
      { oneReplica: true },
    );
  kit.every(
    'personal data retention',
    config.RETENTION_CHECK_INTERVAL_MS,
    (lease) => privacy.applyRetention(lease?.held),
    { oneReplica: true },
  );

  const lotSync = new LotReadModelSync({
    lots,
    source: options.lotSource ?? catalogSnapshotSource(catalog),
    logger,
    pageSize: config.LOT_SNAPSHOT_PAGE_SIZE,
  });
  // in the background: the API answers meanwhile, from the events that arrive
  kit.onStart(() => lotSync.start(config.LOT_SNAPSHOT_SYNC));
  kit.onStop(() => lotSync.stop());

  const lookupLimit = phoneLookupLimit(kit.store, {
    perIp: config.PHONE_LOOKUPS_PER_IP,
    windowSeconds: config.PHONE_LOOKUPS_WINDOW_SECONDS,
  });
  const writeLimits = publicWriteLimits(kit.store, {
    perIp: config.PUBLIC_WRITES_PER_IP,
    windowSeconds: config.PUBLIC_WRITES_PER_IP_WINDOW_SECONDS,
    perPhone: config.PUBLIC_WRITES_PER_PHONE,
    phoneWindowSeconds: config.PUBLIC_WRITES_PER_PHONE_WINDOW_SECONDS,
  });
  const app = createApp({
    ...kit.appDeps(),
    publicApplications,
    moderation,
    wishes,
    messageRequests,
    privacy,
    handovers,
    referrals,
    lookupLimit,
    writeLimits,
    // a lot's queue panel may be kept by the gateway for a second, longer while it hears the events
    shareSeconds: 1,
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
    handovers,
    handoverBookings,
    referrals,
  };
}

export const applicationsService = defineService({
  name: 'applications',
  loadConfig: loadApplicationsConfig,
  compose: composeApplications,
});
