import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { escapeRegex, retryingDuplicates, type Connection } from '../mongo';

/** A budget of points per key and window, counted in the service's database (every replica). */
export interface Limiter {
  /** takes a point: 0 when there was one, else the seconds until there is */
  take(key: string): Promise<number>;
  /** forgets the key's points (a success) */
  forget(key: string): Promise<void>;
  /** gives points back */
  reward(key: string, points: number): Promise<void>;
  /** forgets the points of every key that starts with `start` (an operator's unlock) */
  forgetStartingWith(start: string): Promise<void>;
}

export interface LimiterDeclaration {
  /** the collection of the counters (several limiters may share one, by `prefix`) */
  table: string;
  prefix?: string;
  points: number;
  windowSeconds: number;
  /** a key that ran out is held back this long (default: until its window ends) */
  blockSeconds?: number;
  /**
   * answer a take before its point is counted while the key is well under its budget (public
   * lookups: an ordinary visitor does not wait for the database; not for logins)
   */
  ahead?: boolean;
}

/**
 * Points let ahead are counted this much later, together with those of that moment: a visitor's
 * lookups one after another cost one write per moment instead of one each. Another replica sees
 * them that much later; a process stopped meanwhile leaves them uncounted.
 */
const AHEAD_COUNT_MS = 250;

/**
 * rate-limiter-flexible's counters, whose consume is one $inc. The takes of one key in this
 * process are counted together: while a consume of the key is under way, the takes that arrive
 * wait for the next one, which counts them all at once (`consume(key, n)`) and answers each in
 * turn (the first that fit in the budget go, the rest wait). So a key takes at most two database
 * round trips however many clients of one address ask at once, where it took one round trip per
 * take in turn; and on FerretDB (not isolated, see collection.ts) this process still writes one
 * key's counter one update at a time. The parallel first points of a key in several processes
 * race to insert its row, and the loser counts again. Rows expire with their window (the store's
 * expiry on `expire`).
 *
 * With `ahead` (LimiterDeclaration) a take is answered before its point is counted while the key
 * had, as this process last heard from the database, used less than half its budget with the
 * points let ahead since: an ordinary visitor's lookups do not wait for the database (they are
 * counted a moment later, together: AHEAD_COUNT_MS), and near the budget every take waits for the
 * count again. A burst that reaches N processes at once can pass at most half the budget ahead
 * in each of them before the counts catch up.
 */
