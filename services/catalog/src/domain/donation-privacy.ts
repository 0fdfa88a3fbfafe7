import { Events, type Actor, type DonorErasure } from '@furniture/contracts';
import { createEvent, type Logger } from '@furniture/platform/domain';
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
 * service then removes the donor's photos.
 */
export class DonationPrivacy {
  constructor(
    private readonly deps: {
      donations: DonationsRepository;
      now: () => Date;
      retentionDays: number;
      logger: Logger;
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
  async applyRetention(): Promise<number> {
    const before = new Date(this.deps.now().getTime() - this.deps.retentionDays * DAY_MS);
    let erased = 0;
    for (;;) {
      const batch = await this.deps.donations.closedBefore(CLOSED_DONATION_STATUSES, before, BATCH);
      let now = 0;
      for (const id of batch) if (await this.eraseOne(id, 'retention', null)) now++;
      erased += now;
      if (batch.length < BATCH || now === 0) break;
    }
    if (erased > 0)
      this.deps.logger.info({ donations: erased }, 'retention period ended: data erased');
    return erased;
  }

  private async eraseOne(
    id: number,
    reason: 'request' | 'retention',
    actor: Actor | null,
  ): Promise<boolean> {
    const result = await this.deps.donations.mutate(id, (d) =>
      d.erased_at || OPEN_DONATION_STATUSES.includes(d.status)
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
