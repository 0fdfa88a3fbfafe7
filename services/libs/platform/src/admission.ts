import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from './app-error';

/**
 * Shed, don't queue (issue 48). A process serves at most `concurrency` requests at once; more
 * wait in arrival order, but only as long as they could still be served within `maxWaitMs`: a
 * request that would wait longer is answered at once with 503 and Retry-After (the SPA shows
 * "busy, trying again" and retries later), and one whose wait runs out is answered so too.
 * Waiting for many seconds helps nobody: the visitor has given up, and the work of answering
 * them still crowds out everybody else.
 *
 * Requests of the `priority` class (staff calls, logins, health) may fill every place and are let
 * in before waiting public ones; public requests may fill only `publicShare` of them, so a public
 * rush never locks staff out.
 *
 * Node has no well-kept express middleware for this: `toobusy-js` and `overload-protection`
 * shed by event-loop delay alone (no classes, no bound on the wait), fastify's `under-pressure`
 * is for fastify. The gateway and every service use this one.
 */
export interface AdmissionOptions {
  /** requests served at once */
  concurrency: number;
  /** the longest a request may wait for its place */
  maxWaitMs: number;
  /** the share of `concurrency` that public requests may fill (0..1) */
  publicShare: number;
  /** requests that are never shed while a place of the reserved share is free */
  isPriority: (req: Request) => boolean;
  /** called for every shed request (metrics, a sampled log line) */
  onShed?: (req: Request, reason: 'full' | 'timeout') => void;
}

interface Waiting {
  admit: () => void;
  priority: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Staff calls (a bearer token), a login or refresh, and calls between services: never crowded
 * out by a public rush. A bot may send a bearer header to pass as staff; the gateway refuses a
 * forged token before it takes a place (verify-token), a service right after it.
 */
export function isPriorityRequest(req: Request): boolean {
  if (req.headers.authorization) return true;
  const path = req.path;
  return path.startsWith('/internal/') || /^\/api\/v1\/auth\/(login|refresh)\/?$/.test(path);
}

/** Seconds a shed client is asked to wait before it tries again. */
export const SHED_RETRY_AFTER_SECONDS = 2;

/**
 * The answer to a shed request, made once: a rush sheds thousands a second, and an AppError each
 * (its stack trace) cost more than answering them.
 */
const BUSY = (() => {
  const error = new AppError('SERVICE_BUSY');
  const message = error.localizedMessage('de');
  const body = Buffer.from(
    JSON.stringify({
      success: false,
      code: error.code,
      message,
      detail: message,
      retry_after: SHED_RETRY_AFTER_SECONDS,
    }),
  );
  return {
    status: error.status,
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      'retry-after': String(SHED_RETRY_AFTER_SECONDS),
      'cache-control': 'no-store',
    },
  };
})();

/** Answers that were shed (the request log leaves them to one summary line: shedReport). */
const SHED = new WeakSet<ServerResponse>();
export const wasShed = (res: ServerResponse): boolean => SHED.has(res);

export function answerBusy(res: Response): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  SHED.add(res);
  res.writeHead(BUSY.status, BUSY.headers);
  res.end(BUSY.body);
}

export class Admission {
  private active = 0;
  private activePublic = 0;
  private readonly waiting: Waiting[] = [];
  /** a moving average of how long a request holds its place, for the wait estimate */
  private serviceMs = 20;
  /** requests shed since start (metrics) */
  shed = 0;

  constructor(private readonly opts: AdmissionOptions) {}

  private get publicLimit(): number {
    return Math.max(1, Math.floor(this.opts.concurrency * this.opts.publicShare));
  }

  private hasPlace(priority: boolean): boolean {
    if (this.active >= this.opts.concurrency) return false;
    return priority || this.activePublic < this.publicLimit;
  }

  /** How long a request arriving now would wait, from the queue ahead of it. */
  private expectedWaitMs(priority: boolean): number {
    let ahead = 0;
    for (const w of this.waiting) if (w.priority || !priority) ahead++;
    const places = priority ? this.opts.concurrency : this.publicLimit;
    return ((ahead + 1) * this.serviceMs) / places;
  }

  get stats(): { active: number; waiting: number; shed: number } {
    return { active: this.active, waiting: this.waiting.length, shed: this.shed };
  }

  middleware: RequestHandler = (req, res, next) => {
    const priority = this.opts.isPriority(req);
    if (this.hasPlace(priority)) {
      this.hold(priority, res);
      return next();
    }
    if (this.expectedWaitMs(priority) > this.opts.maxWaitMs) return this.refuse(req, res, 'full');
    const waiting: Waiting = {
      priority,
      admit: () => {
        clearTimeout(waiting.timer);
        this.hold(priority, res);
        next();
      },
      timer: setTimeout(() => {
        this.unqueue(waiting);
        this.refuse(req, res, 'timeout');
      }, this.opts.maxWaitMs),
    };
    // a client that gave up while waiting gives its turn back
    res.once('close', () => {
      if (this.unqueue(waiting)) clearTimeout(waiting.timer);
    });
    this.waiting.push(waiting);
  };

  private unqueue(waiting: Waiting): boolean {
    const at = this.waiting.indexOf(waiting);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  private refuse(req: Request, res: Response, reason: 'full' | 'timeout'): void {
    this.shed++;
    this.opts.onShed?.(req, reason);
    answerBusy(res);
  }

  /** Takes a place until the answer is sent or the client is gone. */
  private hold(priority: boolean, res: Response): void {
    this.active++;
    if (!priority) this.activePublic++;
    const started = performance.now();
    let left = false;
    const leave = (): void => {
      if (left) return;
      left = true;
      this.serviceMs = this.serviceMs * 0.9 + (performance.now() - started) * 0.1;
      this.active--;
      if (!priority) this.activePublic--;
      this.admitNext();
    };
    res.once('finish', leave);
    res.once('close', leave);
  }

  private admitNext(): void {
    while (this.waiting.length > 0) {
      // priority first, then the others in arrival order
      let at = this.waiting.findIndex((w) => w.priority);
      if (at < 0 || !this.hasPlace(true))
        at = this.waiting.findIndex((w) => this.hasPlace(w.priority));
      if (at < 0) return;
      const [next] = this.waiting.splice(at, 1);
      next!.admit();
    }
  }
}

/**
 * One warning per `everyMs` while requests are shed, with how many and why, instead of an error
 * line for each (a rush sheds thousands a second).
 */
export function shedReport(
  warn: (fields: object, message: string) => void,
  everyMs = 10_000,
): NonNullable<AdmissionOptions['onShed']> {
  let full = 0;
  let timeout = 0;
  let timer: NodeJS.Timeout | undefined;
  return (_req, reason) => {
    if (reason === 'full') full++;
    else timeout++;
    timer ??= setTimeout(() => {
      warn(
        { full, waitedTooLong: timeout, seconds: everyMs / 1000 },
        'busy: requests shed (503 with Retry-After)',
      );
      full = 0;
      timeout = 0;
      timer = undefined;
    }, everyMs).unref();
  };
}
