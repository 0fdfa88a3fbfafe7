import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type Limit,
  type ServiceAppDeps,
  type WriteLimits,
} from '@furniture/platform';
import type { CategoriesService } from './domain/categories-service';
import type { DonationLots } from './domain/donation-lots';
import type { DonationPhotos } from './domain/donation-photos';
import type { DonationPrivacy } from './domain/donation-privacy';
import type { DonationsService } from './domain/donations-service';
import type { LotsService } from './domain/lots-service';
import type { Warehouse } from './domain/warehouse';
import { categoriesRouter } from './entry-points/http/categories-router';
import { donationsRouter } from './entry-points/http/donations-router';
import { internalRouter } from './entry-points/http/internal-router';
import { lotsRouter } from './entry-points/http/lots-router';
import { warehouseRouter } from './entry-points/http/warehouse-router';

export interface CatalogAppDeps extends ServiceAppDeps {
  categories: CategoriesService;
  lots: LotsService;
  donations: DonationsService;
  donationLots: DonationLots;
  donationPhotos: DonationPhotos;
  donationPrivacy: DonationPrivacy;
  /** storage places, label codes, labels, scans and counts (issue 45) */
  warehouse: Warehouse;
  /** public donations per client address and per phone number */
  writeLimits?: WriteLimits;
  /** the donors' lookups by phone number per client address */
  lookupLimit?: Limit;
  /**
   * s-maxage of the public lists (category list, lots of a category): how long a shared cache
   * (the gateway) may answer them itself; 0 = not shareable
   */
  shareSeconds?: number;
}

/** The catalog's HTTP app (no listen: start.ts and tests do that). */
export function createApp(deps: CatalogAppDeps): Express {
  const app = createServiceApp({ name: 'catalog', ...deps });
  app.use(
    '/internal',
    internalRouter(deps.lots, deps.donationPhotos, deps.donationPrivacy, deps.donations),
  );
  app.use('/api/v1', authenticate(deps.verifier));
  app.use('/api/v1', warehouseRouter(deps.warehouse));
  app.use('/api/v1/categories', categoriesRouter(deps.categories, deps.shareSeconds ?? 0));
  app.use('/api/v1/lots', lotsRouter(deps.lots, deps.shareSeconds ?? 0));
  app.use(
    '/api/v1/donations',
    donationsRouter({
      donations: deps.donations,
      lots: deps.donationLots,
      writeLimits: deps.writeLimits,
      lookupLimit: deps.lookupLimit,
    }),
  );
  return finishApp(app, deps.logger);
}
