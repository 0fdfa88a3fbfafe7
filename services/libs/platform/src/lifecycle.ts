import http, { type Server } from 'node:http';
import type { Express } from 'express';
import { answerClientErrors } from './http';
import type { Logger } from './logger';
import { guardRequestPaths, inRequestScope } from './request-scope';
import { settlesWithin } from './time';

type Step = { name: string; run: () => Promise<unknown> | unknown; limitMs: number };

/** Connections the kernel may hold for a listener before it accepts them. */
const LISTEN_BACKLOG = 4096;

/** No single step but the HTTP drain may hold the shutdown longer than this. */
const STEP_LIMIT_MS = 6000;

/**
 * Graceful shutdown: readiness fails first; for `drainMs` the process goes on serving (on
 * Kubernetes the endpoints still list the pod until every node has seen it turn unready, so
 * requests keep arriving for a few seconds after SIGTERM); then the HTTP server stops accepting
 * and lets in-flight requests finish (up to a timeout), then consumers, relays and connections
 * close in reverse order of their registration.
 */
export class Lifecycle {
  private accepting = true;
  private readonly steps: Step[] = [];
  private shutdownPromise?: Promise<void>;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs = 10000,
    private readonly drainMs = 0,
  ) {}

  isAccepting = (): boolean => this.accepting;

  /** Registers a step; steps run last-registered first. */
  onShutdown(name: string, run: Step['run'], limitMs = STEP_LIMIT_MS): void {
    this.steps.push({ name, run, limitMs });
  }

  listen(app: Express, port: number, host: string): Promise<Server> {
    return new Promise((resolve, reject) => {
      // every request in its own scope, for the last-resort handler (request-scope.ts)
      const server = http.createServer((req, res) => inRequestScope(req, res, app));
      server.once('error', reject);
      // a rush's connections wait in the kernel's queue (up to net.core.somaxconn) rather than
      // being refused at node's default of 511
      server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        this.onShutdown(
          'http server',
          () => closeServer(server, this.timeoutMs),
          this.timeoutMs + 1000,
        );
        resolve(server);
      });
      answerClientErrors(server);
      server.keepAliveTimeout = 65000; // longer than the gateway's agent keeps idle sockets
      server.headersTimeout = 66000;
    });
  }

  /**
   * The process's signals (graceful shutdown) and its last-resort handler of errors on a
   * request's path (request-scope.ts); called once by every process that serves.
   */
  handleSignals(name = 'process'): void {
    guardRequestPaths(this.logger, name);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        this.logger.info({ signal }, 'shutting down');
        // whatever hangs (a broker or database that is gone), the process ends within its grace
        // time (the HTTP drain's and a few seconds for the rest); what was not published stays
        // in the outbox for the next start
        const afterMs = this.drainMs + this.timeoutMs + 8000;
        const deadline = setTimeout(() => {
          this.logger.warn({ afterMs }, 'shutdown took too long; exiting');
          process.exit(1);
        }, afterMs);
        deadline.unref();
        void this.shutdown().then(
          () => process.exit(0),
          (err) => {
            this.logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  }

  shutdown(): Promise<void> {
    this.shutdownPromise ??= this.runShutdown();
    return this.shutdownPromise;
  }

  private async runShutdown(): Promise<void> {
    this.accepting = false;
    if (this.drainMs > 0) {
      this.logger.info(
        { drainMs: this.drainMs },
        'not ready; serving on while the endpoints drain',
      );
      await new Promise((resolve) => setTimeout(resolve, this.drainMs));
    }
    for (const step of [...this.steps].reverse()) {
      const run = Promise.resolve()
        .then(step.run)
        .catch((err: unknown) =>
          this.logger.warn({ err, step: step.name }, 'shutdown step failed'),
        );
      if (!(await settlesWithin(run, step.limitMs)))
        this.logger.warn({ step: step.name }, 'shutdown step timed out; going on');
    }
  }
}

/** Stops accepting, lets in-flight requests end, and cuts what remains after the timeout. */
export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Runs a service's composition root; a failure at start ends the process with its reason. */
export function runMain(name: string, main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    console.error(`${name} failed to start:`, err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
