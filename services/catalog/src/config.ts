import { baseConfigShape, loadConfig, readSecret } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the catalog service; see README "Configuration". */
export function loadCatalogConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = loadConfig(
    {
      ...baseConfigShape,
      PORT: z.coerce.number().int().default(4002),
      MONGO_DB: z.string().default('furniture_catalog'),
      /**
       * how long the category list and the lots of a category may be answered from memory when
       * another replica wrote meanwhile (this process's own writes clear it at once); 0 = off
       */
      READ_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5000),
      /** how often the outbox relay looks for events a crash left behind */
      OUTBOX_INTERVAL_MS: z.coerce.number().int().min(50).default(5000),
    },
    env,
  );
  return {
    ...c,
    jwtPublicKey: readSecret(c.JWT_PUBLIC_KEY, c.JWT_PUBLIC_KEY_FILE, 'JWT_PUBLIC_KEY'),
  };
}
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
