// Child processes that we own: output goes to a log file, a pid file lets the next run clean up
// after a crashed parent, and every child is terminated when this Node process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rotateIfFull } from './log-files';
import { displayPath } from './paths';
import { raceTimeout, tailFile, TIMED_OUT, type Log } from './util';

export interface SpawnOptions {
  /** Short name used in messages, e.g. "FerretDB". */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr of the child are appended here. */
  logFile: string;
  /** Holds "<child pid> <our pid>" while the child runs (see killStaleProcess). */
  pidFile?: string;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<ManagedProcess>();
let handlersInstalled = false;

export class ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves when the child has exited (never rejects). */
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly child: ChildProcess;

  constructor(opts: SpawnOptions) {
    fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
    // the child writes the file itself (it may outlive us): moved aside only here, at a start
    rotateIfFull(opts.logFile);
    const fd = fs.openSync(opts.logFile, 'a');
    try {
      fs.writeSync(
        fd,
        `\n=== ${new Date().toISOString()} starting: ${opts.command} ${opts.args.join(' ')}\n`,
      );
      this.child = spawn(opts.command, opts.args, {
        cwd: opts.cwd,
        env: opts.env ?? process.env,
        stdio: ['ignore', fd, fd],
      });
    } finally {
      fs.closeSync(fd); // the child has its own copy
    }
    this.name = opts.name;
    this.logFile = opts.logFile;
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.once('error', (err) => {
        fs.appendFileSync(opts.logFile, `=== could not start ${opts.command}: ${err.message}\n`);
        this.exitInfo = { code: -1, signal: null };
        resolve(this.exitInfo);
      });
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
    this.pid = this.child.pid ?? -1;
    running.add(this);
    installExitHandlers();
    const pidFile = opts.pidFile;
    if (pidFile && this.pid > 0) {
      fs.mkdirSync(path.dirname(pidFile), { recursive: true });
      fs.writeFileSync(pidFile, `${this.pid} ${process.pid}\n`);
    }
    void this.exited.then(() => {
      running.delete(this);
      if (pidFile) fs.rmSync(pidFile, { force: true });
    });
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined;
  }

  /** Rejects as soon as the child exits: pass it as `abort` to waitUntil while waiting for readiness. */
  exitAsError(): Promise<never> {
    return this.exited.then((info) => {
      throw new Error(
        `${this.name} exited during startup (${describeExit(info)}); ${this.logHint()}`,
      );
    });
  }

  /** "see <log>" plus the last lines of the log, for error messages. */
  logHint(lines = 15): string {
    const tail = tailFile(this.logFile, lines);
    return `see ${displayPath(this.logFile)}${tail ? `:\n${tail}` : ''}`;
  }

  signal(sig: NodeJS.Signals): void {
    if (!this.isRunning) return;
    try {
      process.kill(this.pid, sig);
    } catch {
      // already gone
    }
  }

  /** SIGTERM, wait up to `graceMs`, then SIGKILL. Resolves once the child is gone. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.isRunning) return;
    this.signal('SIGTERM');
    if ((await raceTimeout(this.exited, graceMs)) === TIMED_OUT) {
      this.signal('SIGKILL');
      await this.exited;
    }
  }
}

function describeExit(info: ExitInfo): string {
  return info.signal ? `signal ${info.signal}` : `exit code ${String(info.code)}`;
}

/** Terminates every child still running; synchronous so it also works inside 'exit' handlers. */
function terminateAllSync(sig: NodeJS.Signals): void {
  for (const p of running) p.signal(sig);
}

function onSignal(sig: NodeJS.Signals): void {
  // When the application has its own handler it owns the shutdown and calls stop() itself.
  if (process.listenerCount(sig) > 1) return;
  terminateAllSync('SIGTERM');
  // Re-raise with the default action so the exit status is the usual one for the signal.
  process.removeListener(sig, onSignal);
  process.kill(process.pid, sig);
}

function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => terminateAllSync('SIGTERM'));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, onSignal);
}

function readProc(pid: number, file: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return ''; // gone, not ours to read, or no /proc
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie is gone
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/**
 * The process a pid file names ("<child pid> <owner pid>", see killStaleProcess) when it is alive,
 * is `marker` (its command line mentions it) and its owner is alive too: a server another run
 * (make run) is using right now. Its command line and environment come along (its port, its
 * credentials). Linux only (/proc); elsewhere undefined.
 */
export function liveChild(
  pidFile: string,
  marker: string,
): { pid: number; owner: number; cmdline: string[]; environ: Record<string, string> } | undefined {
  let pid: number;
  let owner: number;
  try {
    const [a, b] = fs.readFileSync(pidFile, 'utf8').trim().split(/\s+/);
    pid = Number.parseInt(a ?? '', 10);
    owner = Number.parseInt(b ?? '', 10);
  } catch {
    return undefined;
  }
  if (!(pid > 1 && owner > 1 && isAlive(pid) && isAlive(owner))) return undefined;
  const cmdline = readProc(pid, 'cmdline').split('\0').filter(Boolean);
  if (!cmdline.some((arg) => arg.includes(marker))) return undefined;
  const environ = Object.fromEntries(
    readProc(pid, 'environ')
      .split('\0')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return { pid, owner, cmdline, environ };
}

/**
 * A previous run whose parent was killed hard may have left its child running (holding the port
 * and the data folder). `pidFile` holds "<child pid> <owner pid>". When the child is alive, its
 * command line or environment mentions `marker` (our binary path, or the RabbitMQ node name that
 * the rabbitmq-server script only has in its environment) and its owner is gone, it is
 * stopped (SIGTERM, SIGKILL after 10 s). When the owner is still alive, another process is using
 * the same data folder right now: that is an error. Linux only (/proc); elsewhere nothing happens.
 */
export async function killStaleProcess(pidFile: string, marker: string, log: Log): Promise<void> {
  let pid: number;
  let owner: number;
  try {
    const [a, b] = fs.readFileSync(pidFile, 'utf8').trim().split(/\s+/);
    pid = Number.parseInt(a ?? '', 10);
    owner = Number.parseInt(b ?? '', 10);
  } catch {
    return;
  }
  let cmdline = '';
  let environ = '';
  if (Number.isInteger(pid) && pid > 1 && pid !== process.pid && isAlive(pid)) {
    cmdline = readProc(pid, 'cmdline').replaceAll('\0', ' ').trim();
    environ = readProc(pid, 'environ');
  }
  if (!cmdline.includes(marker) && !environ.includes(marker)) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  if (Number.isInteger(owner) && owner > 1 && isAlive(owner)) {
    throw new Error(
      `${displayPath(pidFile)}: process ${pid} (${cmdline.slice(0, 80)}) belongs to running process ${owner}${owner === process.pid ? ' (this one)' : ''}; stop that first`,
    );
  }
  log(`stopping leftover process ${pid} from an earlier run (${cmdline.slice(0, 120)})`);
  const signal = (sig: NodeJS.Signals): void => {
    try {
      process.kill(pid, sig);
    } catch {
      // gone meanwhile
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) signal('SIGKILL');
  fs.rmSync(pidFile, { force: true });
}
