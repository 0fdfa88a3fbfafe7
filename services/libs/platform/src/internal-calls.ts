import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { InternalCallers, ServiceNames, type ServiceName } from '@furniture/contracts';
import { AppError } from './app-error';
import { readSecret } from './config';
import { DependencyUnavailableError } from './failures';

/*
 * Service-to-service calls (/internal routes). Each service holds a secret of its own
 * (INTERNAL_SECRET) and sends it with its name as HTTP Basic credentials; the callee holds only
 * the SHA-256 digests of its callers' secrets (INTERNAL_CALLERS), so a compromised callee cannot
 * call anything as its caller, and answers 401 without a valid credential and 403 to a service
 * that InternalCallers (contracts) does not list for the route. Rotation: the callee accepts
 * several digests per caller (docs/security.md, "Service-to-service calls").
 */

/** This process's own credential for the calls it makes. */
export interface InternalCredential {
  caller: ServiceName;
  secret: string;
}

/** The digest a callee keeps of a caller's secret (hex). */
export function internalSecretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Secrets shorter than this are refused: a guessable one is no credential. */
const MIN_SECRET_LENGTH = 32;

/**
 * The accepted digests per caller from `caller:sha256hex` entries, separated by white space or
 * commas; a caller may appear more than once (its old and new secret while one rotates).
 */
export function parseInternalCallers(spec: string): Map<ServiceName, Buffer[]> {
  const callers = new Map<ServiceName, Buffer[]>();
  for (const entry of spec.split(/[\s,]+/).filter(Boolean)) {
    const [name, digest] = entry.split(':');
    if (!ServiceNames.includes(name as ServiceName) || !/^[0-9a-f]{64}$/.test(digest ?? ''))
      throw new Error(
        `Invalid configuration:\n  INTERNAL_CALLERS: "${name}:…" is not <service>:<64 hex digits of SHA-256>`,
      );
    const list = callers.get(name as ServiceName) ?? [];
    list.push(Buffer.from(digest!, 'hex'));
    callers.set(name as ServiceName, list);
  }
  return callers;
}

/** The credential and accepted callers of a service's configuration (either may be absent). */
export function internalAuthFromConfig(
  service: string,
  config: {
    INTERNAL_SECRET?: string;
    INTERNAL_SECRET_FILE?: string;
    INTERNAL_CALLERS?: string;
    INTERNAL_CALLERS_FILE?: string;
  },
): { credential?: InternalCredential; callers: Map<ServiceName, Buffer[]> } {
  const secret =
    config.INTERNAL_SECRET || config.INTERNAL_SECRET_FILE
      ? readSecret(config.INTERNAL_SECRET, config.INTERNAL_SECRET_FILE, 'INTERNAL_SECRET').trim()
      : undefined;
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH)
    throw new Error(
      `Invalid configuration:\n  INTERNAL_SECRET: at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -base64 32)`,
    );
  const spec =
    config.INTERNAL_CALLERS || config.INTERNAL_CALLERS_FILE
      ? readSecret(config.INTERNAL_CALLERS, config.INTERNAL_CALLERS_FILE, 'INTERNAL_CALLERS')
      : '';
  const known = ServiceNames.includes(service as ServiceName);
  return {
    credential: secret && known ? { caller: service as ServiceName, secret } : undefined,
    callers: parseInternalCallers(spec),
  };
}

/** The Authorization header value of a credential. */
export function internalAuthorization(credential: InternalCredential): string {
  return `Basic ${Buffer.from(`${credential.caller}:${credential.secret}`).toString('base64')}`;
}

/** The internal routes as method, path segments ({param}: any one segment) and callers. */
const ROUTES = Object.entries(InternalCallers).map(([key, route]) => {
  const [method, template] = key.split(' ') as [string, string];
  return { method, segments: template.split('/'), callers: route.callers };
});

