import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type HealthCheck,
  type Logger,
  type TokenVerifier,
} from '@furniture/platform';
import type { CategoriesService } from './domain/categories-service';
import type { LotsService } from './domain/lots-service';
import { categoriesRouter } from './entry-points/http/categories-router';
import { internalRouter } from './entry-points/http/internal-router';
import { lotsRouter } from './entry-points/http/lots-router';

export interface CatalogAppDeps {
  logger: Logger;
  verifier: TokenVerifier;
  categories: CategoriesService;
  lots: LotsService;
  checks?: Record<string, HealthCheck>;
  info?: Record<string, HealthCheck>;
  isAccepting?: () => boolean;
  metrics?: boolean;
}

/** The catalog's HTTP app (no listen: start.ts and tests do that). */
export function createApp(deps: CatalogAppDeps): Express {
  const app = createServiceApp({
    name: 'catalog',
    logger: deps.logger,
    checks: deps.checks,
    info: deps.info,
    isAccepting: deps.isAccepting,
    metrics: deps.metrics,
  });
  app.use('/internal', internalRouter(deps.lots));
  app.use('/api/v1', authenticate(deps.verifier));
  app.use('/api/v1/categories', categoriesRouter(deps.categories));
  app.use('/api/v1/lots', lotsRouter(deps.lots));
  return finishApp(app, deps.logger);
}
