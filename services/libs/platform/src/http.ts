import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express, type RequestHandler } from 'express';
import { AppError } from './app-error';
import client from 'prom-client';
import type { ServiceName } from '@furniture/contracts';
import type { TokenVerifier } from './auth';
import { Admission, isPriorityRequest, shedReport, type AdmissionOptions } from './admission';
import { errorHandler, notFoundHandler } from './errors';
import { requireInternalCaller } from './internal-calls';
import { httpLogger, type Logger } from './logger';

export type HealthCheck = () => Promise<boolean> | boolean;

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  /** readiness checks: the service cannot serve without these (its database) */
  checks?: Record<string, HealthCheck>;
  /** reported on /ready but not required (the broker: events wait in the outbox meanwhile) */
  info?: Record<string, HealthCheck>;
  /** more of the state, shown on /ready (the consumer: paused, and for what) */
  details?: () => Record<string, unknown>;
  /** false while shutting down: readiness fails first so no new traffic arrives */
  isAccepting?: () => boolean;
  metrics?: boolean;
  /** JSON body limit */
  bodyLimit?: string;
  /** shed, don't queue (admission.ts): the places and the longest wait; none in unit tests */
  shedding?: Pick<AdmissionOptions, 'concurrency' | 'maxWaitMs' | 'publicShare'>;
  /**
   * paths (prefixes) whose JSON body is also kept as it arrived, in `req.rawBody`: a webhook's
   * signature covers the exact bytes (the notification service's provider callbacks)
   */
  rawBodyPaths?: readonly string[];
  /**
   * the digests of the services that may call /internal routes (the kit's, from
   * INTERNAL_CALLERS); without them every internal call is refused
   */
  internalCallers?: Map<ServiceName, Buffer[]>;
}

/**
 * What every service's `createApp` takes besides its own domain objects: the options of
 * `createServiceApp` but the name, and the token verifier of its staff calls.
 */
export interface ServiceAppDeps extends Omit<ServiceAppOptions, 'name' | 'bodyLimit'> {
  verifier: TokenVerifier;
}

const registries = new Map<string, client.Registry>();

/** One metrics registry per service name (tests may start several services in one process). */
export function metricsRegistry(name: string): client.Registry {
  let registry = registries.get(name);
  if (!registry) {
    registry = new client.Registry();
    registry.setDefaultLabels({ service: name });
    if (registries.size === 0) client.collectDefaultMetrics({ register: registry });
    registries.set(name, registry);
  }
  return registry;
}

function requestMetrics(registry: client.Registry): RequestHandler {
  const histogram =
    (registry.getSingleMetric('http_request_duration_seconds') as client.Histogram | undefined) ??
    new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  return (req, res, next) => {
    const end = histogram.startTimer();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      end({
        method: req.method,
        route: route ? `${req.baseUrl}${route}` : 'unmatched',
        status: String(res.statusCode),
      });
    });
    next();
  };
}

/**
 * Liveness (/health: the process answers) and readiness (/ready: every dependency answers and the
 * service is not shutting down).
 */
export function healthRoutes(
  opts: Pick<ServiceAppOptions, 'name' | 'checks' | 'info' | 'details' | 'isAccepting'>,
) {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: opts.name });
  });
  router.get('/ready', async (_req, res) => {
    const run = async (checks: Record<string, HealthCheck> = {}) => {
      const results: Record<string, boolean> = {};
      for (const [name, check] of Object.entries(checks)) {
        try {
          results[name] = await check();
        } catch {
          results[name] = false;
        }
      }
      return results;
    };
    const [required, informative] = await Promise.all([run(opts.checks), run(opts.info)]);
    const accepting = opts.isAccepting?.() ?? true;
    const ready = accepting && Object.values(required).every(Boolean);
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : accepting ? 'not_ready' : 'shutting_down',
      service: opts.name,
      checks: { ...required, ...informative },
      ...opts.details?.(),
    });
  });
  return router;
}

/**
 * One path semantics from the gateway to every service: API paths are lower case. The gateway's
 * routing and rate limits match them case-sensitively while express routers would not, so a
 * mixed-case form (`/api/v1/auth/LOGIN`) would pass the gateway's limits and still reach the
 * route: it is refused with 404 at the gateway and again at every service.
 */
export const canonicalApiPath: RequestHandler = (req, _res, next) => {
  const pathname = req.path;
  // percent escapes (%2B of a phone number's +) may be written in either case
  const letters = pathname.replace(/%[0-9a-f]{2}/gi, '');
  if (pathname.startsWith('/api/') && letters !== letters.toLowerCase())
    return next(new AppError('ROUTE_NOT_FOUND', { extra: { path: pathname } }));
  next();
};

/**
 * The express app every service starts from: request ids and logging, metrics, JSON bodies,
 * health. The service mounts its routers and then calls `finishApp`.
 */
export function createServiceApp(opts: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // exactly one hop: the gateway, which sets X-Forwarded-For to the address it saw; a chain a
  // client wrote itself is never read
  app.set('trust proxy', 1);
  app.set('case sensitive routing', true);
  app.set('query parser', 'simple');
  app.use(httpLogger(opts.logger));
  app.use(canonicalApiPath);
  // counted here, served on the metrics port only (createMetricsApp): whoever may scrape a
  // process must not thereby reach its API and /internal routes
  if (opts.metrics !== false) app.use(requestMetrics(metricsRegistry(opts.name)));
  app.use(healthRoutes(opts));
  if (opts.shedding) {
    const admission = new Admission({
      ...opts.shedding,
      isPriority: isPriorityRequest,
      onShed: shedReport((fields, message) => opts.logger.warn(fields, message)),
    });
    app.use(admission.middleware);
  }
  // before any body is read: a caller without its credential gets nothing parsed
  app.use('/internal', requireInternalCaller(opts.internalCallers ?? new Map()));
  const rawPaths = opts.rawBodyPaths ?? [];
  app.use(
    express.json({
      limit: opts.bodyLimit ?? '100kb',
      ...(rawPaths.length > 0
        ? {
            verify: (req, _res, buf) => {
              const url = (req as { url?: string }).url ?? '';
              if (rawPaths.some((p) => url.startsWith(p)))
                (req as { rawBody?: Buffer }).rawBody = Buffer.from(buf);
            },
          }
        : {}),
    }),
  );
  return app;
}

/**
 * A process's Prometheus metrics on a listener of their own (METRICS_PORT), apart from its API:
 * the network policies let the monitoring namespace reach this port and no other.
 */
export function createMetricsApp(name: string): Express {
  const app = express();
  app.disable('x-powered-by');
  const registry = metricsRegistry(name);
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return app;
}

/** 404 for unknown routes and the one error middleware; call after mounting routers. */
export function finishApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

/**
 * Requests node's HTTP parser refuses before express sees them (a URL or headers over 16 KB,
 * broken framing) are answered in the platform's error shape too, not with node's bare status
 * line: 431 for oversized headers, 400 otherwise, always closing the connection.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const error = new AppError('BAD_REQUEST', { status });
    const message = error.localizedMessage('de');
    const body = JSON.stringify({ success: false, code: 'BAD_REQUEST', message, detail: message });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
}
