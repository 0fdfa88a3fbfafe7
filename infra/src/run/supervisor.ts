import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { logRotation, RotatingLog, type LogRotation } from '../log-files';
import { formatLogLine } from './log-format';

export interface ServiceSpec {
  name: string;
  /** file run with node */
  entry: string;
  env: NodeJS.ProcessEnv;
  /** node's own options before the entry (make dev: `--watch`) */
  nodeArgs?: string[];
}

/**
 * Runs the services as separate node processes, prints their logs in one readable stream (and
 * keeps them in <logDir>/<name>.log, rotated by size: log-files.ts), restarts one that crashes
 * with growing delays, and stops them all on request.
 */
export class Supervisor {
  private readonly children = new Map<string, ChildProcess>();
  private stopping = false;

  constructor(
    private readonly opts: {
      logDir: string;
      print: (line: string) => void;
      cwd: string;
      /** RUN_LOG_MAX_MB and RUN_LOG_KEEP by default */
      rotation?: LogRotation;
    },
  ) {
    fs.mkdirSync(opts.logDir, { recursive: true });
  }

  start(spec: ServiceSpec, restarts = 0): void {
    const logFile = new RotatingLog(
      path.join(this.opts.logDir, `${spec.name}.log`),
      this.opts.rotation ?? logRotation(),
    );
    const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.entry], {
      cwd: this.opts.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.set(spec.name, child);
    const startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        logFile.write(line);
        this.opts.print(formatLogLine(spec.name, line));
      });
    }
    // after the last line of both streams
    child.once('close', () => logFile.close());
    child.once('exit', (code, signal) => {
      this.children.delete(spec.name);
      if (this.stopping) return;
      // a service that ran for a while starts over with a short delay
      const attempt = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
      const delay = Math.min(1000 * 2 ** attempt, 30_000);
      this.opts.print(
        `${spec.name.padEnd(12)} exited (${signal ?? `code ${String(code)}`}); restarting in ${delay / 1000}s — see ${path.join(this.opts.logDir, `${spec.name}.log`)}`,
      );
      setTimeout(() => {
        if (!this.stopping) this.start(spec, attempt);
      }, delay).unref();
    });
  }

  /** Sends a signal to one running service (fault tests: SIGKILL, SIGSTOP/SIGCONT, SIGTERM). */
  signal(name: string, signal: NodeJS.Signals): boolean {
    const child = this.children.get(name);
    return child ? child.kill(signal) : false;
  }

  /** The process id of a running service (undefined while it is down or restarting). */
  pid(name: string): number | undefined {
    return this.children.get(name)?.pid;
  }

  /** Resolves when the named service's current process has exited. */
  exited(name: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.children.get(name);
    if (!child) return Promise.resolve({ code: null, signal: null });
    return new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** SIGTERM to every service (they shut down gracefully), SIGKILL after the grace time. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
