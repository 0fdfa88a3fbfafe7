// FerretDB (MongoDB wire protocol) on PostgreSQL or on SQLite files under <dataDir>/ferretdb
// (see postgres.ts for the choice).
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { FerretBackend } from './postgres';
import { killStaleProcess, ManagedProcess } from './process';
import { choosePort, waitUntil, type Log } from './util';

export interface FerretOptions {
  binary: string;
  dataDir: string;
  backend: FerretBackend;
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  log: Log;
  timeoutMs?: number;
}

export interface RunningFerret {
  url: string;
  port: number;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export async function startFerret(opts: FerretOptions): Promise<RunningFerret> {
  const host = opts.host ?? '127.0.0.1';
  const pidFile = path.join(opts.dataDir, 'pids', 'ferretdb.pid');
  await killStaleProcess(pidFile, opts.binary, opts.log);
  const port = await choosePort(
    opts.port,
    'FerretDB',
    'set MONGO_PORT to use another port, or MONGO_URL to use a running server',
    host,
  );
  const dbDir = path.join(opts.dataDir, 'ferretdb');
  const stateDir = path.join(opts.dataDir, 'ferretdb-state');
  fs.mkdirSync(dbDir, { recursive: true });
  fs.mkdirSync(stateDir, { recursive: true });

  const started = Date.now();
  const proc = new ManagedProcess({
    name: 'FerretDB',
    command: opts.binary,
    args: [
      ...(opts.backend.kind === 'postgresql'
        ? ['--handler=postgresql', `--postgresql-url=${opts.backend.url}`]
        : ['--handler=sqlite', `--sqlite-url=file:${dbDir}/`]),
      `--listen-addr=${host}:${port}`,
      `--state-dir=${stateDir}`,
      '--debug-addr=-', // no metrics/pprof listener: several instances must coexist
      '--telemetry=disable',
      '--log-level=warn',
    ],
    logFile: path.join(opts.dataDir, 'logs', 'ferretdb.log'),
    pidFile,
  });
  const url = `mongodb://${host}:${port}/`;
  try {
    await waitUntil(() => pingMongo(url), {
      what: `FerretDB on ${host}:${port}`,
      timeoutMs: opts.timeoutMs ?? 30_000,
      abort: proc.exitAsError(),
      hint: () => proc.logHint(),
    });
  } catch (err) {
    await proc.stop();
    throw err;
  }
  const where =
    opts.backend.kind === 'postgresql' ? `PostgreSQL database ${opts.backend.database}` : 'SQLite';
  opts.log(`FerretDB ready on ${url}, data in ${where} (${Date.now() - started} ms)`);
  return { url, port, process: proc, stop: () => proc.stop() };
}

/** A real round trip: the `ping` command through the driver, not just an open TCP port. */
export async function pingMongo(url: string): Promise<void> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: 1000,
    connectTimeoutMS: 1000,
    directConnection: true,
  });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => undefined);
  }
}
