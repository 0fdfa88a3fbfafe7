import {
  Events,
  type Actor,
  type DonorErasure,
  type PrivacyErasure,
  type PrivacyLookup,
  type StoredRecord,
} from '@furniture/contracts';
import {
  AppError,
  createEvent,
  DependencyUnavailableError,
  type ErasureLedger,
  type Logger,
  ledgerWatermark,
} from '@furniture/platform/domain';
import type { PrivacyRepository } from '../data-access/privacy-repository';
import type { ErasureMarks } from '../data-access/erasure-marks';
import { OPEN_STATUSES } from './records';

/** The donations the catalog keeps of a number (donors' data is families' data, issue 28). */
export interface DonorRecordsSource {
  lookup(e164: string): Promise<StoredRecord[]>;
  /** erases the number's closed donations; open ones stay and are counted */
  erase(e164: string, actor: Actor | null): Promise<DonorErasure>;
}

/** The handovers of applications (issue 29): listed, their notes erased with them. */
export interface HandoverRecordsOf {
  storedOf(applicationIds: number[]): Promise<StoredRecord[]>;
  eraseOf(applicationId: number): Promise<void>;
  /** outcome notes of stops closed before `before` are cleared */
  applyRetention(before: Date): Promise<number>;
}

export interface PrivacyDeps {
  privacy: PrivacyRepository;
  /** the marks of erasures under way, seen by submissions of the same phone (issue 42) */
  erasures?: Pick<ErasureMarks, 'during'>;
  handovers?: HandoverRecordsOf;
  donors: DonorRecordsSource;
  /** the retention job's clock (tests set it) */
  now: () => Date;
  /** closed applications and wishes keep the family's data this many days */
  retentionDays: number;
  logger: Logger;
  /**
   * where erasures on request are recorded before they happen, apart from the data a backup
   * restores (docs/privacy.md, "Backups"); none in tests
   */
  ledger?: ErasureLedger;
}

const DAY_MS = 24 * 3600 * 1000;
const BATCH = 200;

const isOpenApplication = (a: Record<string, unknown>) =>
  (OPEN_STATUSES as readonly unknown[]).includes(a.status);
const isOpenWish = (w: Record<string, unknown>) => w.status === 'active';
const isOpenDonation = (d: Record<string, unknown>) =>
  d.status === 'submitted' || d.status === 'accepted';

/**
 * Data protection (issue 15, docs/privacy.md): what is stored about a phone number, its erasure
 * on request, and the retention job that erases closed applications and wishes after the
 * retention period. An erasure keeps each record (status, dates, lot: the counts and the lot's
 * history) and replaces the family's fields; each erased record carries its
 * `privacy.personal_data_erased` event in the same update, and the notification service removes
 * its mails and the family's details from the activity log when the event arrives.
 */
export class Privacy {
  constructor(private readonly deps: PrivacyDeps) {}

  /** POST /privacy/lookup: every application, wish and donation of the number, as stored. */
  async lookup(e164: string): Promise<PrivacyLookup> {
    const [found, donations] = await Promise.all([
      this.deps.privacy.ofPhone(e164),
      this.deps.donors.lookup(e164),
    ]);
    const handovers = this.deps.handovers
      ? await this.deps.handovers.storedOf(found.applications.map((a) => a.id as number))
      : [];
    return { phone: e164, ...found, donations, handovers };
  }

  /**
   * POST /privacy/erase: erases every application, wish and donation of the number. Refused
   * while one of them is open (a pending or approved application holds a place in a lot's queue,
   * an active wish is still being served, a submitted or accepted donation waits for staff or its
   * pickup): staff close them first, the family or donor is told as usual. The catalog erases the
   * donations after this service's records; when it cannot be reached the answer is 503 and a
   * second erasure finishes it.
   */
  async erase(actor: Actor, e164: string): Promise<PrivacyErasure> {
    // the submission's turn: no new application of this number slips in meanwhile in this
    // process; across processes the erasure's mark, stored before the reads (erasure-marks.ts)
    const marked = this.deps.erasures
      ? <T>(fn: () => Promise<T>) => this.deps.erasures!.during(e164, fn)
      : <T>(fn: () => Promise<T>) => fn();
    return this.deps.privacy.inTurnOfPhone(e164, () =>
      marked(async () => {
        const [found, donations] = await Promise.all([
          this.deps.privacy.ofPhone(e164),
          this.deps.donors.lookup(e164),
        ]);
        const openApps = found.applications.filter(isOpenApplication).length;
        const openWishes = found.wishes.filter(isOpenWish).length;
        const openDonations = donations.filter(isOpenDonation).length;
        if (openApps + openWishes + openDonations > 0) {
          throw new AppError('PRIVACY_OPEN_RECORDS', {
            params: { applications: openApps, wishes: openWishes, donations: openDonations },
          });
        }
        const now = this.deps.now();
        await this.record(now, actor, { ...found, donations });
        let applications = 0;
        let wishes = 0;
        for (const app of found.applications) {
          if (await this.eraseOne('application', app.id as number, 'request', now, actor))
            applications++;
        }
        for (const wish of found.wishes) {
          if (await this.eraseOne('wish', wish.id as number, 'request', now, actor)) wishes++;
        }
        const { erased } = await this.deps.donors.erase(e164, actor);
        await this.deps.privacy.forgetWriteCounter(e164);
        return { applications, wishes, donations: erased };
      }),
    );
  }

  /**
   * An application or a wish stored while its number's erasure ran (the submission found the erasure's
   * mark after its write): erased as the erasure would have, by request.
   */
  async eraseLate(id: number, kind: 'application' | 'wish' = 'application'): Promise<boolean> {
    return this.eraseOne(kind, id, 'request', this.deps.now(), null);
  }

