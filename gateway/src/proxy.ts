import http from 'node:http';
import { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import {
  Admission,
  AppError,
  isPriorityRequest,
  shedReport,
  type AdmissionOptions,
  type Logger,
} from '@furniture/platform';
import type { PublicCache } from './middleware/public-cache';
import { isUploadPath, serviceFor, type ServiceName } from './routes';
import type { Upstreams } from './upstreams';

/** What the proxy keeps of a request between its attempts. */
interface Attempts {
  service: ServiceName;
  /** instances tried (a refused connection goes on to the next) */
  tried: Set<string>;
  /** the body as it arrived, sent again to the next instance */
  body?: Buffer;
}

const ATTEMPTS = new WeakMap<Request, Attempts>();

/** The answers that came from a service (which logs them itself). */
const PROXIED = new WeakSet<Response>();
export const proxied = (res: Response): boolean => PROXIED.has(res);

/** A connection that never reached a process: safe to send to another, whatever the method. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** A kept-alive connection that broke: the request may have reached the process. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Bodies up to this size are kept so that a refused connection can be retried elsewhere. */
const REPLAYABLE_BYTES = 1024 * 1024;

export interface ProxyOptions {
  pools: Record<ServiceName, Upstreams>;
  shared: PublicCache;
  logger: Logger;
  proxyTimeoutMs: number;
  uploadTimeoutMs: number;
  /** connections to one service process at once */
  maxSockets: number;
  admission: Pick<AdmissionOptions, 'concurrency' | 'maxWaitMs' | 'publicShare'>;
}

/**
 * The headers a service reads of the client, set on the request before it is proxied: the
 * address and host this gateway saw (after its own trusted proxies), never a chain the client
 * wrote; cookies only for the auth service (its refresh cookie, path /api/v1/auth).
 *
 * They are set here and not in http-proxy's `proxyReq` event: that event comes when the proxied
 * request gets its socket, which under load (every socket of the pool busy) is after its headers
 * were already flushed, and setting one then throws ERR_HTTP_HEADERS_SENT — the exception that
 * took the gateway down under 1,000 connections (issue 48).
 */
function forwardedHeaders(req: Request, service: ServiceName): void {
  const headers = req.headers;
  headers['x-forwarded-for'] = req.ip ?? '';
  headers['x-forwarded-proto'] = req.protocol;
  const host = req.hostname;
  if (host) headers['x-forwarded-host'] = host;
  else delete headers['x-forwarded-host'];
  delete headers['x-forwarded-port'];
  if (service !== 'auth') delete headers.cookie;
  // connection headers belong to the client's connection (RFC 9110 § 7.6.1), not to the kept
  // one to the service: an ingress that sends `Connection: close` (ingress-nginx does without
  // upstream keep-alive) would otherwise close that one after every request. What the client
  // asked for is answered on its own connection (proxyRes below).
  if (headers.connection !== undefined) CLIENT_CONNECTION.set(req, headers.connection);
  delete headers.connection;
  delete headers['keep-alive'];
  delete headers['proxy-connection'];
}

/** The client's own Connection header, taken off the request to the service. */
const CLIENT_CONNECTION = new WeakMap<Request, string>();

/**
 * The answer's Connection header for the client: its own request's (http-proxy would otherwise
 * fill in the service's, or keep-alive for a client that asked to close).
 */
function clientConnection(proxyRes: http.IncomingMessage, req: Request): void {
  delete proxyRes.headers['keep-alive'];
  const asked = CLIENT_CONNECTION.get(req);
  if (asked !== undefined && /\bclose\b/i.test(asked)) proxyRes.headers.connection = 'close';
  else delete proxyRes.headers.connection;
}

/** Reads a small declared body whole, so that it can be sent again; larger ones stream. */
function keepBody(req: Request): Promise<Buffer | undefined> {
  const length = Number(req.headers['content-length'] ?? 0);
  if (!(length > 0) || length > REPLAYABLE_BYTES || req.headers['transfer-encoding'])
    return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('aborted', () => reject(new Error('client aborted')));
  });
}

