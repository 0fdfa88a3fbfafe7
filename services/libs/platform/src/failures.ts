/**
 * Failures by kind. A handler that fails because something it depends on is unreachable (the
 * database restarting, S3, SMTP, another service) will succeed later without any change: its
 * message must wait, never be dead-lettered. Everything else is a fault of the message or of the
 * code and is retried a few times, then parked in the dead-letter queue for a person to look at.
 */

/** Thrown by code that knows a dependency is unreachable (an HTTP call to another service). */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    cause?: unknown,
  ) {
    super(`${dependency} is unavailable${cause instanceof Error ? `: ${cause.message}` : ''}`, {
      cause,
    });
    this.name = 'DependencyUnavailableError';
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ESOCKETTIMEDOUT',
  'ETIME',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The MongoDB driver's errors that mean "no server to talk to right now". */
const MONGO_TRANSIENT_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoServerClosedError',
]);

/** Server codes of MongoDB for a node that is shutting down, stepping down or unreachable. */
const MONGO_TRANSIENT_CODES = new Set([
  6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
]);

function isTransientOne(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  if (err instanceof DependencyUnavailableError) return true;
  const e = err as {
    name?: string;
    code?: unknown;
    message?: string;
    status?: number;
    hasErrorLabel?: (label: string) => boolean;
  };
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (e.name && MONGO_TRANSIENT_NAMES.has(e.name)) return true;
  if (
    e.name?.startsWith('Mongo') &&
    typeof e.code === 'number' &&
    MONGO_TRANSIENT_CODES.has(e.code)
  )
    return true;
  if (typeof e.hasErrorLabel === 'function') {
    if (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('ResetPool')) return true;
  }
  // mongoose queues operations while disconnected and gives up after bufferTimeoutMS
  if (typeof e.message === 'string' && /buffering timed out after/.test(e.message)) return true;
  // an AppError a service answers while a dependency is down
  if (e.status === 503) return true;
  return false;
}

/**
 * true when an error means "a dependency is unreachable or too slow right now" (network errors,
 * the MongoDB driver's connection errors, mongoose's buffering timeout, a 503 AppError, a
 * DependencyUnavailableError), looking through `cause` chains.
 */
export function isTransientError(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current; depth++) {
    if (isTransientOne(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
