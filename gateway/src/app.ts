import type http from 'node:http';
import type { Express } from 'express';
import express from 'express';
import compression from 'compression';
import helmet from 'helmet';
import {
  AppError,
  canonicalApiPath,
  errorHandler,
  healthRoutes,
  httpLogger,
  metricsRegistry,
  platformRelease,
  REQUEST_ID_HEADER,
  TokenVerifier,
  type Logger,
} from '@furniture/platform';
import { apiDocs } from './api-docs';
import type { GatewayConfig } from './config';
import { servicesHealth } from './health';
import { bodyLimit } from './middleware/body-limit';
import { publicCache, type CacheFeed } from './middleware/public-cache';
import { rateLimits, type SharedLimits } from './middleware/rate-limits';
import { spa } from './middleware/spa';
import { verifyToken } from './middleware/verify-token';
import { proxied, proxyToServices } from './proxy';
import { isUploadPath, ServiceNames, type ServiceName } from './routes';
import { Upstreams } from './upstreams';

type Config = Pick<
  GatewayConfig,
  | 'AUTH_URL'
  | 'CATALOG_URL'
  | 'APPLICATIONS_URL'
  | 'MEDIA_URL'
  | 'NOTIFICATION_URL'
  | 'SPA_DIR'
  | 'TRUST_PROXY'
  | 'RATE_LIMIT_LOGIN'
  | 'RATE_LIMIT_LOGIN_WINDOW_SECONDS'
  | 'RATE_LIMIT_PUBLIC_WRITES'
  | 'RATE_LIMIT_PUBLIC_WRITES_WINDOW_SECONDS'
  | 'RATE_LIMIT_PUBLIC_LOOKUPS'
  | 'RATE_LIMIT_PUBLIC_LOOKUPS_WINDOW_SECONDS'
  | 'RATE_LIMIT_MESSAGE_CALLBACKS'
  | 'BODY_LIMIT_BYTES'
  | 'UPLOAD_BODY_LIMIT_BYTES'
  | 'PROXY_TIMEOUT_MS'
  | 'UPLOAD_TIMEOUT_MS'
  | 'PUBLIC_CACHE_MAX_MS'
  | 'PUBLIC_CACHE_MAX_BYTES'
  | 'PUBLIC_CACHE_LIVE_MAX_MS'
  | 'UPSTREAM_PROBE_MS'
  | 'UPSTREAM_MAX_SOCKETS'
  | 'MAX_CONCURRENT_REQUESTS'
  | 'MAX_REQUEST_WAIT_MS'
  | 'PUBLIC_REQUEST_SHARE'
  | 'SOURCE_URL'
  | 'jwtPublicKey'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
>;

/**
 * helmet's headers for our fixed policy (no nonces, nothing per request), worked out once at
 * start and then set on every answer with one call instead of helmet's eleven middlewares.
 */
