import { baseConfigShape, loadConfig } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the catalog service; see README "Configuration". */
export function loadCatalogConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      ...baseConfigShape,
      PORT: z.coerce.number().int().default(4002),
      MONGO_DB: z.string().default('furniture_catalog'),
      /**
       * how long the category list and the lots of a category may be answered from memory when
       * another replica wrote meanwhile (this process's own writes clear it at once); 0 = off
       */
      READ_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5000),
    },
    env,
  );
}
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