export function proxyToServices(opts: ProxyOptions): RequestHandler {
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: opts.maxSockets,
    keepAliveMsecs: 30000,
  });

  // per request, before http-proxy builds the proxied request: an upload's longer timeout, and
  // a kept body (a fresh stream for every attempt)
  const perRequest: Plugin<Request, Response> = (proxyServer) => {
    // http-proxy's own API (its typings leave out `before`): a pass run before its `stream`
    const server = proxyServer as unknown as {
      before(
        type: 'web',
        pass: 'stream',
        fn: (req: Request, res: Response, o: object) => void,
      ): void;
    };
    server.before('web', 'stream', (req, _res, options) => {
      const o = options as { proxyTimeout?: number; buffer?: Readable };
      if (isUploadPath(req.path)) o.proxyTimeout = opts.uploadTimeoutMs;
      const body = ATTEMPTS.get(req)?.body;
      if (body) o.buffer = Readable.from([body]);
    });
  };

  const unreachable = (res: Response): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const error = new AppError('SERVICE_UNAVAILABLE');
    res.status(error.status).json({
      success: false,
      code: error.code,
      message: error.localizedMessage('de'),
      detail: 'service unavailable',
    });
  };

  const proxy = createProxyMiddleware<Request, Response>({
    router: (req) => {
      const attempts = ATTEMPTS.get(req)!;
      const url = opts.pools[attempts.service].pick(attempts.tried);
      if (!url) throw new Error('no instance left to try');
      attempts.tried.add(url);
      return url;
    },
    changeOrigin: false,
    xfwd: false,
    agent,
    proxyTimeout: opts.proxyTimeoutMs,
    plugins: [perRequest],
    on: {
      proxyRes: (proxyRes, req) => {
        clientConnection(proxyRes, req as Request);
        opts.shared.capture(proxyRes, req as Request);
      },
      error: (err, req, res, target) => {
        const request = req as Request;
        const response = res as Response;
        const attempts = ATTEMPTS.get(request);
        const code = (err as NodeJS.ErrnoException).code ?? '';
        const url = typeof target === 'string' ? target : (target as URL | undefined)?.href;
        if (attempts && url && (NOT_REACHED.has(code) || BROKEN.has(code)))
          opts.pools[attempts.service].failed(url);
        const again =
          attempts &&
          !response.headersSent &&
          !response.destroyed &&
          attempts.tried.size < opts.pools[attempts.service].size &&
          (NOT_REACHED.has(code)
            ? attempts.body !== undefined || !hasBody(request)
            : BROKEN.has(code) && IDEMPOTENT.has(request.method));
        opts.logger.warn(
          { err: (err as Error).message, service: attempts?.service, retried: Boolean(again) },
          again ? 'service instance unreachable; trying another' : 'service unreachable',
        );
        if (again) {
          void proxy(request, response, () => unreachable(response));
          return;
        }
        unreachable(response);
      },
    },
  });

  const admissions = new Map<ServiceName, Admission>();
  for (const service of Object.keys(opts.pools) as ServiceName[])
    admissions.set(
      service,
      new Admission({
        ...opts.admission,
        // a service's places are this gateway's for each of its instances
        concurrency: opts.admission.concurrency * opts.pools[service].size,
        isPriority: isPriorityRequest,
        onShed: shedReport((fields, message) => opts.logger.warn({ ...fields, service }, message)),
      }),
    );

  return (req, res, next) => {
    const service = serviceFor(req.path);
    if (!service) return next();
    forwardedHeaders(req, service);
    admissions.get(service)!.middleware(req, res, () => {
      PROXIED.add(res);
      void keepBody(req).then(
        (body) => {
          ATTEMPTS.set(req, { service, tried: new Set(), body });
          return proxy(req, res, next);
        },
        () => res.destroy(),
      );
    });
  };
}

function hasBody(req: Request): boolean {
  return (
    Number(req.headers['content-length'] ?? 0) > 0 || Boolean(req.headers['transfer-encoding'])
  );
}
