// Where FerretDB keeps its data. FerretDB 1.24 on SQLite answers every query except a lookup by
// string _id with a full collection scan, indexes or not (measured: 400–500 ms for a filter on an
// indexed field over 5000 documents); on PostgreSQL the same queries take 5–25 ms. So when a
// PostgreSQL server is at hand (the machine's, or FERRETDB_POSTGRESQL_URL), FerretDB uses it,
// with one database per data folder; otherwise it falls back to SQLite files in the data folder.
// FERRETDB_BACKEND=sqlite|postgresql forces the choice. See docs/decisions.md.
//
// The database belongs to the data folder: a file in the folder (DATABASE_MARKER) names it. A
// folder without that file (new, or deleted to start afresh) gets a new, empty database, and the
// databases earlier folders of the same path left behind are dropped, so deleting .data/run
// really starts `make run` from scratch.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { displayPath } from './paths';
import { errorMessage, type Log } from './util';

export type FerretBackend =
  { kind: 'sqlite' } | { kind: 'postgresql'; serverUrl: string; database: string; url: string };

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432';

/** The file in a data folder that names the folder's PostgreSQL database. */
export const DATABASE_MARKER = 'ferretdb-postgresql-database';

/**
 * The start of every database name of a data folder's path. Before the marker file, the name was
 * exactly this (kept for a folder that still holds its data, see chooseFerretBackend).
 */
export function databasePrefix(dataDir: string): string {
  return `furniture_ferret_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
}

/** Databases of this path's data folders: the prefix alone (older runs) or prefix_<8 hex>. */
function isDatabaseOf(prefix: string, name: string): boolean {
  return name === prefix || new RegExp(`^${prefix}_[0-9a-f]{8}$`).test(name);
}

/** The database the folder's marker names, if the folder has one. */
export function markedDatabase(dataDir: string): string | undefined {
  try {
    const name = fs.readFileSync(path.join(dataDir, DATABASE_MARKER), 'utf8').trim();
    return isDatabaseOf(databasePrefix(dataDir), name) ? name : undefined;
  } catch {
    return undefined;
  }
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function connect(serverUrl: string, database: string): Promise<Client> {
  const client = new Client({
    connectionString: withDatabase(serverUrl, database),
    connectionTimeoutMillis: 2000,
  });
  await client.connect();
  return client;
}

/**
 * Decides the backend and prepares its database. A folder's database is the one its marker file
 * names; a folder without one (new, deleted, or wiped because `fresh`) gets a new empty database,
 * and the databases of earlier folders at the same path are dropped (on the machine's own server;
 * on a configured FERRETDB_POSTGRESQL_URL they are only reported).
 */
export async function chooseFerretBackend(opts: {
  dataDir: string;
  fresh: boolean;
  log: Log;
}): Promise<FerretBackend> {
  const forced = process.env.FERRETDB_BACKEND?.trim();
  if (forced === 'sqlite') return { kind: 'sqlite' };
  const configured = process.env.FERRETDB_POSTGRESQL_URL?.trim();
  const serverUrl = configured || DEFAULT_SERVER;
  let admin: Client;
  try {
    admin = await connect(serverUrl, 'postgres');
  } catch (err) {
    if (forced === 'postgresql' || configured) {
      throw new Error(
        `FerretDB: PostgreSQL at ${serverUrl} is not reachable: ${errorMessage(err)}`,
      );
    }
    opts.log(
      `no PostgreSQL on ${serverUrl}: FerretDB keeps its data in SQLite files (slower queries)`,
    );
    return { kind: 'sqlite' };
  }
  const prefix = databasePrefix(opts.dataDir);
  const markerFile = path.join(opts.dataDir, DATABASE_MARKER);
  let database: string;
  try {
    const all = await admin.query<{ datname: string }>('SELECT datname FROM pg_database');
    const ours = all.rows.map((r) => r.datname).filter((name) => isDatabaseOf(prefix, name));
    let marked = opts.fresh ? undefined : markedDatabase(opts.dataDir);
    // a folder of an earlier version still holding its data: its database had the bare prefix
    if (
      !marked &&
      !opts.fresh &&
      ours.includes(prefix) &&
      fs.existsSync(path.join(opts.dataDir, 'ferretdb-state'))
    ) {
      marked = prefix;
    }
    database = marked ?? `${prefix}_${randomBytes(4).toString('hex')}`;
    for (const old of ours.filter((name) => name !== database)) {
      if (configured) {
        opts.log(
          `PostgreSQL database ${old} belonged to an earlier ${displayPath(opts.dataDir)}; drop it when unused`,
        );
        continue;
      }
      await admin.query(`DROP DATABASE IF EXISTS "${old}" WITH (FORCE)`);
      opts.log(`dropped PostgreSQL database ${old} of an earlier ${displayPath(opts.dataDir)}`);
    }
    if (!ours.includes(database)) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  fs.writeFileSync(markerFile, `${database}\n`);
  return { kind: 'postgresql', serverUrl, database, url: withDatabase(serverUrl, database) };
}

/** Drops a data folder's database (test runs clean up after themselves). */
export async function dropFerretDatabase(backend: FerretBackend): Promise<void> {
  if (backend.kind !== 'postgresql') return;
  const admin = await connect(backend.serverUrl, 'postgres');
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${backend.database}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * Drops the PostgreSQL databases of a data folder (`make reset`): the one its marker names and,
 * on the machine's own server, those earlier folders at the same path left behind. Answers the
 * names dropped; nothing when no PostgreSQL answers (FerretDB used SQLite files then).
 */
export async function dropFolderDatabases(dataDir: string, log: Log): Promise<string[]> {
  if (process.env.FERRETDB_BACKEND?.trim() === 'sqlite') return [];
  const configured = process.env.FERRETDB_POSTGRESQL_URL?.trim();
  const serverUrl = configured || DEFAULT_SERVER;
  let admin: Client;
  try {
    admin = await connect(serverUrl, 'postgres');
  } catch (err) {
    if (configured)
      throw new Error(`PostgreSQL at ${serverUrl} is not reachable: ${errorMessage(err)}`);
    log(`no PostgreSQL on ${serverUrl}: nothing to drop there`);
    return [];
  }
  try {
    const prefix = databasePrefix(dataDir);
    const marked = markedDatabase(dataDir);
    const all = await admin.query<{ datname: string }>('SELECT datname FROM pg_database');
    const doomed = all.rows
      .map((r) => r.datname)
      .filter((name) => (configured ? name === marked : isDatabaseOf(prefix, name)));
    for (const name of doomed) {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      log(`dropped PostgreSQL database ${name}`);
    }
    return doomed;
  } finally {
    await admin.end();
  }
}
