import { withDocLock } from '@furniture/platform';
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
