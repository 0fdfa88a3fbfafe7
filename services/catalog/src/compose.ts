import { defineService, ensureIndexes, type ServiceKit } from '@furniture/platform';
import { createApp } from './app';
import { loadCatalogConfig, type CatalogConfig } from './config';
import { CategoriesRepository } from './data-access/categories-repository';
import { LotsRepository } from './data-access/lots-repository';
import { registerModels } from './data-access/models';
import { OutboxMessages } from './data-access/outbox-messages';
import { CategoriesService } from './domain/categories-service';
import { LotEvents } from './domain/lot-events';
import { LotsService } from './domain/lots-service';
import { eventHandlers } from './entry-points/messaging/handlers';

/**
 * Wires the catalog's domain on the kit (start.ts and the tests alike). Creates the indexes and
 * seeds the eight known categories on first start.
 */
export async function composeCatalog(kit: ServiceKit<CatalogConfig>) {
  const { logger, conn } = kit;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const publish = kit.outbox([models.Lot, models.Category, models.OutboxMessage]);
  const lotsRepo = new LotsRepository(kit.store, models, publish);
  const categoriesRepo = new CategoriesRepository(kit.store, conn, models, publish);
  const outbox = new OutboxMessages(models, publish);

  const categories = new CategoriesService({ categories: categoriesRepo, lots: lotsRepo });
  const lots = new LotsService({ lots: lotsRepo, categories: categoriesRepo });
  const lotEvents = new LotEvents({ lots: lotsRepo, outbox });
  const seeded = await categories.seed();
  if (seeded > 0) logger.info({ seeded }, 'known categories created');

  // the public lists may be kept by the gateway (the one server-side cache) for a second
  const app = createApp({ ...kit.appDeps(), categories, lots, shareSeconds: 1 });
  return { app, handlers: eventHandlers(lotEvents), categories, lots, lotEvents };
}

export const catalogService = defineService({
  name: 'catalog',
  loadConfig: loadCatalogConfig,
  compose: composeCatalog,
});
