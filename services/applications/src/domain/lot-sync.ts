import type { LotSnapshotPage } from '@furniture/contracts';
import type { Logger } from '@furniture/platform';
import type { LotsRepository } from '../data-access/lots-repository';

export interface LotSnapshotSource {
  lotSnapshotPage(afterId: number, limit: number): Promise<LotSnapshotPage>;
}

/**
 * Loads the lot read model from the catalog's snapshot, page by page. Safe alongside the lot
 * events: a snapshot never overwrites a newer state the events brought (see LotsRepository).
 */
export class LotSync {
  private stopped = false;
  private wake?: () => void;

  constructor(
    private readonly deps: {
      lots: LotsRepository;
      source: LotSnapshotSource;
      logger: Logger;
      pageSize: number;
    },
  ) {}

  /** One full pass over the snapshot; returns the number of lots read. */
  async syncAll(): Promise<number> {
    let afterId = 0;
    let read = 0;
    for (;;) {
      const page = await this.deps.source.lotSnapshotPage(afterId, this.deps.pageSize);
      for (const lot of page.lots) await this.deps.lots.apply(lot);
      read += page.lots.length;
      if (page.next_after_id === null || page.lots.length === 0 || this.stopped) return read;
      afterId = page.next_after_id;
    }
  }

  /**
   * At start: syncs when the read model is empty ('empty') or always ('always'), retrying with
   * backoff while the catalog is unreachable. Resolves once done (or given up at stop); the
   * service answers meanwhile, from the events that arrive.
   */
  async start(mode: 'empty' | 'always' | 'never'): Promise<void> {
    if (mode === 'never') return;
    let delay = 1000;
    while (!this.stopped) {
      try {
        if (mode === 'empty' && !(await this.deps.lots.isEmpty())) return;
        const read = await this.syncAll();
        this.deps.logger.info({ lots: read }, 'lot read model loaded from the catalog snapshot');
        return;
      } catch (err) {
        this.deps.logger.warn(
          { err: (err as Error).message, retryInMs: delay },
          'lot snapshot not available yet',
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          timer.unref();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        delay = Math.min(delay * 2, 30000);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
