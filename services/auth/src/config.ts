import { baseConfigShape, envBool, loadConfig, readSecret } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the auth service; see README "Configuration". */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = loadConfig(
    {
      ...baseConfigShape,
      PORT: z.coerce.number().int().default(4001),
      MONGO_DB: z.string().default('furniture_auth'),
      /** PEM private key that signs access tokens (or JWT_PRIVATE_KEY_FILE) */
      JWT_PRIVATE_KEY: z.string().optional(),
      JWT_PRIVATE_KEY_FILE: z.string().optional(),
      ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(900),
      /** absolute session age: refreshing stops after this */
      SESSION_MAX_AGE_SECONDS: z.coerce
        .number()
        .int()
        .min(60)
        .default(12 * 3600),
      /** a session nobody used (no refresh) for this long ends */
      SESSION_IDLE_SECONDS: z.coerce
        .number()
        .int()
        .min(60)
        .default(2 * 3600),
      /**
       * the refresh token just replaced may come once more within this many seconds (two tabs
       * refreshing at once) and answers an access token without a new cookie; later it counts as
       * a replay and ends the session
       */
      REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
      /** how often sessions past their idle or absolute end are ended (and announced) */
      SESSION_SWEEP_SECONDS: z.coerce.number().int().min(1).default(60),
      /**
       * the refresh cookie's Secure flag: auto = set unless the request came to localhost,
       * 127.0.0.1 or [::1] (browsers keep no Secure cookie from plain http elsewhere)
       */
      REFRESH_COOKIE_SECURE: z.enum(['auto', 'always']).default('auto'),
      /** first administrator, created when there are no users at all */
      ADMIN_EMAIL: z.string().optional(),
      ADMIN_PASSWORD: z.string().optional(),
      ADMIN_NAME: z.string().default('Administrator'),
      /**
       * the single-machine run with the gateway on a loopback address (set by its launcher):
       * the README's admin password is allowed there, as nobody else can reach the platform
       */
      LOCAL_RUN: envBool.default(false),
      /** failed logins per account before it is locked for LOGIN_LOCK_SECONDS */
      LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
      /** failed logins per client IP before it is locked */
      LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
      LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
      LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
      /** argon2id parameters; defaults are OWASP's recommendation (19 MiB, 2 passes, 1 lane) */
      ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19456),
      ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
      ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),
      /** argon2 computations at once, and waiting; beyond both a login answers 429 */
      ARGON2_MAX_CONCURRENT: z.coerce.number().int().min(1).default(4),
      ARGON2_MAX_QUEUE: z.coerce.number().int().min(0).default(32),
    },
    env,
  );
  return {
    ...c,
    jwtPrivateKey: readSecret(c.JWT_PRIVATE_KEY, c.JWT_PRIVATE_KEY_FILE, 'JWT_PRIVATE_KEY'),
  };
}
export type AuthConfig = ReturnType<typeof loadAuthConfig>;
