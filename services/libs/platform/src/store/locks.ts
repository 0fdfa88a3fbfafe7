/**
 * Why this exists: FerretDB 1.24 (the MongoDB-compatible server of the single-machine run and of
 * CI) applies an update as "read the document, modify it, write it back" without isolation
 * (FerretDB issue #3040). Two concurrent updates of one document can therefore lose one of them,
 * $inc and $push included, and a guarded update ({status: 'available'}) can match twice.
 * MongoDB applies single-document updates atomically.
 *
 * So every write to a document of ours runs under a per-document lock held in this process: within
 * one process FerretDB then behaves like MongoDB for single-document updates. That is an
 * optimisation, never a guarantee: with two processes (replicas) the lock holds in each alone.
 * Invariants that must hold across processes rest on unique keys, inserts that win or lose, and
 * fenced leases, atomic on both servers (docs/decisions.md "Invariants across processes").
 */
const tails = new Map<string, Promise<unknown>>();

/** Runs `fn` when no other holder of `key` runs; holders run in arrival order. */
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous.catch(() => undefined);
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

interface CollectionLike {
  collectionName: string;
  dbName?: string;
  conn?: { name: string };
}

/** "db.collection" of a driver or mongoose collection. */
export function namespaceOf(collection: CollectionLike): string {
  return `${collection.conn?.name ?? collection.dbName ?? ''}.${collection.collectionName}`;
}

/** Lock of one document, keyed by its integer `id` (or another unique key). */
export function withDocLock<T>(
  collection: CollectionLike,
  id: number | string,
  fn: () => Promise<T>,
): Promise<T> {
  return withLock(`${namespaceOf(collection)}:${id}`, fn);
}

/** Number of keys currently held or awaited (tests check that locks are released). */
export function heldLocks(): number {
  return tails.size;
}
