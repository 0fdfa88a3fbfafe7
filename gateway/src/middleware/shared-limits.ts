import {
  connectMongo,
  Store,
  type Connection,
  type Limiter,
  type LimiterDeclaration,
  type Logger,
} from '@furniture/platform';
import type { SharedLimits } from './rate-limits';

/**
 * The rate limits every gateway replica shares (issue 43), counted in a database of the gateway's
 * own (`furniture_gateway`, on the MongoDB-compatible server the platform already runs: no new
 * infrastructure) with the platform store's limiter. Connected in the background: the gateway
 * serves from its start, and until the database answers (and whenever it does not) a limit
 * throws, so that rate-limits.ts counts in the replica's memory meanwhile.
 */
export function sharedLimits(opts: { url: string; dbName: string; logger: Logger }): {
  shared: SharedLimits;
  stop(): Promise<void>;
} {
  const wanted: LimiterDeclaration[] = [];
  const ready = new Map<LimiterDeclaration, Limiter>();
  const timers: NodeJS.Timeout[] = [];
  let conn: Connection | undefined;
  let stopped = false;

  const connecting = (async () => {
    const c = await connectMongo({ url: opts.url, dbName: opts.dbName, logger: opts.logger });
    if (stopped) return c.close();
    conn = c;
    const store = new Store(c);
    const limiters = wanted.map((decl) => [decl, store.limiter(decl)] as const);
    await store.open(opts.logger);
    for (const job of store.jobs()) {
      const timer = setInterval(() => {
        job.run().catch((err: Error) => opts.logger.info({ err: err.message }, 'job failed'));
      }, job.everyMs);
      timer.unref();
      timers.push(timer);
    }
    for (const [decl, limiter] of limiters) ready.set(decl, limiter);
    opts.logger.info({ db: opts.dbName }, 'rate limits shared by every gateway replica');
  })().catch((err: Error) =>
    opts.logger.warn({ err: err.message }, 'shared rate limits unavailable; counting per replica'),
  );

  const shared: SharedLimits = (decl) => {
    wanted.push(decl);
    const of = (): Limiter => {
      const limiter = ready.get(decl);
      if (!limiter) throw new Error('the gateway database is not connected yet');
      return limiter;
    };
    return {
      take: async (key) => of().take(key),
      forget: async (key) => of().forget(key),
      reward: async (key, points) => of().reward(key, points),
      forgetStartingWith: async (start) => of().forgetStartingWith(start),
    };
  };
  return {
    shared,
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await conn?.close().catch(() => undefined);
      void connecting;
    },
  };
}
