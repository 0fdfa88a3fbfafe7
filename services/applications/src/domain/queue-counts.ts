/**
 * How many open applications each lot has, remembered between submissions so that a burst of
 * applications for one lot (each of which must count the queue while holding the lot's lock)
 * counts it once instead of once per application. Any status change of the lot's applications
 * forgets the number; a number older than `ttlMs` is counted again, which bounds how far another
 * replica's changes can go unseen.
 */
export class QueueCounts {
  private readonly counts = new Map<number, { open: number; since: number }>();
  private readonly generations = new Map<number, number>();

  constructor(private readonly ttlMs = 5000) {}

  /** The lot's open count, from memory or from `count()`; call with the lot's lock held. */
  async open(lotId: number, count: () => Promise<number>): Promise<number> {
    const known = this.counts.get(lotId);
    if (known && Date.now() - known.since < this.ttlMs) return known.open;
    const generation = this.generation(lotId);
    const open = await count();
    if (this.generation(lotId) === generation) {
      this.counts.set(lotId, { open, since: Date.now() });
    }
    return open;
  }

  /** One more open application was stored (lock still held). */
  added(lotId: number, generationBefore: number): void {
    const known = this.counts.get(lotId);
    if (known && this.generation(lotId) === generationBefore) known.open += 1;
    else this.counts.delete(lotId);
  }

  generation(lotId: number): number {
    return this.generations.get(lotId) ?? 0;
  }

  /** An application of the lot changed status: count again next time. */
  forget(lotId: number): void {
    this.generations.set(lotId, this.generation(lotId) + 1);
    this.counts.delete(lotId);
  }
}
