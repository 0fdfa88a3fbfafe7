import { countsWithPrefix, pageOfBuckets, withDocLock } from '@furniture/platform';
import type { Collection, Document, ObjectId } from 'mongodb';

/**
 * Writes the `block` of documents stored without one (bulk-loaded, or written before the blocks
 * existed), one update after the other, each under the document's lock (the outbox relay may be
 * updating it; see locks.ts): FerretDB 1.24 stalls on a bulkWrite of many updates (measured: 10
 * updates 0.16 s; 50 did not finish in 10 s and left the server unresponsive). Runs once per
 * rebuild, in the background.
 */
export async function writeBlocks(
  collection: Pick<Collection<Document>, 'updateOne' | 'collectionName' | 'dbName'>,
  missing: { _id: unknown; id: number; block: number }[],
): Promise<void> {
  for (const doc of missing)
    await withDocLock(collection, doc.id, () =>
      collection.updateOne({ _id: doc._id as ObjectId }, { $set: { block: doc.block } }),
    );
}

/**
 * A newest-first page read block by block: the kept counts (`block:<status>:<block>`) say how
 * many documents of the status (or of any, without one) each block holds, so only the blocks the
 * page needs are read, each by an equality FerretDB pushes down. `read` reads one block's
 * documents of the status, newest first.
 */
export async function pageOfBlocks<D>(
  counts: Record<string, number>,
  q: { status?: string; skip: number; limit: number },
  read: (block: number) => Promise<D[]>,
): Promise<{ docs: D[]; total: number }> {
  const sizes = new Map<number, number>();
  for (const [key, n] of countsWithPrefix(counts, 'block:')) {
    const [status, block] = key.split(':');
    if (q.status && status !== q.status) continue;
    sizes.set(Number(block), (sizes.get(Number(block)) ?? 0) + n);
  }
  const blocks = [...sizes].sort(([a], [b]) => b - a);
  const docs = await pageOfBuckets(blocks, q.skip, q.limit, read);
  return { docs, total: [...sizes.values()].reduce((sum, n) => sum + n, 0) };
}
