// PostgreSQL indexes that FerretDB 1.24 on PostgreSQL can use.
//
// FerretDB keeps each collection as a table with one jsonb column `_jsonb`, named in the
// `_ferretdb_database_metadata` table of the database's schema (one schema per MongoDB database,
// e.g. furniture_catalog). A MongoDB index becomes a btree index on `(_jsonb->'field')`, but the
// filters FerretDB pushes down to PostgreSQL are containment tests, `_jsonb->'field' @> value`
// (an equality on a top-level string, number, boolean or date; `_id` lookups included), which a
// btree cannot answer: every pushed-down query read the whole table (measured: 30–55 ms for one
// document of 100 000; with the index below 1.5 ms). A GIN index on `(_jsonb->'field')` answers
// exactly that operator. So for every field a collection's MongoDB indexes name (and `_id`), this
// creates such an index once, idempotently, with CREATE INDEX CONCURRENTLY (writers are not
// blocked). Nothing here changes what FerretDB or a MongoDB server sees: FerretDB ignores indexes
// it did not create, and on a real MongoDB (MONGO_URL set) the launcher never calls this.
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { errorMessage, type Log } from './util';

const METADATA_TABLE = '_ferretdb_database_metadata';
/** Our indexes are recognizable by this prefix (and nothing else in the schema uses it). */
const PREFIX = 'fdbgin_';

interface CollectionMetadata {
  _id: string;
  table: string;
  indexes?: { key: Record<string, number> }[];
}

export function ginIndexName(table: string, field: string): string {
  const hash = createHash('sha256').update(`${table}\0${field}`).digest('hex').slice(0, 10);
  const readable = `${table}_${field}`.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, 40);
  return `${PREFIX}${readable}_${hash}`;
}

/** The top-level fields worth a GIN index: `_id` and every field of the collection's indexes. */
export function indexedFields(meta: CollectionMetadata): string[] {
  const fields = new Set<string>(['_id']);
  for (const index of meta.indexes ?? [])
    for (const field of Object.keys(index.key)) if (!field.includes('.')) fields.add(field);
  return [...fields].sort();
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Creates the missing GIN indexes in every FerretDB schema of the database at `postgresUrl`.
 * Returns how many were created. Safe to call any time and from several processes (an index
 * another caller is still building is reported by PostgreSQL as existing).
 */
export async function ensureFerretIndexes(
  postgresUrl: string,
  opts: { log?: Log; schemas?: string[] } = {},
): Promise<number> {
  const client = new Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  let created = 0;
  try {
    const schemas = (
      await client.query<{ schema: string }>(
        `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = $1`,
        [METADATA_TABLE],
      )
    ).rows
      .map((r) => r.schema)
      .filter((s) => !opts.schemas || opts.schemas.includes(s));
    for (const schema of schemas) {
      const collections = (
        await client.query<{ meta: CollectionMetadata }>(
          `SELECT _jsonb AS meta FROM ${quoteIdent(schema)}.${quoteIdent(METADATA_TABLE)}`,
        )
      ).rows.map((r) => r.meta);
      const existing = new Set(
        (
          await client.query<{ indexname: string }>(
            `SELECT i.relname AS indexname FROM pg_index x
               JOIN pg_class i ON i.oid = x.indexrelid
               JOIN pg_namespace n ON n.oid = i.relnamespace
              WHERE n.nspname = $1 AND x.indisvalid`,
            [schema],
          )
        ).rows.map((r) => r.indexname),
      );
      for (const meta of collections) {
        if (typeof meta.table !== 'string') continue;
        let createdHere = 0;
        for (const field of indexedFields(meta)) {
          const name = ginIndexName(meta.table, field);
          if (existing.has(name)) continue;
          try {
            // an invalid leftover of an interrupted build is dropped first
            await client.query(`DROP INDEX IF EXISTS ${quoteIdent(schema)}.${quoteIdent(name)}`);
            await client.query(
              `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${quoteIdent(name)} ON ${quoteIdent(schema)}.${quoteIdent(meta.table)} USING gin ((_jsonb -> ${quoteLiteral(field)}))`,
            );
            created++;
            createdHere++;
          } catch (err) {
            // the table may be gone (collection dropped meanwhile): the next call sees the truth
            opts.log?.(
              `PostgreSQL index on ${schema}.${meta._id}.${field} not created: ${errorMessage(err)}`,
            );
          }
        }
        if (createdHere > 0)
          await client
            .query(`ANALYZE ${quoteIdent(schema)}.${quoteIdent(meta.table)}`)
            .catch(() => undefined);
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  if (created > 0) opts.log?.(`FerretDB: ${created} PostgreSQL index(es) created`);
  return created;
}

/**
 * ensureFerretIndexes now and then every `intervalMs` (collections a service creates later, such
 * as on its first write of a kind, get their indexes within that time). Returns the stop function.
 */
export function keepFerretIndexes(postgresUrl: string, log: Log, intervalMs = 60_000): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    await ensureFerretIndexes(postgresUrl, { log })
      .catch((err: unknown) => log(`PostgreSQL indexes for FerretDB: ${errorMessage(err)}`))
      .finally(() => {
        running = false;
      });
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