export function mongoLimiter(conn: Connection, decl: LimiterDeclaration): Limiter {
  const limiter = new RateLimiterMongo({
    storeClient: conn,
    dbName: conn.name,
    tableName: decl.table,
    keyPrefix: decl.prefix ?? 'rlflx',
    points: decl.points,
    duration: decl.windowSeconds,
    blockDuration: decl.blockSeconds ?? 0,
    // the store makes the key's unique index and the expiry
    disableIndexesCreation: true,
  });
  const keys = new KeyStates();
  const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  /** Counts what waits for the key, one consume at a time, until nothing does. */
  const count = async (key: string, s: KeyState): Promise<void> => {
    s.counting = true;
    try {
      while (s.waiting.length > 0 || s.ahead > 0) {
        const batch = s.waiting.splice(0);
        const ahead = s.ahead;
        s.ahead = 0;
        const points = batch.length + ahead;
        let res: RateLimiterRes;
        try {
          res = await retryingDuplicates(() => limiter.consume(key, points));
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) {
            // the database did not count them: what waits fails (the caller decides), and until
            // the database answers again nothing more goes ahead
            s.used = null;
            s.aheadUncounted = 0;
            for (const w of batch) w.reject(err);
            continue;
          }
          res = err;
        }
        const now = Date.now();
        s.used = res.consumedPoints;
        s.windowEnd = now + res.msBeforeNext;
        s.aheadUncounted = Math.max(0, s.aheadUncounted - ahead);
        // the points let ahead went first; then the waiting takes in the order they came
        const before = res.consumedPoints - points + ahead;
        batch.forEach((w, i) =>
          w.resolve(before + i + 1 <= decl.points ? 0 : secondsOf(res.msBeforeNext)),
        );
        // a key refused is refused without the database until its window ends (not for an
        // exact limiter: an operator's unlock in another process must count at once)
        if (decl.ahead && res.consumedPoints > decl.points) s.blockedUntil = now + res.msBeforeNext;
      }
    } finally {
      s.counting = false;
      keys.settle(key, s);
    }
  };

  return {
    take: (key) => {
      const s = keys.of(key);
      const now = Date.now();
      if (s.blockedUntil > now) return Promise.resolve(secondsOf(s.blockedUntil - now));
      const fresh = s.used !== null && now < s.windowEnd;
      if (decl.ahead && fresh && (s.used ?? 0) + s.aheadUncounted + 1 <= decl.points / 2) {
        s.ahead++;
        s.aheadUncounted++;
        // counted a moment later, with the takes of that moment: one write for many lookups
        if (!s.counting && !s.later) {
          s.later = setTimeout(() => {
            s.later = undefined;
            if (!s.counting) void count(key, s);
          }, AHEAD_COUNT_MS);
          s.later.unref();
        }
        return Promise.resolve(0);
      }
      return new Promise<number>((resolve, reject) => {
        s.waiting.push({ resolve, reject });
        if (s.later) {
          clearTimeout(s.later);
          s.later = undefined;
        }
        if (!s.counting) void count(key, s);
      });
    },
    forget: async (key) => {
      keys.drop(key);
      await limiter.delete(key);
    },
    reward: async (key, points) => {
      keys.drop(key);
      await limiter.reward(key, points);
    },
    forgetStartingWith: async (start) => {
      keys.dropStartingWith(start);
      // rate-limiter-flexible keeps a key as `<prefix>:<key>` in the row's `key`
      await conn
        .collection(decl.table)
        .deleteMany({ key: { $regex: `^${escapeRegex(limiter.getKey(start))}` } });
    },
  };
}

interface KeyState {
  /** takes waiting for the next consume */
  waiting: { resolve: (wait: number) => void; reject: (err: unknown) => void }[];
  /** points let ahead, not yet in a consume */
  ahead: number;
  /** points let ahead whose consume has not answered */
  aheadUncounted: number;
  /** a consume of the key is under way */
  counting: boolean;
  /** the count of the points let ahead, due in a moment */
  later?: NodeJS.Timeout;
  /** the key's points in its window as the database last answered (null: not known) */
  used: number | null;
  windowEnd: number;
  /** the key ran out: answered without the database until then */
  blockedUntil: number;
}

/** What this process knows of its recent keys (the most recent 10,000). */
class KeyStates {
  private readonly states = new Map<string, KeyState>();

  of(key: string): KeyState {
    let s = this.states.get(key);
    if (s) {
      // most recent last (a Map keeps insertion order)
      this.states.delete(key);
    } else {
      s = {
        waiting: [],
        ahead: 0,
        aheadUncounted: 0,
        counting: false,
        used: null,
        windowEnd: 0,
        blockedUntil: 0,
      };
    }
    this.states.set(key, s);
    if (this.states.size > 10_000) {
      for (const [old, state] of this.states) {
        if (this.states.size <= 10_000) break;
        if (!state.counting && state.ahead === 0) this.states.delete(old);
      }
    }
    return s;
  }

  /** Forgets a key whose window ended and that nothing waits for. */
  settle(key: string, s: KeyState): void {
    const now = Date.now();
    if (
      !s.counting &&
      s.ahead === 0 &&
      s.waiting.length === 0 &&
      s.windowEnd <= now &&
      s.blockedUntil <= now
    )
      this.states.delete(key);
  }

  drop(key: string): void {
    const s = this.states.get(key);
    if (s && !s.counting && s.ahead === 0) this.states.delete(key);
    else if (s) Object.assign(s, { used: null, blockedUntil: 0 });
  }

  dropStartingWith(start: string): void {
    for (const key of [...this.states.keys()]) if (key.startsWith(start)) this.drop(key);
  }
}
