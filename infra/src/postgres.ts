// Where FerretDB keeps its data. FerretDB 1.24 on SQLite answers every query except a lookup by
// string _id with a full collection scan, indexes or not (measured: 400–500 ms for a filter on an
// indexed field over 5000 documents); on PostgreSQL the same queries take 5–25 ms. So when a
// PostgreSQL server is at hand (the machine's, or FERRETDB_POSTGRESQL_URL), FerretDB uses it,
// with one database per data folder; otherwise it falls back to SQLite files in the data folder.
// FERRETDB_BACKEND=sqlite|postgresql forces the choice. See docs/decisions.md.
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { errorMessage, type Log } from './util';

export type FerretBackend =
  { kind: 'sqlite' } | { kind: 'postgresql'; serverUrl: string; database: string; url: string };

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432';

/** A stable database name for a data folder: .data/run keeps its database across runs. */
export function databaseFor(dataDir: string): string {
  return `furniture_ferret_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
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

/** Decides the backend and prepares its database (dropped first when `fresh`). */
export async function chooseFerretBackend(opts: {
  dataDir: string;
  fresh: boolean;
  log: Log;
}): Promise<FerretBackend> {
  const forced = process.env.FERRETDB_BACKEND?.trim();
  if (forced === 'sqlite') return { kind: 'sqlite' };
  const serverUrl = process.env.FERRETDB_POSTGRESQL_URL?.trim() || DEFAULT_SERVER;
  const database = databaseFor(opts.dataDir);
  let admin: Client;
  try {
    admin = await connect(serverUrl, 'postgres');
  } catch (err) {
    if (forced === 'postgresql' || process.env.FERRETDB_POSTGRESQL_URL) {
      throw new Error(
        `FerretDB: PostgreSQL at ${serverUrl} is not reachable: ${errorMessage(err)}`,
      );
    }
    opts.log(
      `no PostgreSQL on ${serverUrl}: FerretDB keeps its data in SQLite files (slower queries)`,
    );
    return { kind: 'sqlite' };
  }
  try {
    if (opts.fresh) await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
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
