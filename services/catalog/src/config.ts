import { baseConfigShape, loadConfig } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the catalog service; see README "Configuration". */
export function loadCatalogConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      ...baseConfigShape,
      PORT: z.coerce.number().int().default(4002),
      MONGO_DB: z.string().default('furniture_catalog'),
    },
    env,
  );
}
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