  /**
   * At start, before the service answers: what the ledger says was erased is erased again, and
   * the retention job runs at once. After a restore, the archive's records of families whose data
   * was erased after the backup lose it here, with the same events as the first time, so the
   * notification service erases its part too. A record erased already is left alone; an id the
   * restore hands out again to a new family has another creation time. The retention run is
   * waited for up to `retentionWaitMs`: after a restore it has the days since the backup to catch
   * up (seconds); a longer backlog (thousands of records) goes on while the service answers, so
   * that a start never outlasts its probes. Answers the ledger's erasures done again.
   */
  async catchUp(retentionWaitMs = 20_000): Promise<Omit<PrivacyErasure, 'donations'>> {
    let applications = 0;
    let wishes = 0;
    const now = this.deps.now();
    // only what an archive that may still be restored can hold (the ledger's watermark)
    const since = ledgerWatermark(now, this.deps.retentionDays);
    for (const entry of (await this.deps.ledger?.entries(since)) ?? []) {
      for (const id of await this.deps.privacy.notErased('application', entry.applications))
        if (await this.eraseOne('application', id, entry.reason, now, entry.actor)) applications++;
      for (const id of await this.deps.privacy.notErased('wish', entry.wishes))
        if (await this.eraseOne('wish', id, entry.reason, now, entry.actor)) wishes++;
    }
    if (applications + wishes > 0)
      this.deps.logger.warn(
        { applications, wishes },
        'records erased before were back (a restored backup): erased again',
      );
    const retention = this.applyRetention().catch((err: unknown) => {
      this.deps.logger.warn(
        { err: (err as Error).message },
        'retention at start failed; the scheduled job runs it again',
      );
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, retentionWaitMs);
      timer.unref();
    });
    await Promise.race([retention, waited]);
    clearTimeout(timer);
    return { applications, wishes };
  }

  /**
   * The ledger's entry of an erasure on request, written before the first record changes: the
   * family's applications and wishes, and the donations the catalog erases next (the catalog
   * erases them again at its start when a restore brought them back).
   */
  private async record(
    now: Date,
    actor: Actor,
    found: {
      applications: Record<string, unknown>[];
      wishes: Record<string, unknown>[];
      donations: Record<string, unknown>[];
    },
  ): Promise<void> {
    if (!this.deps.ledger) return;
    const records = (docs: Record<string, unknown>[]) =>
      docs
        .filter((d) => !d.erased_at)
        .map((d) => ({ id: d.id as number, created_at: String(d.created_at) }));
    const entry = {
      at: now.toISOString(),
      reason: 'request' as const,
      // who, as the events name them (not the session)
      actor: { id: actor.id, name: actor.name, email: actor.email, role: actor.role },
      applications: records(found.applications),
      wishes: records(found.wishes),
      donations: records(found.donations),
    };
    if (entry.applications.length + entry.wishes.length + entry.donations.length === 0) return;
    try {
      await this.deps.ledger.append(entry);
    } catch (err) {
      // nothing is erased that a restore could bring back unnoticed: staff try again
      throw new DependencyUnavailableError(`the erasure ledger (${this.deps.ledger.where})`, err);
    }
  }

  /**
   * The scheduled job: closed applications (rejected, completed) and wishes (fulfilled,
   * cancelled) unchanged for the retention period lose the family's data. Answers how many.
   */
  /** One pass of the retention job; `held` is its lease, asked before each erasure. */
  async applyRetention(
    held: () => boolean = () => true,
  ): Promise<Omit<PrivacyErasure, 'donations'>> {
    const now = this.deps.now();
    const before = new Date(now.getTime() - this.deps.retentionDays * DAY_MS);
    const eraseExpired = async (kind: 'application' | 'wish') => {
      let erased = 0;
      for (;;) {
        const batch = await this.deps.privacy.expired(kind, before, BATCH);
        for (const { id } of batch) {
          if (!held()) return erased;
          if (await this.eraseOne(kind, id, 'retention', now, null)) erased++;
        }
        if (batch.length < BATCH || !held()) return erased;
      }
    };
    const applications = await eraseExpired('application');
    const wishes = await eraseExpired('wish');
    // the outcome notes of stops (a driver's words may name people), after the same period
    if (held()) await this.deps.handovers?.applyRetention(before);
    if (applications + wishes > 0)
      this.deps.logger.info({ applications, wishes }, 'retention period ended: data erased');
    return { applications, wishes };
  }

  /** Erases one application's or wish's family fields with its event (ids only). */
  private async eraseOne(
    kind: 'application' | 'wish',
    id: number,
    reason: 'request' | 'retention',
    now: Date,
    actor: Actor | null,
  ): Promise<boolean> {
    const erased = await this.eraseRecord(kind, id, reason, now, actor);
    // its handovers' notes too (also when it was erased before: a second try finishes it)
    if (kind === 'application') await this.deps.handovers?.eraseOf(id);
    return erased;
  }

  private eraseRecord(
    kind: 'application' | 'wish',
    id: number,
    reason: 'request' | 'retention',
    now: Date,
    actor: Actor | null,
  ): Promise<boolean> {
    const event = createEvent(
      Events.PersonalDataErased,
      {
        reason,
        application_ids: kind === 'application' ? [id] : [],
        wish_ids: kind === 'wish' ? [id] : [],
      },
      actor,
    );
    return kind === 'application'
      ? this.deps.privacy.eraseApplication(id, now, [event])
      : this.deps.privacy.eraseWish(id, now, [event]);
  }
}
