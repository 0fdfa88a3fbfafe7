import { Events, type Actor, type DonorErasure } from '@furniture/contracts';
import {
  createEvent,
  DependencyUnavailableError,
  type ErasedRecord,
  type ErasureLedger,
  type Logger,
  ledgerWatermark,
} from '@furniture/platform/domain';
import type { DonationsRepository, StoredDonation } from '../data-access/donations-repository';
import {
  CLOSED_DONATION_STATUSES,
  OPEN_DONATION_STATUSES,
  type DonationData,
  type DonationSet,
} from './donation-records';

const DAY_MS = 24 * 3600 * 1000;
const BATCH = 200;

/** What a donation keeps once the donor's data is erased: status, dates, items, lots, counts. */
function erasedFields(d: DonationData, now: Date): DonationSet {
  return {
    donor_name: '',
    donor_phone: `erased:${d.id}`,
    donor_phone_raw: '',
    donor_email: null,
    donor_name_public: false,
    city: '',
    address: '',
    floor: null,
    has_elevator: null,
    // the photos show the donor's home; the lots made of items keep copies of their own
    items: d.items.map((i) => ({ ...i, photos: [] })),
    // staff's notes and reasons are free text about the donor
    history: d.history.map((h) => ({ ...h, note: null, reason: null })),
    photo_claims: [],
    upload_token_hash: null,
    upload_token_expires_at: null,
    erased_at: now,
  };
}

/**
 * Donors' data is families' data (issue 28, docs/privacy.md): the privacy lookup by phone lists
 * a donor's donations, the erasure replaces the donor's fields of every closed one, and the
 * retention job does the same for donations closed longer than the retention period. Each erased
 * donation carries its privacy.personal_data_erased (`donation_ids`) in the same write; the media
 * service then removes the donor's photos. The retention job's erasures are appended to the
 * erasure ledger before they happen (the applications service appends those on request, with the
 * family's records), and at start the ledger's donations that a restored backup brought back are
 * erased again (docs/privacy.md, "Backups").
 */
export class DonationPrivacy {
  constructor(
    private readonly deps: {
      donations: DonationsRepository;
      now: () => Date;
      retentionDays: number;
      logger: Logger;
      /** where erasures are recorded apart from the data a backup restores; none in tests */
      ledger?: ErasureLedger;
    },
  ) {}

  /** Every donation of the number, as stored. */
  lookup(e164: string): Promise<StoredDonation[]> {
    return this.deps.donations.storedOfPhone(e164);
  }

  /**
   * Erases every closed donation of the number; open ones (submitted, accepted) stay and are
   * counted: staff decline or cancel them first (the applications service refuses the erasure
   * while any is open).
   */
  async erase(e164: string, actor: Actor | null): Promise<DonorErasure> {
    const found = await this.deps.donations.ofPhone(e164);
    let erased = 0;
    let open = 0;
    for (const d of found) {
      if (OPEN_DONATION_STATUSES.includes(d.status)) open++;
      else if (await this.eraseOne(d.id, 'request', actor)) erased++;
    }
    await this.deps.donations.forgetPhone(e164);
    return { erased, open };
  }

  /** The scheduled job: closed donations unchanged for the retention period. Answers how many. */
  async applyRetention(held: () => boolean = () => true): Promise<number> {
    const before = new Date(this.deps.now().getTime() - this.deps.retentionDays * DAY_MS);
    let erased = 0;
    for (;;) {
      const batch = await this.deps.donations.closedBefore(CLOSED_DONATION_STATUSES, before, BATCH);
      if (batch.length > 0) await this.record(batch);
      let now = 0;
      let lost = false;
      for (const { id } of batch) {
        // a pass of one replica: once its lease is lost, the next holder goes on
        if (!held()) {
          lost = true;
          break;
        }
        if (await this.eraseOne(id, 'retention', null)) now++;
      }
      erased += now;
      if (lost || batch.length < BATCH || now === 0) break;
    }
    if (erased > 0)
      this.deps.logger.info({ donations: erased }, 'retention period ended: data erased');
    return erased;
  }

  /**
   * At start, before the service answers: the ledger's donations that are here with their
   * creation time and not erased (a restored backup brought them back) are erased again, with
   * the same events as the first time, whatever their restored status (the backup may predate
   * their closing). Answers how many.
   */
  async catchUp(): Promise<number> {
    let erased = 0;
    // only what an archive that may still be restored can hold (the ledger's watermark)
    const since = ledgerWatermark(this.deps.now(), this.deps.retentionDays);
    for (const entry of (await this.deps.ledger?.entries(since)) ?? []) {
      for (const id of await this.deps.donations.notErased(entry.donations ?? []))
        if (await this.eraseOne(id, entry.reason, entry.actor, { evenOpen: true })) erased++;
    }
    if (erased > 0)
      this.deps.logger.warn(
        { donations: erased },
        'donations erased before were back (a restored backup): erased again',
      );
    return erased;
  }

  /** The retention job's ledger entry, written before the batch is erased. */
  private async record(donations: ErasedRecord[]): Promise<void> {
    if (!this.deps.ledger) return;
    try {
      await this.deps.ledger.append({
        at: this.deps.now().toISOString(),
        reason: 'retention',
        actor: null,
        applications: [],
        wishes: [],
        donations,
      });
    } catch (err) {
      // nothing is erased that a restore could bring back unnoticed: the next run tries again
      throw new DependencyUnavailableError(`the erasure ledger (${this.deps.ledger.where})`, err);
    }
  }

  private async eraseOne(
    id: number,
    reason: 'request' | 'retention',
    actor: Actor | null,
    opts: { evenOpen?: boolean } = {},
  ): Promise<boolean> {
    const result = await this.deps.donations.mutate(id, (d) =>
      d.erased_at || (!opts.evenOpen && OPEN_DONATION_STATUSES.includes(d.status))
        ? null
        : {
            set: erasedFields(d, this.deps.now()),
            events: () => [
              createEvent(
                Events.PersonalDataErased,
                { reason, application_ids: [], wish_ids: [], donation_ids: [id] },
                actor,
              ),
            ],
          },
    );
    return result?.changed ?? false;
  }
}