function routeCallers(method: string, path: string): readonly ServiceName[] | undefined {
  const segments = path.replace(/(.)\/+$/, '$1').split('/');
  return ROUTES.find(
    (r) =>
      r.method === method &&
      r.segments.length === segments.length &&
      r.segments.every((s, i) => (/^\{\w+\}$/.test(s) ? segments[i] !== '' : s === segments[i])),
  )?.callers;
}

function callerOf(
  header: string | undefined,
  callers: Map<ServiceName, Buffer[]>,
): ServiceName | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const name = decoded.slice(0, colon) as ServiceName;
  const digest = createHash('sha256')
    .update(decoded.slice(colon + 1), 'utf8')
    .digest();
  // every accepted digest is compared in full, in constant time
  let valid = false;
  for (const known of callers.get(name) ?? []) valid = timingSafeEqual(known, digest) || valid;
  return valid ? name : undefined;
}

/**
 * Mounted on /internal of every service (createServiceApp): 401 AUTH_REQUIRED without a valid
 * credential of a service, 403 FORBIDDEN to a service the route does not list; an unknown
 * internal path is refused the same way before it could answer 404.
 */
export function requireInternalCaller(callers: Map<ServiceName, Buffer[]>): RequestHandler {
  return (req, res, next) => {
    const caller = callerOf(req.headers.authorization, callers);
    if (!caller) {
      res.setHeader('www-authenticate', 'Basic realm="internal"');
      return next(new AppError('AUTH_REQUIRED'));
    }
    if (!routeCallers(req.method, req.baseUrl + req.path)?.includes(caller))
      return next(new AppError('FORBIDDEN'));
    next();
  };
}

/**
 * A client of another service's /internal routes: the credential on every call, a timeout, and
 * DependencyUnavailableError when the service does not answer or fails (the caller waits, retries
 * or answers 503). `client` answers the page's JSON parsed with `answer`.
 */
export interface InternalClient {
  call<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    opts: { answer: S; body?: unknown; query?: Record<string, string>; timeoutMs?: number },
  ): Promise<z.infer<S>>;
}

/**
 * A service's address setting: one URL (a Kubernetes Service, which spreads the connections
 * itself), or several separated by commas (make run REPLICAS=2: each process of the service).
 */
export function addressesOf(setting: string): string[] {
  return setting
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/**
 * Whether a failed call may be sent to another process of the service: always when the
 * connection never reached one (it is not there); a read also when a kept-alive connection
 * broke under it (the process went away).
 */
function mayTryNext(err: unknown, method: string): boolean {
  const code = (err as { cause?: { code?: string } } | undefined)?.cause?.code ?? '';
  if (['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) return true;
  return method === 'GET' && ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(code);
}

export function internalClient(opts: {
  /** the callee, as DependencyUnavailableError names it */
  service: ServiceName;
  /** one address, or several separated by commas (addressesOf) */
  baseUrl: string;
  credential?: InternalCredential;
  timeoutMs?: number;
}): InternalClient {
  const addresses = addressesOf(opts.baseUrl);
  let next = 0;
  return {
    async call(method, path, call) {
      const headers: Record<string, string> = {};
      if (opts.credential) headers.authorization = internalAuthorization(opts.credential);
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      let res: Response | undefined;
      // round robin over the service's processes; one that refuses the connection is passed
      // for the next (the call never reached it, whatever its method)
      const first = next++ % addresses.length;
      for (let tried = 0; !res; tried++) {
        const url = new URL(path, addresses[(first + tried) % addresses.length]);
        for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
        try {
          res = await fetch(url, {
            method,
            headers,
            body: call.body === undefined ? undefined : JSON.stringify(call.body),
            signal: AbortSignal.timeout(call.timeoutMs ?? opts.timeoutMs ?? 10000),
          });
        } catch (err) {
          if (mayTryNext(err, method) && tried + 1 < addresses.length) continue;
          throw new DependencyUnavailableError(opts.service, err);
        }
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new DependencyUnavailableError(
          opts.service,
          new Error(`${method} ${path} answered ${res.status}`),
        );
      }
      return call.answer.parse(await res.json()) as z.infer<typeof call.answer>;
    },
  };
}
