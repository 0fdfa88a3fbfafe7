import type { LotSnapshot } from '@furniture/contracts';
import {
  AppError,
  findSnapshotLot,
  type LotLookup,
  type LotSnapshotSource,
  type LotView,
  type Logger,
} from '@furniture/platform/domain';

/**
 * The lots media knows of: the shared lot read model fed by catalog's lot events (rebuilt from
 * its snapshot when empty at start), and asked for directly when an upload names a lot the read
 * model has not heard of yet (the back-office uploads right after creating a lot, possibly before
 * its lot.created event has arrived here).
 */
export class LotsService {
  constructor(
    private readonly deps: {
      lots: LotLookup;
      catalog: LotSnapshotSource;
      logger: Logger;
    },
  ) {}

  /** lot.created, lot.updated, lot.status_changed, lot.reserved */
  async lotChanged(lot: LotSnapshot): Promise<void> {
    await this.deps.lots.apply(lot);
  }

  /** The lot, or LOT_NOT_FOUND when catalog has no such lot or deleted it. */
  async requireLot(id: number): Promise<LotView> {
    let lot = await this.deps.lots.get(id);
    if (!lot) {
      const remote = await findSnapshotLot(this.deps.catalog, id).catch((err: Error) => {
        this.deps.logger.warn({ err: err.message, lotId: id }, 'catalog not reachable');
        throw new AppError('SERVICE_UNAVAILABLE');
      });
      if (remote) {
        await this.deps.lots.apply(remote);
        lot = await this.deps.lots.get(id);
      }
    }
    if (!lot || lot.deleted) throw new AppError('LOT_NOT_FOUND');
    return lot;
  }
}
