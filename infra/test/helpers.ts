// Shared helpers for the infra package's own tests.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { MESSAGES_PROVIDER_ENV_KEYS } from '../src/messages/local';
import { REPO_ROOT } from '../src/paths';

/** A fresh folder under .data/infra-selftest (kept after the run so logs can be read). */
export function freshDir(name: string): string {
  const dir = path.join(REPO_ROOT, '.data', 'infra-selftest', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Our direct child processes as [pid, command name] (Linux /proc). With `within`, only those
 * whose command line mentions that folder: when jest runs in band, the servers of the root
 * globalSetup are children of this process too.
 */
export function childProcesses(within?: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const [state, ppid] = stat.slice(close + 2).split(' ');
      if (Number(ppid) !== process.pid || state === 'Z') continue;
      if (within && !fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(within)) continue;
      out.push([Number(entry), comm]);
    } catch {
      // process vanished while reading
    }
  }
  return out;
}

export function canConnect(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const URL_KEYS = [
  'MONGO_URL',
  'AMQP_URL',
  'S3_URL',
  'SMTP_URL',
  'MAIL_API_URL',
  'MESSAGES_API_URL',
  ...MESSAGES_PROVIDER_ENV_KEYS,
] as const;

/**
 * Removes the URL variables and the messages stand-in's provider settings (a root globalSetup may
 * have set them); returns a restore function.
 */
export function clearInfraEnv(): () => void {
  const saved = Object.fromEntries(URL_KEYS.map((k) => [k, process.env[k]]));
  for (const k of URL_KEYS) delete process.env[k];
  return () => {
    for (const k of URL_KEYS) {
      const v = saved[k];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** Pids of processes whose environment contains `entry` (e.g. "RABBITMQ_NODENAME=x@localhost"). */
export function processesWithEnv(entry: string): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry))
        out.push(Number(pid));
    } catch {
      // vanished or not readable
    }
  }
  return out;
}
