import { defineService, ensureIndexes, type ServiceKit } from '@furniture/platform';
import { createApp } from './app';
import { loadCatalogConfig, type CatalogConfig } from './config';
import { CategoriesRepository } from './data-access/categories-repository';
import { LotsRepository } from './data-access/lots-repository';
import { registerModels } from './data-access/models';
import { OutboxMessages } from './data-access/outbox-messages';
import { ReadCache } from './data-access/read-cache';
import { CategoriesService } from './domain/categories-service';
import { LotEvents } from './domain/lot-events';
import { LotsService } from './domain/lots-service';
import { eventHandlers } from './entry-points/messaging/handlers';

/**
 * Wires the catalog's domain on the kit (start.ts and the tests alike). Creates the indexes and
 * seeds the eight known categories on first start.
 */
export async function composeCatalog(kit: ServiceKit<CatalogConfig>) {
  const { config, logger, conn } = kit;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const publish = kit.outbox([models.Lot, models.Category, models.OutboxMessage]);
  const cache = new ReadCache(config.READ_CACHE_TTL_MS);
  const onWrite = () => {
    cache.invalidate();
    publish();
  };
  const lotsRepo = new LotsRepository(kit.store, models, onWrite);
  const categoriesRepo = new CategoriesRepository(kit.store, conn, models, onWrite);
  const outbox = new OutboxMessages(models, onWrite);

  const categories = new CategoriesService({ categories: categoriesRepo, lots: lotsRepo, cache });
  const lots = new LotsService({ lots: lotsRepo, categories: categoriesRepo, cache });
  const lotEvents = new LotEvents({ lots: lotsRepo, outbox });
  const seeded = await categories.seed();
  if (seeded > 0) logger.info({ seeded }, 'known categories created');

  // with the read cache on, the public lists may be kept by the gateway for a second too
  const shareSeconds = config.READ_CACHE_TTL_MS > 0 ? 1 : 0;
  const app = createApp({ ...kit.appDeps(), categories, lots, shareSeconds });
  return { app, handlers: eventHandlers(lotEvents), cache, categories, lots, lotEvents };
}

export const catalogService = defineService({
  name: 'catalog',
  loadConfig: loadCatalogConfig,
  compose: composeCatalog,
});
