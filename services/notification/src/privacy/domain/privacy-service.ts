import {
  Events,
  type DomainEvent,
  type EventPayload,
  type PrivacyRecords,
  type PrivacyRecordsQuery,
  type StoredRecord,
} from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';

/**
 * What a privacy request or an erasure is about: a family's applications and wishes, a donor's
 * donations (the service never stores a phone number; these ids link its records to the person).
 */
export interface PersonIds {
  applicationIds: number[];
  wishIds: number[];
  donationIds: number[];
}

export type ErasableKind = 'application' | 'wish' | 'donation';

/** The ids of an erasure event (donation_ids: absent in events of earlier versions). */
export const idsOfErasure = (p: EventPayload<typeof Events.PersonalDataErased>): PersonIds => ({
  applicationIds: p.application_ids,
  wishIds: p.wish_ids,
  donationIds: p.donation_ids ?? [],
});

/** Whether the ids name nothing at all. */
export const noIds = (ids: PersonIds) =>
  ids.applicationIds.length + ids.wishIds.length + ids.donationIds.length === 0;

/** Where the erased ids are remembered (data-access/erased-targets-repository.ts). */
export interface ErasedTargetsStore {
  remember(ids: PersonIds, at: Date): Promise<void>;
  isErased(kind: ErasableKind, id: number): Promise<boolean>;
}

/** A kept document as staff read it: its dates as ISO text, without the `omit` fields. */
export const isoDates = (doc: object, omit: string[] = []): StoredRecord =>
  Object.fromEntries(
    Object.entries(doc)
      .filter(([k]) => !omit.includes(k))
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );

/**
 * Where a module keeps what it knows about families and donors, by their applications', wishes'
 * and donations' ids.
 */
export interface FamilyRecordsRepository {
  find(ids: PersonIds): Promise<StoredRecord[]>;
  /** Deletes or strips them; answers how many. */
  erase(ids: PersonIds): Promise<number>;
}

/**
 * One module's part of data protection (docs/privacy.md): staff read what the module keeps about
 * a family, and an erasure removes it (the mails are deleted, whatever their state; the activity
 * entries stay, who did what when, with the family's details stripped).
 */
export class ModulePrivacy {
  constructor(
    private readonly deps: {
      repo: FamilyRecordsRepository;
      logger: Logger;
      /** the log's name for the count and for what was erased: 'mails', 'activity entries' */
      counted: string;
      what: string;
    },
  ) {}

  /** What the module keeps about these applications, wishes and donations, oldest first. */
  records(ids: PersonIds): Promise<StoredRecord[]> {
    return this.deps.repo.find(ids);
  }

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    const count = await this.deps.repo.erase(idsOfErasure(event.payload));
    const { reason } = event.payload;
    this.deps.logger.info(
      { eventId: event.eventId, reason, [this.deps.counted]: count },
      `personal data erased: ${this.deps.what}`,
    );
  }

  /** Erases again what was kept about an erased person later (a mail queued, a late event's entry). */
  async erase(target: PersonIds): Promise<void> {
    await this.deps.repo.erase(target);
  }
}

/**
 * Data protection in the notification service (issue 15, docs/privacy.md), the part the mail and
 * the activity module share. An erasure in the applications service
 * (`privacy.personal_data_erased`) is remembered here first (ids only), then each module erases
 * what it keeps (the mails; the family's details in the log). An event about an erased family
 * that arrives later (one on its way, or retried, when the erasure happened) then queues no mail
 * and leaves a stripped entry. Every step is idempotent: a redelivery finds nothing left.
 */
export class ErasedFamilies {
  constructor(private readonly store: ErasedTargetsStore) {}

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    await this.store.remember(idsOfErasure(event.payload), new Date(event.occurredAt));
  }

  /**
   * What the mail and the activity module ask before they keep anything about a person: the
   * application, wish or donation an event is about, when its person's data was erased already.
   */
  async erasedTargetOf(event: DomainEvent): Promise<PersonIds | null> {
    if (event.name === Events.PersonalDataErased) return null;
    const none: PersonIds = { applicationIds: [], wishIds: [], donationIds: [] };
    const p = event.payload as {
      application_id?: unknown;
      wish_id?: unknown;
      donation_id?: unknown;
    };
    // a prepared message (issue 30) is an application's or a wish's
    if (event.name === Events.MessageRequested) {
      if (typeof p.application_id === 'number')
        return (await this.store.isErased('application', p.application_id))
          ? { ...none, applicationIds: [p.application_id] }
          : null;
      if (typeof p.wish_id === 'number')
        return (await this.store.isErased('wish', p.wish_id))
          ? { ...none, wishIds: [p.wish_id] }
          : null;
      return null;
    }
    // a handover is a family's application's, or a donor pickup's donation's (issue 29)
    const handover = event.name.startsWith('handover.');
    if (
      typeof p.application_id === 'number' &&
      (handover || event.name.startsWith('application.'))
    ) {
      return (await this.store.isErased('application', p.application_id))
        ? { ...none, applicationIds: [p.application_id] }
        : null;
    }
    if (typeof p.wish_id === 'number' && event.name.startsWith('wish.')) {
      return (await this.store.isErased('wish', p.wish_id))
        ? { ...none, wishIds: [p.wish_id] }
        : null;
    }
    if (typeof p.donation_id === 'number' && (handover || event.name.startsWith('donation.'))) {
      return (await this.store.isErased('donation', p.donation_id))
        ? { ...none, donationIds: [p.donation_id] }
        : null;
    }
    return null;
  }
}

/**
 * POST /privacy/records: staff read what the service keeps about a family's applications and
 * wishes and a donor's donations.
 */
export class NotificationPrivacy {
  constructor(
    private readonly deps: {
      mails: ModulePrivacy;
      activity: ModulePrivacy;
      /** WhatsApp and SMS messages (issue 30) */
      messages: ModulePrivacy;
      /** the opt-outs kept of these numbers (E.164), by their hashes */
      optOuts: (phones: string[]) => Promise<StoredRecord[]>;
    },
  ) {}

  async records(q: PrivacyRecordsQuery): Promise<PrivacyRecords> {
    const ids: PersonIds = {
      applicationIds: q.application_ids,
      wishIds: q.wish_ids,
      donationIds: q.donation_ids,
    };
    const [mails, activity, messages, optOuts] = await Promise.all([
      this.deps.mails.records(ids),
      this.deps.activity.records(ids),
      this.deps.messages.records(ids),
      this.deps.optOuts(q.phones),
    ]);
    return { mails, activity, messages, opt_outs: optOuts };
  }
}
