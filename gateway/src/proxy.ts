import http from 'node:http';
import https from 'node:https';
import type { Request, RequestHandler, Response } from 'express';
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
  /** the request to the instance tried now */
  current?: http.ClientRequest;
}

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
 * They are set before the request to the service is made, never once it has its socket: under
 * load (every socket of the pool busy) its headers are flushed by then, and setting one throws
 * ERR_HTTP_HEADERS_SENT — the exception, thrown from http-proxy's `proxyReq` event where the
 * gateway then set them, that took the gateway down under 1,000 connections (issue 48).
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

/** An instance's address, taken apart once (not for every request). */
interface Target {
  secure: boolean;
  hostname: string;
  port: number;
  /** the address's own path ('' for none), before every request's */
  base: string;
}

function targetOf(url: string): Target {
  const u = new URL(url);
  return {
    secure: u.protocol === 'https:',
    hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
    base: u.pathname.replace(/\/+$/, ''),
  };
}

/**
 * The path asked of the service: the instance's own path and the request's, with runs of slashes
 * in the path (not the query) made one, as http-proxy, which the gateway used before, did.
 */
function outgoingPath(base: string, url: string): string {
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  if (!base && !pathname.includes('//')) return url;
  const joined = `${base}/${pathname}`.replace(/\/+/g, '/');
  return q < 0 ? joined : joined + url.slice(q);
}

/**
 * The hop to the services, done once per request with node's own client on one keep-alive
 * agent (no proxy library: issue 46, the hop). What reaches the service is what the client sent
 * (method, path, headers, body; the headers of forwardedHeaders above), without the client's
 * Connection and Keep-Alive headers, which are about its connection to the gateway only (an
 * ingress that says `Connection: close` to the gateway would otherwise close the gateway's kept
 * connection to the service after every request). The service's answer goes back as it came,
 * status, headers and body streamed, but for the headers of the service's connection.
 */
export function proxyToServices(opts: ProxyOptions): RequestHandler {
  const agentOptions = { keepAlive: true, maxSockets: opts.maxSockets, keepAliveMsecs: 30000 };
  const agent = new http.Agent(agentOptions);
  const secureAgent = new https.Agent(agentOptions);
  const targets = new Map<string, Target>();
  for (const pool of Object.values(opts.pools))
    for (const { url } of pool.instances) targets.set(url, targetOf(url));

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

  /** A request to an instance failed: retried at another when that is safe, else 503. */
  const failed = (
    err: NodeJS.ErrnoException,
    req: Request,
    res: Response,
    attempts: Attempts,
    url: string,
  ): void => {
    const code = err.code ?? '';
    const pool = opts.pools[attempts.service];
    if (NOT_REACHED.has(code) || BROKEN.has(code)) pool.failed(url);
    const again =
      !res.headersSent &&
      !res.destroyed &&
      attempts.tried.size < pool.size &&
      (NOT_REACHED.has(code)
        ? attempts.body !== undefined || !hasBody(req)
        : BROKEN.has(code) &&
          IDEMPOTENT.has(req.method) &&
          (attempts.body !== undefined || !hasBody(req)));
    opts.logger.warn(
      { err: err.message, service: attempts.service, retried: again },
      again ? 'service instance unreachable; trying another' : 'service unreachable',
    );
    if (again) send(req, res, attempts);
    else unreachable(res);
  };

  const send = (req: Request, res: Response, attempts: Attempts): void => {
    const url = opts.pools[attempts.service].pick(attempts.tried);
    if (!url) return unreachable(res);
    attempts.tried.add(url);
    const target = targets.get(url) ?? targetOf(url);
    const proxyReq = (target.secure ? https : http).request({
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: outgoingPath(target.base, req.url),
      headers: req.headers,
      agent: target.secure ? secureAgent : agent,
    });
    attempts.current = proxyReq;
    proxyReq.setTimeout(isUploadPath(req.path) ? opts.uploadTimeoutMs : opts.proxyTimeoutMs, () =>
      proxyReq.destroy(),
    );
    proxyReq.on('error', (err: NodeJS.ErrnoException) => {
      // the client is gone: nobody to answer
      if (req.socket.destroyed && err.code === 'ECONNRESET') return;
      failed(err, req, res, attempts, url);
    });
    proxyReq.on('response', (proxyRes) => {
      opts.shared.capture(proxyRes, req);
      if (res.headersSent) {
        // answered here meanwhile (a body over its limit): the service's answer is dropped
        proxyRes.resume();
        return;
      }
      answer(res, proxyRes);
      // a client that leaves before the end stops the service's answer too (a stream of events)
      res.once('close', () => {
        if (!res.writableEnded) proxyRes.destroy();
      });
      // a service's answer that breaks off midway is cut off for the client too (not left open)
      proxyRes.once('close', () => {
        if (!proxyRes.complete) res.destroy();
      });
      proxyRes.pipe(res);
    });
    if (attempts.body) proxyReq.end(attempts.body);
    else if (hasBody(req)) req.pipe(proxyReq);
    else proxyReq.end();
  };

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
          const headers = req.headers;
          const attempts: Attempts = { service, tried: new Set(), body };
          delete headers.connection;
          delete headers['keep-alive'];
          delete headers['proxy-connection'];
          // a DELETE or OPTIONS without a length says it has no body (as http-proxy did)
          if ((req.method === 'DELETE' || req.method === 'OPTIONS') && !headers['content-length']) {
            headers['content-length'] = '0';
            delete headers['transfer-encoding'];
          }
          // the client went away, or its request broke: the request to the service is ended
          // (its error then decides, as for any broken connection, what the client is told)
          const stop = (): void => void attempts.current?.destroy();
          req.once('aborted', stop);
          req.on('error', stop);
          send(req, res, attempts);
        },
        () => res.destroy(),
      );
    });
  };
}

/**
 * Headers about one connection only (RFC 9110 § 7.6.1), neither passed on to the service nor
 * back to the client: each side's connection is the gateway's own (node's server then says
 * keep-alive or close, and frames the body, as the client's request asks).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** The service's status and headers (but those of its connection) on the answer. */
function answer(res: Response, proxyRes: http.IncomingMessage): void {
  res.statusCode = proxyRes.statusCode!;
  if (proxyRes.statusMessage) res.statusMessage = proxyRes.statusMessage;
  const headers = proxyRes.headers;
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
  }
}

function hasBody(req: Request): boolean {
  return (
    Number(req.headers['content-length'] ?? 0) > 0 || Boolean(req.headers['transfer-encoding'])
  );
}
