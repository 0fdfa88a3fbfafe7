/**
 * Answers of the hot public reads (the category list with lot counts, the lots of a category),
 * kept in memory. Why: FerretDB 1.24 on SQLite pushes no filter down, so every query reads and
 * parses every lot (about 100-150 ms at 500 lots, and parallel queries barely overlap); the public
 * pages ask for the same few lists over and over.
 *
 * Every write of this process drops everything at once (`invalidate`), so with one replica (the
 * FerretDB run) an answer is never stale. With several replicas (MongoDB) another replica's
 * write is seen after at most `ttlMs`. A load that started before a write is handed to its
 * callers but never stored. Concurrent misses of one key share one load.
 *
 * At most `maxEntries` answers are kept (the oldest stored goes first): the pages of a category
 * are keyed by their cursor, which any client may choose.
 */
export class ReadCache {
  private generation = 0;
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const running = this.loading.get(key);
    if (running && running.generation === this.generation) return running.promise as Promise<T>;

    const generation = this.generation;
    const promise = load().then((value) => {
      if (this.generation === generation) {
        this.entries.delete(key);
        this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
        if (this.entries.size > this.maxEntries) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
      }
      return value;
    });
    const entry = { generation, promise };
    this.loading.set(key, entry);
    const forget = () => {
      if (this.loading.get(key) === entry) this.loading.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}
