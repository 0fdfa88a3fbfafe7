import {
  defineService,
  ensureIndexes,
  erasureLedgerOf,
  phoneLookupLimit,
  publicWriteLimits,
  type ServiceKit,
} from '@furniture/platform';
import { createApp } from './app';
import { loadCatalogConfig, type CatalogConfig } from './config';
import { CategoriesRepository } from './data-access/categories-repository';
import { DonationsRepository } from './data-access/donations-repository';
import { LabelCodesRepository } from './data-access/label-codes-repository';
import { StoragePlacesRepository } from './data-access/storage-places-repository';
import { LotsRepository } from './data-access/lots-repository';
import { registerModels } from './data-access/models';
import { OutboxMessages } from './data-access/outbox-messages';
import { CategoriesService } from './domain/categories-service';
import { DonationLots, type LotPhotoCopies } from './domain/donation-lots';
import { DonationPhotos } from './domain/donation-photos';
import { DonationPrivacy } from './domain/donation-privacy';
import { DonationsService } from './domain/donations-service';
import { LabelCodes } from './domain/label-codes';
import { LotEvents } from './domain/lot-events';
import { LotsService } from './domain/lots-service';
import { Warehouse, type LabelPrinter } from './domain/warehouse';
import { eventHandlers } from './entry-points/messaging/handlers';
import { pdfLabelPrinter } from './integrations/label-pdf';
import { mediaLotPhotoCopies } from './integrations/media-photos';

export interface CatalogOptions {
  /** the clock of the donations (tests set it) */
  now?: () => Date;
  /** where a donated item's photos are copied into its lot (the media service by default) */
  photoCopies?: LotPhotoCopies;
  /** how labels become PDF (pdfkit by default) */
  labelPrinter?: LabelPrinter;
}

/**
 * Wires the catalog's domain on the kit (start.ts and the tests alike). Creates the indexes and
 * seeds the eight known categories on first start.
 */
export async function composeCatalog(kit: ServiceKit<CatalogConfig>, options: CatalogOptions = {}) {
  const { config, logger, conn } = kit;
  const models = registerModels(conn);
  await ensureIndexes(conn);
  const now = options.now ?? (() => new Date());

  // their writes go through the store, which asks this relay to publish after each with events
  kit.outbox([models.Lot, models.Category, models.Donation, models.OutboxMessage]);
  const lotsRepo = new LotsRepository(kit.store);
  const categoriesRepo = new CategoriesRepository(kit.store, conn);
  const donationsRepo = new DonationsRepository(kit.store, conn);
  const outbox = new OutboxMessages(kit.store);

  const categories = new CategoriesService({ categories: categoriesRepo, lots: lotsRepo });
  const places = new StoragePlacesRepository(kit.store);
  const codes = new LabelCodes({ codes: new LabelCodesRepository(kit.store) });
  const lots = new LotsService({ lots: lotsRepo, categories: categoriesRepo, codes, places });
  const warehouse = new Warehouse({
    places,
    lots: lotsRepo,
    codes,
    printer: options.labelPrinter ?? pdfLabelPrinter,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  // lots of earlier versions get their codes in batches, one replica at a time (a code's claim
  // decides anyway: a lot never gets two)
  kit.every(
    'label codes of earlier lots',
    config.LABEL_BACKFILL_INTERVAL_MS,
    (lease) => warehouse.labelEarlierLots(lease?.held),
    { oneReplica: true },
  );
  // passes of lots into categories whose process died before giving them back (issue 42)
  kit.every('category passes', 60_000, () => categoriesRepo.purgePasses());
  const lotEvents = new LotEvents({ lots: lotsRepo, outbox });
  const seeded = await categories.seed();
  if (seeded > 0) logger.info({ seeded }, 'known categories created');

  const donations = new DonationsService({
    donations: donationsRepo,
    categories: categoriesRepo,
    now,
  });
  // one replica at a time looks; each move is guarded by the donation's state anyway
  kit.every(
    'donation expiry',
    config.DONATION_EXPIRY_INTERVAL_MS,
    (lease) => donations.expireOverdue(lease?.held),
    {
      oneReplica: true,
    },
  );
  const donationPrivacy = new DonationPrivacy({
    donations: donationsRepo,
    now,
    retentionDays: config.PERSONAL_DATA_RETENTION_DAYS,
    logger,
    ledger: erasureLedgerOf(config),
  });
  // before the service answers: no donor erased after a restored backup is served again
  kit.catchUp('erasure_ledger', () => donationPrivacy.catchUp());
  kit.every(
    'donation data retention',
    config.RETENTION_CHECK_INTERVAL_MS,
    (lease) => donationPrivacy.applyRetention(lease?.held),
    { oneReplica: true },
  );
  const donationPhotos = new DonationPhotos({ donations: donationsRepo, service: donations, now });
  const donationLots = new DonationLots({
    donations: donationsRepo,
    lotsRepo,
    lots,
    photos:
      options.photoCopies ?? mediaLotPhotoCopies(kit.internalClient('media', config.MEDIA_URL)),
  });

  const app = createApp({
    ...kit.appDeps(),
    categories,
    lots,
    donations,
    donationLots,
    donationPhotos,
    donationPrivacy,
    warehouse,
    writeLimits: publicWriteLimits(kit.store, {
      perIp: config.PUBLIC_WRITES_PER_IP,
      windowSeconds: config.PUBLIC_WRITES_PER_IP_WINDOW_SECONDS,
      perPhone: config.PUBLIC_WRITES_PER_PHONE,
      phoneWindowSeconds: config.PUBLIC_WRITES_PER_PHONE_WINDOW_SECONDS,
    }),
    lookupLimit: phoneLookupLimit(kit.store, {
      perIp: config.PHONE_LOOKUPS_PER_IP,
      windowSeconds: config.PHONE_LOOKUPS_WINDOW_SECONDS,
    }),
    // the public lists may be kept by the gateway (the one server-side cache) for a second
    shareSeconds: 1,
  });
  return {
    app,
    handlers: eventHandlers(lotEvents, donations),
    categories,
    lots,
    /** the lots as the store keeps them (one declaration: tests write behind the API through it) */
    lotsRepo,
    lotEvents,
    donations,
    donationPhotos,
    donationPrivacy,
    warehouse,
  };
}

export { mediaLotPhotoCopies };
/** the eight known categories' texts and icons (the admin command line's demo data fills them in) */
export { KNOWN_CATEGORIES } from './domain/seed';

export const catalogService = defineService({
  name: 'catalog',
  loadConfig: loadCatalogConfig,
  compose: composeCatalog,
});