function securityHeaders(): express.RequestHandler {
  const policy = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const headers = new Map<string, string | number | readonly string[]>();
  const removed: string[] = [];
  const probe = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      headers.set(name, value),
    removeHeader: (name: string) => removed.push(name),
  };
  let synchronous = false;
  policy(
    {} as http.IncomingMessage,
    probe as unknown as http.ServerResponse,
    () => (synchronous = true),
  );
  if (!synchronous) throw new Error('helmet no longer sets its headers synchronously');
  return (_req, res, next) => {
    res.setHeaders(headers as Map<string, string | number | readonly string[]>);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * The public site's source link (AGPL-3.0 § 13): to SOURCE_URL, or, where the operator set none,
 * a note in the site's two languages that the platform is free software and whom to ask.
 */
function sourceLink(url: string): express.RequestHandler {
  const note = [
    'Möbelbrücke ist freie Software unter der GNU Affero General Public License, Version 3 oder später (AGPL-3.0-or-later).',
    'Diese Installation nennt noch keine Adresse ihres Quellcodes: Bitte fragen Sie ihre Betreiber danach.',
    '',
    'Möbelbrücke — вільне програмне забезпечення за ліцензією GNU Affero General Public License, версії 3 або новішої (AGPL-3.0-or-later).',
    'Ця інсталяція ще не вказує адресу свого вихідного коду: будь ласка, запитайте про неї її операторів.',
  ].join('\n');
  return (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=300');
    if (!url) {
      res.type('text/plain; charset=utf-8').send(note);
      return;
    }
    res.status(302).location(url).type('text/plain; charset=utf-8').send(`→ ${url}`);
  };
}

export function createGatewayApp(opts: {
  config: Config;
  logger: Logger;
  isAccepting?: () => boolean;
  /** the platform's events, which drop kept public answers when what they show changes */
  cacheFeed?: CacheFeed;
  /** rate limit counters every gateway replica shares (start.ts); none: this process's memory */
  sharedLimits?: SharedLimits;
}): Express {
  const { config, logger } = opts;
  const settings: Record<ServiceName, string> = {
    auth: config.AUTH_URL,
    catalog: config.CATALOG_URL,
    applications: config.APPLICATIONS_URL,
    media: config.MEDIA_URL,
    notification: config.NOTIFICATION_URL,
  };
  const pools = Object.fromEntries(
    ServiceNames.map((name) => [name, Upstreams.parse(name, settings[name])]),
  ) as Record<ServiceName, Upstreams>;
  for (const pool of Object.values(pools)) pool.watch(config.UPSTREAM_PROBE_MS);
  const verifier = new TokenVerifier({
    publicKey: config.jwtPublicKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));
  // one request id for the whole chain: kept from the client if well-formed, else new (the
  // request logger picks it and answers it); the services get it in the same header
  // a line per request the gateway decided itself (a refusal, an error); what a service
  // answered is logged there under the same request id, routine answers only at debug
  app.use(
    httpLogger(logger, {
      quiet: (_req, res) => proxied(res as express.Response) || res.statusCode < 400,
    }),
  );
  app.use((req, _res, next) => {
    req.headers[REQUEST_ID_HEADER] = (req as { id?: string }).id;
    next();
  });
  app.use(canonicalApiPath);
  app.use(securityHeaders());
  app.use(healthRoutes({ name: 'gateway', isAccepting: opts.isAccepting }));
  app.get(['/api/v1/health', '/api/v1/ready'], async (_req, res) => {
    const services = await servicesHealth(pools);
    const ok = Object.values(services).every((s) => s.ready);
    // the public answer says which service is ready and how many of its processes, not its
    // checks, latency or errors
    const summary = Object.fromEntries(
      Object.entries(services).map(([name, s]) => [
        name,
        { status: s.status, ready: s.ready, instances: s.instances },
      ]),
    );
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'degraded',
      gateway: 'up',
      version: platformRelease().version,
      services: summary,
    });
  });
  app.get('/api/v1/source', sourceLink(config.SOURCE_URL));

  // a shareable public answer kept here for a second is sent before any further work (its body
  // is already encoded as the service sent it); writes drop them all
  const shared = publicCache({
    maxMs: config.PUBLIC_CACHE_MAX_MS,
    liveMaxMs: config.PUBLIC_CACHE_LIVE_MAX_MS,
    feed: opts.cacheFeed,
    maxBytes: config.PUBLIC_CACHE_MAX_BYTES,
    maxEntryBytes: 1024 * 1024,
  });
  app.use('/api/v1', shared.serve);
  app.use(compression());
  // the OpenAPI document (/api/v1/openapi.json) and its reference page (/api/docs)
  app.use(apiDocs());
  app.use(
    ['/api/v1', '/media'],
    bodyLimit((req) =>
      isUploadPath(req.originalUrl.split('?')[0] ?? '')
        ? config.UPLOAD_BODY_LIMIT_BYTES
        : config.BODY_LIMIT_BYTES,
    ),
  );
  app.use(
    rateLimits({
      login: config.RATE_LIMIT_LOGIN,
      loginWindowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
      publicWrites: config.RATE_LIMIT_PUBLIC_WRITES,
      publicWritesWindowSeconds: config.RATE_LIMIT_PUBLIC_WRITES_WINDOW_SECONDS,
      publicLookups: config.RATE_LIMIT_PUBLIC_LOOKUPS,
      publicLookupsWindowSeconds: config.RATE_LIMIT_PUBLIC_LOOKUPS_WINDOW_SECONDS,
      messageCallbacksPerMinute: config.RATE_LIMIT_MESSAGE_CALLBACKS,
      shared: opts.sharedLimits,
      logger,
    }),
  );
  app.use(['/api/v1', '/media'], verifyToken(verifier));

  app.use(
    proxyToServices({
      pools,
      shared,
      logger,
      proxyTimeoutMs: config.PROXY_TIMEOUT_MS,
      uploadTimeoutMs: config.UPLOAD_TIMEOUT_MS,
      maxSockets: config.UPSTREAM_MAX_SOCKETS,
      admission: {
        concurrency: config.MAX_CONCURRENT_REQUESTS,
        maxWaitMs: config.MAX_REQUEST_WAIT_MS,
        publicShare: config.PUBLIC_REQUEST_SHARE,
      },
    }),
  );
  // unknown API paths answer JSON, never the SPA
  app.use(['/api', '/media'], (req, _res, next) =>
    next(new AppError('ROUTE_NOT_FOUND', { extra: { path: req.originalUrl } })),
  );
  app.use(spa(config.SPA_DIR));
  app.use(errorHandler(logger));
  return app;
}

/**
 * The gateway's Prometheus metrics on their own listener (METRICS_PORT): never on the public
 * port, and the gateway routes no /metrics of a service.
 */
export function createMetricsApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  const registry = metricsRegistry('gateway');
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return app;
}

export { ServiceNames };
