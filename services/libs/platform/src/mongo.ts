import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { withLock } from './store/locks';
import type { Logger } from './logger';

export type { Connection } from 'mongoose';

/**
 * Opens this service's own database, retrying with backoff until the server answers (at start
 * the database may come up after the service). Works with MongoDB 7 and FerretDB 1.24.
 */
export async function connectMongo(opts: {
  url: string;
  dbName: string;
  logger: Logger;
  /** give up after this long; 0 = keep trying */
  timeoutMs?: number;
}): Promise<Connection> {
  const started = Date.now();
  let delay = 250;
  for (let attempt = 1; ; attempt++) {
    const conn = mongoose.createConnection(opts.url, {
      dbName: opts.dbName,
      serverSelectionTimeoutMS: 5000,
      maxPoolSize: 20,
      // indexes are created explicitly at start (ensureIndexes), never lazily per model
      autoIndex: false,
      autoCreate: false,
    });
    try {
      await conn.asPromise();
      if (attempt > 1) opts.logger.info({ attempt }, 'connected to MongoDB');
      return conn;
    } catch (err) {
      await conn.close().catch(() => undefined);
      const timeout = opts.timeoutMs ?? 0;
      if (timeout > 0 && Date.now() - started > timeout) throw err;
      opts.logger.warn(
        { err: (err as Error).message, attempt, retryInMs: delay },
        'MongoDB not reachable yet',
      );
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}

/** Creates the indexes of every model of a connection (once, at start). */
export async function ensureIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) {
    await model.createCollection().catch((err: { code?: number }) => {
      if (err.code !== 48) throw err; // 48 = NamespaceExists
    });
    await model.createIndexes();
  }
}

/**
 * A unique-index violation. MongoDB answers code 11000; FerretDB 1.24 does so for inserts but
 * answers an update that breaks a unique index with InternalError (code 1) carrying the backend's
 * text: "UNIQUE constraint failed" (SQLite) or "duplicate key value violates unique constraint"
 * / SQLSTATE 23505 (PostgreSQL).
 */
export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: number; message?: string };
  return (
    code === 11000 ||
    (code === 1 &&
      /UNIQUE constraint failed|duplicate key value violates unique constraint|23505/.test(
        message ?? '',
      ))
  );
}

/** Runs an insert; false when another document already holds its unique key (a lost race). */
export async function insertedUnlessTaken(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

/** Throws the error `named` answers for a unique-key refusal, and any other error as it is. */
export function duplicateAs(named: () => Error): (err: unknown) => never {
  return (err) => {
    throw isDuplicateKeyError(err) ? named() : err;
  };
}

/**
 * Runs `fn` again (at most `attempts` times in all) while it fails on a unique key: two first
 * upserts race to insert the document, and the loser's next try writes onto the winner's.
 */
export async function retryingDuplicates<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isDuplicateKeyError(err) || attempt >= attempts) throw err;
    }
  }
}

/**
 * Inserts documents unordered and answers the indexes of those whose key an existing document
 * already holds (they stay as stored; the caller decides what to do with them). Any other
 * failure is thrown.
 */
export async function insertManyKeepingExisting<T extends Document>(
  collection: Collection<T>,
  docs: OptionalUnlessRequiredId<T>[],
): Promise<number[]> {
  if (docs.length === 0) return [];
  try {
    await collection.insertMany(docs, { ordered: false });
    return [];
  } catch (err) {
    const writeErrors = (err as { writeErrors?: { index: number }[] }).writeErrors;
    if (!writeErrors?.every((e) => isDuplicateKeyError(e))) throw err;
    return writeErrors.map((e) => e.index);
  }
}

interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * Integer ids from a per-collection counter (ids are shown to users, so they are small integers).
 * `_id` stays internal and never leaves a service.
 *
 * Across processes (issue 42) an id is drawn by an insert that wins or loses: the claim document
 * `<counter>#<n>` in `counters`, whose primary key admits one holder on both engines. A `$inc` on
 * the counter is not enough: FerretDB 1.24 applies it as a read and a separate write, and two
 * processes drew the same id (the cross-process suite: a lot insert lost to the unique id and
 * answered 500). The counter document `<counter>` only says where to start looking (the highest
 * id drawn, raised with `$max`; a stale value costs a lost insert or two, never a duplicate). The
 * in-process turn keeps one process's draws from racing each other.
 */
export async function nextId(conn: Connection, counter: string): Promise<number> {
  return withLock(`${conn.name}.counters:${counter}`, () => drawId(conn, counter));
}

async function drawId(conn: Connection, counter: string): Promise<number> {
  const counters = conn.collection<CounterDoc>('counters');
  const top = async () => ((await counters.findOne({ _id: counter }))?.seq ?? 0) + 1;
  let candidate = await top();
  for (let attempt = 1; ; attempt++) {
    const id = candidate;
    if (await insertedUnlessTaken(() => counters.insertOne({ _id: `${counter}#${id}`, seq: id })))
      break;
    if (attempt >= 1000) throw new Error(`counter ${counter}: no free id after ${attempt} tries`);
    // another process drew it: start again from the highest id drawn anywhere
    candidate = Math.max(candidate + 1, await top());
  }
  await retryingDuplicates(() =>
    counters.updateOne({ _id: counter }, { $max: { seq: candidate } }, { upsert: true }),
  );
  return candidate;
}

/** Makes sure the counter is at least `value` (after seeding fixed ids). */
export async function raiseCounter(
  conn: Connection,
  counter: string,
  value: number,
): Promise<void> {
  await withLock(`${conn.name}.counters:${counter}`, () =>
    retryingDuplicates(() =>
      conn
        .collection<CounterDoc>('counters')
        .updateOne({ _id: counter }, { $max: { seq: value } }, { upsert: true }),
    ),
  );
}

export async function pingMongo(conn: Connection): Promise<boolean> {
  try {
    if (!conn.db) return false;
    await conn.db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

/** Whether a new connection to `url` reaches a server that answers a ping. */
export async function freshMongoAnswers(url: string, timeoutMs = 3000): Promise<boolean> {
  const conn = mongoose.createConnection(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs,
    maxPoolSize: 1,
    autoIndex: false,
    autoCreate: false,
  });
  try {
    await conn.asPromise();
    return await pingMongo(conn);
  } catch {
    return false;
  } finally {
    await conn.close(true).catch(() => undefined);
  }
}

/**
 * Notices a connection that stays broken while the server answers: seen once in the fault suite,
 * after the database restarted, one service's driver kept failing every operation with the old
 * connection's error ("connection 7 … closed") for minutes while the other services were back
 * within a second. Every `everyMs` the process's own connection is pinged; when that fails but a
 * fresh connection answers `stuckAfter` times in a row, `onStuck` runs (the service restarts:
 * crash-only, what it had not published waits in its outbox). A database that is really away
 * never counts: the fresh connection fails too. Returns the stop function.
 */
export function watchMongoConnection(opts: {
  ping: () => Promise<boolean>;
  freshAnswers: () => Promise<boolean>;
  onStuck: () => void;
  everyMs?: number;
  stuckAfter?: number;
}): () => void {
  let streak = 0;
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      if (await opts.ping()) streak = 0;
      else if (await opts.freshAnswers()) streak++;
      else streak = 0;
      if (streak >= (opts.stuckAfter ?? 2)) {
        streak = 0;
        opts.onStuck();
      }
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), opts.everyMs ?? 3000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Escapes user input for use inside a regular expression (search boxes). */
export function escapeRegex(input: string): string {
  return input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
