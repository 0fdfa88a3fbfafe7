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

/**
 * FerretDB 1.24 sends the filters it pushes down as cached prepared statements with the field
 * name as a parameter (`WHERE _jsonb->$1 @> $2`). After five executions PostgreSQL may switch a
 * connection's statement to a generic plan, planned without the values: it cannot use the GIN
 * index on `(_jsonb->'field')` (ferret-pg-indexes.ts) and reads the whole table. It happened on
 * some of the pool's connections only: there a staff list's block read took 85 ms (a scan of
 * 25 000 applications) instead of 2–25 ms, seen in PostgreSQL's log during bench:scale.
 * `plan_cache_mode` in the URL (FerretDB passes parameters it does not know on to PostgreSQL)
 * plans every execution with its values.
 */
export function customPlans(postgresUrl: string): string {
  const url = new URL(postgresUrl);
  url.searchParams.set('plan_cache_mode', 'force_custom_plan');
  return url.toString();
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
        ? ['--handler=postgresql', `--postgresql-url=${customPlans(opts.backend.url)}`]
        : ['--handler=sqlite', `--sqlite-url=file:${dbDir}/`]),
      `--listen-addr=${host}:${port}`,
      `--state-dir=${stateDir}`,
      '--debug-addr=-', // no metrics/pprof listener: several instances must coexist
      '--telemetry=disable',
      '--log-level=warn',
    ],
    logFile: path.join(opts.dataDir, 'logs', 'ferretdb.log'),
    pidFile,
    // FerretDB turns every document PostgreSQL sends into its own types and sorts and limits in
    // memory (it pushes neither down with a filter), so a staff page reads a block of 100
    // applications (230 kB) to answer 20; with Go's default GOGC=100 its live heap of 4 MB was
    // collected about 40 times a second. GOGC=400 (a heap of about 20 MB): the hot block query
    // 48 → 41 ms p50, 66 → 57 ms p95 (three alternating runs each, infra/bench/scale.ts'
    // calls replayed directly). Set GOGC yourself to override it.
    env: { ...process.env, GOGC: process.env.GOGC ?? '400' },
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
