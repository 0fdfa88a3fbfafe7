import path from 'node:path';
import {
  baseConfigShape,
  envBool,
  loadConfig,
  platformRelease,
  readSecret,
  serviceAddress,
} from '@furniture/platform';
import { z } from 'zod';

/** Every key of the gateway; see README "Configuration". */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = loadConfig(
    {
      ...baseConfigShape,
      PORT: z.coerce.number().int().default(8080),
      /** Prometheus metrics, on their own port that no ingress routes */
      METRICS_PORT: z.coerce.number().int().default(9464),
      /**
       * each service's address; several processes of one service (make run REPLICAS=2) as a
       * comma-separated list, spread round robin (upstreams.ts)
       */
      AUTH_URL: serviceAddress.default('http://127.0.0.1:4001'),
      CATALOG_URL: serviceAddress.default('http://127.0.0.1:4002'),
      APPLICATIONS_URL: serviceAddress.default('http://127.0.0.1:4003'),
      MEDIA_URL: serviceAddress.default('http://127.0.0.1:4004'),
      NOTIFICATION_URL: serviceAddress.default('http://127.0.0.1:4005'),
      /**
       * connections to one service process at once; more requests wait for one (and, waiting too
       * long, are answered 503 with Retry-After: MAX_REQUEST_WAIT_MS)
       */
      UPSTREAM_MAX_SOCKETS: z.coerce.number().int().min(1).max(65535).default(512),
      /** how often the processes of a service with several are asked whether they are ready */
      UPSTREAM_PROBE_MS: z.coerce.number().int().min(100).max(60000).default(1000),
      /**
       * where the public site's source link (GET /api/v1/source) leads, as the AGPL's § 13 asks:
       * the code this installation runs (a changed version's own repository); by default the
       * root package.json's `repository`
       */
      SOURCE_URL: z
        .union([z.literal(''), z.url({ protocol: /^https?$/ })])
        .default(platformRelease().repository ?? ''),
      /** folder of the built SPA (index.html + assets) */
      SPA_DIR: z.string().default(path.resolve(__dirname, '../../frontend/dist')),
      /** express "trust proxy": which hops may set X-Forwarded-For (the ingress in k8s) */
      TRUST_PROXY: z.string().default('loopback'),
      /**
       * the gateway's own database (on MONGO_URL): the rate limits every replica shares (issue
       * 43); RATE_LIMIT_SHARED=false counts in each replica's memory instead
       */
      MONGO_DB: z.string().default('furniture_gateway'),
      RATE_LIMIT_SHARED: envBool.default(true),
      /** login attempts per client IP per window */
      RATE_LIMIT_LOGIN: z.coerce.number().int().min(1).default(20),
      RATE_LIMIT_LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
      /**
       * public POSTs of applications, wishes and donations per client IP per window: generous,
       * since the families of one shelter share its address (the services limit per phone)
       */
      RATE_LIMIT_PUBLIC_WRITES: z.coerce.number().int().min(1).default(60),
      RATE_LIMIT_PUBLIC_WRITES_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
      /**
       * public lookups by phone number per client IP: check-status, a donor's lookup, and
       * can-apply or applications-info with ?phone= (a lot page read without one is not counted)
       */
      RATE_LIMIT_PUBLIC_LOOKUPS: z.coerce.number().int().min(1).default(120),
      RATE_LIMIT_PUBLIC_LOOKUPS_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
      /** WhatsApp/SMS provider callbacks per client IP per minute (signed; issue 30) */
      RATE_LIMIT_MESSAGE_CALLBACKS: z.coerce.number().int().min(1).default(600),
      /** largest request body for API calls, and for photo uploads (10 MB + multipart framing) */
      BODY_LIMIT_BYTES: z.coerce
        .number()
        .int()
        .min(1024)
        .default(1024 * 1024),
      UPLOAD_BODY_LIMIT_BYTES: z.coerce
        .number()
        .int()
        .min(1024)
        .default(10 * 1024 * 1024 + 64 * 1024),
      /** how long a service may take to answer */
      PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30000),
      UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(100).default(120000),
      /**
       * how long the gateway may answer a service's shareable public answer itself
       * (`Cache-Control: public, s-maxage`): the category list and the lots of a category; 0 = never
       */
      PUBLIC_CACHE_MAX_MS: z.coerce.number().int().min(0).max(60000).default(1000),
      /**
       * how long the gateway may keep such an answer while it hears the platform's events, which
       * drop it as soon as anything it shows changes (a lot, its queue, a category); the lot page
       * and its queue panel too (issue 48). 0 = never longer than PUBLIC_CACHE_MAX_MS
       */
      PUBLIC_CACHE_LIVE_MAX_MS: z.coerce.number().int().min(0).max(300000).default(30000),
      /** memory for those answers, all together */
      PUBLIC_CACHE_MAX_BYTES: z.coerce
        .number()
        .int()
        .min(0)
        .default(32 * 1024 * 1024),
    },
    env,
  );
  return {
    ...c,
    jwtPublicKey: readSecret(c.JWT_PUBLIC_KEY, c.JWT_PUBLIC_KEY_FILE, 'JWT_PUBLIC_KEY'),
  };
}
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
