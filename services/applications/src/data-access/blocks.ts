import {
  countsWithPrefix,
  pageOfBuckets,
  partOf,
  placeNewestParts,
  readBlockNewestFirst,
  rebuildPlacedCounts,
  type Connection,
  type KeptCounts,
} from '@furniture/platform';
import type { Collection, Document } from 'mongodb';

/** Records per block (applications, wishes): a staff page reads the one or two blocks it lies in. */
export const BLOCK_SIZE = 100;
export const blockOf = (id: number): number => Math.floor(id / BLOCK_SIZE);
/** A record's block and part (a quarter of a block, see readBlockNewestFirst), stored with it. */
export const placeOf = (id: number): { block: number; part: number } => ({
  block: blockOf(id),
  part: partOf(id),
});
/**
 * The layout of the stored records the counts are built for (KeptCounts): 2 = records carry
 * their `part`. A start over counts of layout 1 rebuilds them, which writes every record's part.
 */
export const BLOCK_LAYOUT = 2;

/** The kept counts a record moves: `status:<status>` and `block:<status>:<block>`. */
export const countKeys = (status: string, id: number): string[] => [
  `status:${status}`,
  `block:${status}:${blockOf(id)}`,
];

/** The count changes of a record stored in `to` (from null) or moved from `from` to `to`. */
export function countMove(id: number, from: string | null, to: string): Record<string, number> {
  return {
    ...(from === null ? {} : Object.fromEntries(countKeys(from, id).map((k) => [k, -1]))),
    ...Object.fromEntries(countKeys(to, id).map((k) => [k, 1])),
  };
}

/**
 * Gives every record its block and part and counts the records once more (rebuildPlacedCounts).
 * Answers how many live records were counted.
 */
export function rebuildBlockCounts(
  collection: Collection<Document>,
  kept: KeptCounts,
): Promise<number> {
  return rebuildPlacedCounts(collection, kept, BLOCK_SIZE, ['status'], (doc) =>
    countKeys(doc.status as string, doc.id as number),
  );
}

/**
 * A newest-first page read block by block: the kept counts (`block:<status>:<block>`) say how
 * many documents of the status (or of any, without one) each block holds, so only the blocks the
 * page needs are read, each by an equality FerretDB pushes down, a block holding many of them
 * part by part (readBlockNewestFirst). `read` reads the documents of the status, newest first, at
 * most `take` of them, of one block (`where` = {block}) or one part (`where` = {part}).
 */
export async function pageOfBlocks<D>(
  kept: { n: Record<string, number>; current: boolean },
  q: { status?: string; skip: number; limit: number },
  read: (where: { block: number } | { part: number }, take: number) => Promise<D[]>,
): Promise<{ docs: D[]; total: number }> {
  const sizes = new Map<number, number>();
  for (const [key, n] of countsWithPrefix(kept.n, 'block:')) {
    const [status, block] = key.split(':');
    if (q.status && status !== q.status) continue;
    sizes.set(Number(block), (sizes.get(Number(block)) ?? 0) + n);
  }
  const blocks = [...sizes].sort(([a], [b]) => b - a);
  const docs = await pageOfBuckets(blocks, q.skip, q.limit, (block, take) =>
    readBlockNewestFirst({
      block,
      blockSize: BLOCK_SIZE,
      size: sizes.get(block) ?? 0,
      take,
      parts: kept.current,
      readBlock: (n) => read({ block }, n),
      readPart: (part, n) => read({ part }, n),
    }),
  );
  return { docs, total: [...sizes.values()].reduce((sum, n) => sum + n, 0) };
}

/** The part of the newest records an older replica stored without one (placeNewestParts). */
export function placeNewest(
  conn: Connection,
  collection: Collection<Document>,
  counter: 'applications' | 'wishes',
): Promise<number> {
  return placeNewestParts(collection, conn.collection('counters'), counter, BLOCK_SIZE);
}
