import { wasShed } from './admission';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { maskPersonalData } from './privacy';

export type { Logger } from 'pino';

export const REQUEST_ID_HEADER = 'x-request-id';

/** The trace and span of the line (when tracing is on), to find a request's lines by its trace. */
function traceIds(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

// timestamps and request ids are digits and dashes too: left readable
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
// trace and span ids (tracing.ts) are hex digits
const TRACE_ID = /^(?:[0-9a-f]{16}|[0-9a-f]{32})$/;

// a bearer secret in a URL: a path segment of 24+ letters, digits, - or _ (a family's booking
// link, 64 hex digits) that is no UUID (photo and event ids stay readable), and the value of a
// query parameter named key, token, secret, signature or code (a location's feed key)
const SECRET_SEGMENT =
  /\/(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-]))[\w-]{24,}(?=[/?#\s"'<>]|$)/gi;
const SECRET_PARAM = /([?&;](?:[\w.-]*(?:key|token|secret|signature|sig|code)))=[^&#\s"'<>]+/gi;

/** A text with the bearer secrets of its URLs redacted (issue 43: no token in any log). */
export function maskSecrets(text: string): string {
  return text.replace(SECRET_SEGMENT, '/[redacted]').replace(SECRET_PARAM, '$1=[redacted]');
}

/** What every string of a log line goes through: bearer secrets, then personal data. */
export function maskLogText(text: string): string {
  return maskPersonalData(maskSecrets(text));
}

/**
 * Every string of a log line with bearer secrets in URLs redacted and phone numbers and e-mail
 * addresses masked (families' numbers travel in URLs: check-status, can-apply, ?phone=). Dates
 * stay as they are.
 */
export function maskLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return ISO_DATE.test(value) || UUID.test(value) || TRACE_ID.test(value)
      ? value
      : maskLogText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v) => maskLogValue(v, depth + 1));
  if (value instanceof Error) return maskLogValue({ ...pino.stdSerializers.err(value) }, depth);
  // requests, responses, sockets: their serializers pick what is logged
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = maskLogValue(v, depth + 1);
  return out;
}

export function createLogger(
  name: string,
  level = 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { service: name },
    mixin: traceIds,
    formatters: { log: (obj) => maskLogValue(obj) as Record<string, unknown> },
    serializers: { err: (err: unknown) => maskLogValue(err) },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? maskLogText(a) : a)) as typeof args,
        );
      },
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-feed-key"]',
        'req.headers["x-donation-token"]',
        '*.password',
        '*.new_password',
        '*.current_password',
        '*.access_token',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Request id from the gateway (or a new one), echoed on the answer. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id =
    typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

// probes and scrapes would drown everything else
const QUIET_PATHS = /\/(health|ready|metrics)$/;

/**
 * One line per request when it ends, carrying the request id (the line pino-http wrote:
 * `req`, `res`, `responseTime`, "request completed"), without pino-http's per-request child
 * logger: at the gateway that cost more than the proxying. Sets `req.id` (the error handler
 * logs it). Nothing is built for a line the level leaves out.
 */
export function httpLogger(
  logger: Logger,
  /**
   * answers whose line is only a debug line unless they failed (5xx): at the gateway, what a
   * service answered (the service writes the line, under the same request id) and what the
   * gateway answered routinely (its kept answers, the web app); a rush is not logged twice
   */
  opts: { quiet?: (req: IncomingMessage, res: ServerResponse) => boolean } = {},
) {
  return (
    req: IncomingMessage & { id?: string },
    res: ServerResponse,
    next: (err?: unknown) => void,
  ): void => {
    req.id = requestId(req, res);
    const url = req.url ?? '';
    if (QUIET_PATHS.test(url.split('?')[0] ?? '')) return next();
    const started = performance.now();
    const done = () => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      // the client went away before the answer was sent: its business, not a fault here
      const aborted = !res.writableFinished;
      const level = wasShed(res)
        ? 'debug'
        : res.statusCode >= 500
          ? 'error'
          : opts.quiet?.(req, res)
            ? 'debug'
            : aborted || res.statusCode >= 400
              ? 'warn'
              : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: { id: req.id, method: req.method, url: maskLogText(url) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        aborted ? 'request aborted' : 'request completed',
      );
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}
