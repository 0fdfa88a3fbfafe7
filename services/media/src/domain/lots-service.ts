import type { LotSnapshot } from '@furniture/contracts';
import { AppError, type Logger } from '@furniture/platform';
import type { LotRecord, LotsRepository } from '../data-access/lots-repository';
import type { CatalogClient } from '../integrations/catalog-client';

/**
 * The lots media knows of: a read model fed by catalog's lot events, rebuilt from its snapshot
 * when empty at start, and asked for directly when an upload names a lot the read model has not
 * heard of yet (the back-office uploads right after creating a lot, possibly before its
 * lot.created event has arrived here).
 */
export class LotsService {
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly deps: {
      lots: LotsRepository;
      catalog: CatalogClient;
      logger: Logger;
      /** lots per snapshot page (the catalog allows up to 1000) */
      snapshotPageSize: number;
    },
  ) {}

  /** lot.created, lot.updated, lot.status_changed, lot.reserved */
  async lotChanged(lot: LotSnapshot): Promise<void> {
    await this.deps.lots.apply(lot);
  }

  /** The lot, or LOT_NOT_FOUND when catalog has no such lot or deleted it. */
  async requireLot(id: number): Promise<LotRecord> {
    let lot = await this.deps.lots.find(id);
    if (!lot) {
      let remote: LotSnapshot | null;
      try {
        remote = await this.deps.catalog.findLot(id);
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message, lotId: id }, 'catalog not reachable');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      if (remote) {
        await this.deps.lots.apply(remote);
        lot = await this.deps.lots.find(id);
      }
    }
    if (!lot || lot.deleted) throw new AppError('LOT_NOT_FOUND');
    return lot;
  }

  /** Fills an empty read model from the catalog's snapshot; answers how many lots it stored. */
  async rebuildIfEmpty(): Promise<number> {
    if (!(await this.deps.lots.isEmpty())) return 0;
    let afterId = 0;
    let count = 0;
    for (;;) {
      const page = await this.deps.catalog.snapshotPage(afterId, this.deps.snapshotPageSize);
      count += await this.deps.lots.insertPage(page.lots);
      if (page.next_after_id === null || page.lots.length === 0) return count;
      afterId = page.next_after_id;
    }
  }

  /**
   * rebuildIfEmpty, retried in the background until the catalog answers (both may start at the
   * same time); events keep the read model current meanwhile.
   */
  startRebuild(firstRetryMs = 1000): void {
    const attempt = (delay: number) => {
      if (this.stopped) return;
      this.running = this.rebuildIfEmpty().then(
        (count) => {
          if (count > 0) this.deps.logger.info({ count }, 'lot read model rebuilt from catalog');
        },
        (err: Error) => {
          if (this.stopped) return;
          this.deps.logger.warn(
            { err: err.message, retryInMs: delay },
            'lot snapshot not available yet; retrying',
          );
          this.retryTimer = setTimeout(() => attempt(Math.min(delay * 2, 60000)), delay);
          this.retryTimer.unref();
        },
      );
    };
    attempt(firstRetryMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.running;
  }
}
