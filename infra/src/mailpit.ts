// Mailpit: the local mail catcher (SMTP in, its web UI and JSON API out), built from its Go module
// like FerretDB and MinIO (scripts/go-tools.cjs). Mail lives in one SQLite file: under the data
// folder for `make run` (kept between runs), in a temporary folder for a catcher of a test's own.
// The SMTP fault tests take the whole server down and bring it back on the same ports and file
// (stopServer/startServer), or make it refuse recipients through its chaos triggers.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { killStaleProcess, ManagedProcess } from './process';
import { ensureTool } from './tools';
import { choosePort, noLog, waitUntil, type Log } from './util';

export interface MailpitOptions {
  /** Default: the pinned build from the tool cache (built first when missing). */
  binary?: string;
  /**
   * Folder for the database (mailpit/mailpit.db), its log and pid file; absent: a temporary
   * folder that stop() removes.
   */
  dataDir?: string;
  /** 0 or absent: a free port. */
  smtpPort?: number;
  /** 0 or absent: a free port. */
  httpPort?: number;
  host?: string;
  /** The most mails kept (the oldest go first); 0: no limit. */
  maxMessages?: number;
  log?: Log;
  timeoutMs?: number;
}

/** What a chaos trigger makes the SMTP side answer (an SMTP code from 400 to 599). */
export type SmtpRefusal = { code: number } | null;

export interface Mailpit {
  /** smtp://host:port */
  smtpUrl: string;
  /** http://host:port: the web UI and the API (/api/v1/…) */
  apiUrl: string;
  smtpPort: number;
  httpPort: number;
  /** Stops the server for good (a temporary folder goes with it). */
  stop(): Promise<void>;
  /**
   * Takes the whole server down (SMTP refuses connections, the API does not answer) keeping its
   * ports and database: an SMTP outage for tests.
   */
  stopServer(): Promise<void>;
  /** Starts it again on the same ports with the same mail. */
  startServer(): Promise<void>;
  /**
   * Answers every recipient with `code` (451: try again later, 550: refused for good) until
   * called with null: a server that is up but refuses (Mailpit's chaos trigger).
   */
  refuseRecipients(refusal: SmtpRefusal): Promise<void>;
}

/** What to do when Mailpit's ports are taken (said where they are chosen). */
export const MAILPIT_PORT_HINT =
  'set SMTP_PORT / MAIL_HTTP_PORT, or SMTP_URL and MAIL_API_URL to use another server';

export async function startMailpit(opts: MailpitOptions = {}): Promise<Mailpit> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? noLog;
  const binary = opts.binary ?? (await ensureTool('mailpit', log));
  const temporary = opts.dataDir
    ? undefined
    : fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-mailpit-'));
  const dataDir = opts.dataDir ?? temporary!;
  const pidFile = path.join(dataDir, 'pids', 'mailpit.pid');
  const database = path.join(dataDir, 'mailpit', 'mailpit.db');
  fs.mkdirSync(path.dirname(database), { recursive: true });
  await killStaleProcess(pidFile, binary, log);
  const hint = MAILPIT_PORT_HINT;
  const smtpPort = await choosePort(opts.smtpPort, 'Mailpit SMTP', hint, host);
  const httpPort = await choosePort(opts.httpPort, 'Mailpit web UI and API', hint, host);
  const apiUrl = `http://${host}:${httpPort}`;
  const args = [
    `--smtp=${host}:${smtpPort}`,
    `--listen=${host}:${httpPort}`,
    `--database=${database}`,
    `--max=${opts.maxMessages ?? 0}`,
    // any credentials or none, over plain SMTP: SMTP_URL may carry a user for a real server
    '--smtp-auth-accept-any',
    '--smtp-auth-allow-insecure',
    '--smtp-disable-rdns',
    '--enable-chaos',
    '--disable-version-check',
    // errors only: at info level every mail's addresses would be logged
    '--quiet',
  ];

  let proc: ManagedProcess | undefined;
  async function startServer(): Promise<void> {
    if (proc) return;
    const started = Date.now();
    const p = new ManagedProcess({
      name: 'Mailpit',
      command: binary,
      args,
      logFile: path.join(dataDir, 'logs', 'mailpit.log'),
      pidFile,
    });
    try {
      await waitUntil(() => ready(apiUrl, host, smtpPort), {
        what: `Mailpit on ${host}:${httpPort}`,
        timeoutMs: opts.timeoutMs ?? 30_000,
        intervalMs: 50,
        abort: p.exitAsError(),
        hint: () => p.logHint(),
      });
    } catch (err) {
      await p.stop();
      throw err;
    }
    proc = p;
    log(
      `Mailpit ready: SMTP smtp://${host}:${smtpPort}, mail at ${apiUrl} (${Date.now() - started} ms)`,
    );
  }
  async function stopServer(): Promise<void> {
    const p = proc;
    proc = undefined;
    await p?.stop();
  }

  await startServer();
  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    apiUrl,
    smtpPort,
    httpPort,
    startServer,
    stopServer,
    async refuseRecipients(refusal) {
      const res = await fetch(`${apiUrl}/api/v1/chaos`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          Recipient: refusal ? { ErrorCode: refusal.code, Probability: 100 } : { Probability: 0 },
        }),
      });
      if (!res.ok) throw new Error(`Mailpit chaos: ${res.status} ${await res.text()}`);
    },
    async stop() {
      await stopServer();
      if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
    },
  };
}

/**
 * Ready: its database open and its web server up (Mailpit's /readyz), and its SMTP side greeting
 * (Mailpit starts the web server first, then listens for SMTP).
 */
async function ready(apiUrl: string, host: string, smtpPort: number): Promise<void> {
  const res = await fetch(`${apiUrl}/readyz`, { signal: AbortSignal.timeout(1000) });
  if (!res.ok) throw new Error(`readyz answered ${res.status}`);
  await smtpGreets(host, smtpPort);
}

function smtpGreets(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('data', (data) => {
      socket.end('QUIT\r\n');
      if (data.toString('latin1').startsWith('220')) resolve();
      else reject(new Error(`SMTP greeted with ${data.toString('latin1').trim()}`));
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('no SMTP greeting within 1 s'));
    });
    socket.once('error', reject);
  });
}
