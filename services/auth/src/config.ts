import { baseConfigShape, envBool, envInt, loadConfig, readSecret } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the auth service; see README "Configuration". */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = loadConfig(
    {
      ...baseConfigShape,
      PORT: envInt(4001),
      MONGO_DB: z.string().default('furniture_auth'),
      /** PEM private key that signs access tokens (or JWT_PRIVATE_KEY_FILE) */
      JWT_PRIVATE_KEY: z.string().optional(),
      JWT_PRIVATE_KEY_FILE: z.string().optional(),
      ACCESS_TOKEN_TTL_SECONDS: envInt(900, { min: 30 }),
      /** absolute session age: refreshing stops after this */
      SESSION_MAX_AGE_SECONDS: envInt(12 * 3600, { min: 60 }),
      /** a session nobody used (no refresh) for this long ends */
      SESSION_IDLE_SECONDS: envInt(2 * 3600, { min: 60 }),
      /**
       * the refresh token just replaced may come once more within this many seconds (two tabs
       * refreshing at once) and answers an access token without a new cookie; later it counts as
       * a replay and ends the session
       */
      REFRESH_REUSE_GRACE_SECONDS: envInt(10, { min: 0, max: 60 }),
      /**
       * an access token presented to POST /auth/refresh without the cookie (the specification's
       * refresh by bearer token) renews its session once, until this many seconds after it expired
       */
      REFRESH_BEARER_GRACE_SECONDS: envInt(600, { min: 0, max: 3600 }),
      /** how often sessions past their idle or absolute end are ended (and announced) */
      SESSION_SWEEP_SECONDS: envInt(60, { min: 1 }),
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
      LOGIN_MAX_FAILURES_PER_ACCOUNT: envInt(5, { min: 1 }),
      /** failed logins per client IP before it is locked */
      LOGIN_MAX_FAILURES_PER_IP: envInt(30, { min: 1 }),
      LOGIN_FAILURE_WINDOW_SECONDS: envInt(900, { min: 1 }),
      LOGIN_LOCK_SECONDS: envInt(900, { min: 1 }),
      /** argon2id parameters; defaults are OWASP's recommendation (19 MiB, 2 passes, 1 lane) */
      ARGON2_MEMORY_KIB: envInt(19456, { min: 1024 }),
      ARGON2_TIME_COST: envInt(2, { min: 1 }),
      ARGON2_PARALLELISM: envInt(1, { min: 1 }),
      /** argon2 computations at once, and waiting; beyond both a login answers 429 */
      ARGON2_MAX_CONCURRENT: envInt(4, { min: 1 }),
      ARGON2_MAX_QUEUE: envInt(32, { min: 0 }),
      /** the back-office's address: a referrer's invitation link is made from it (issue 44) */
      PUBLIC_BASE_URL: z
        .url()
        .default('http://localhost:8080')
        .transform((v) => v.replace(/\/+$/, '')),
      /** an invitation link not used within this many days no longer works */
      INVITATION_VALID_DAYS: envInt(14, { min: 1, max: 90 }),
    },
    env,
  );
  return {
    ...c,
    jwtPrivateKey: readSecret(c.JWT_PRIVATE_KEY, c.JWT_PRIVATE_KEY_FILE, 'JWT_PRIVATE_KEY'),
  };
}
export type AuthConfig = ReturnType<typeof loadAuthConfig>;
