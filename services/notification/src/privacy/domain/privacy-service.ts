import {
  Events,
  type DomainEvent,
  type PrivacyRecords,
  type PrivacyRecordsQuery,
  type StoredRecord,
} from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';

/** The applications and wishes whose family data was erased. */
export interface ErasedTargets {
  applicationIds: number[];
  wishIds: number[];
}

/** Where the erased ids are remembered (data-access/erased-targets-repository.ts). */
export interface ErasedTargetsStore {
  remember(applicationIds: number[], wishIds: number[], at: Date): Promise<void>;
  isErased(kind: 'application' | 'wish', id: number): Promise<boolean>;
}

/** A kept document as staff read it: its dates as ISO text, without the `omit` fields. */
export const isoDates = (doc: object, omit: string[] = []): StoredRecord =>
  Object.fromEntries(
    Object.entries(doc)
      .filter(([k]) => !omit.includes(k))
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );

/** Where a module keeps what it knows about families, by their applications' and wishes' ids. */
export interface FamilyRecordsRepository {
  find(applicationIds: number[], wishIds: number[]): Promise<StoredRecord[]>;
  /** Deletes or strips them; answers how many. */
  erase(applicationIds: number[], wishIds: number[]): Promise<number>;
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

  /** What the module keeps about the families of these applications and wishes, oldest first. */
  records(applicationIds: number[], wishIds: number[]): Promise<StoredRecord[]> {
    return this.deps.repo.find(applicationIds, wishIds);
  }

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    const { application_ids, wish_ids, reason } = event.payload;
    const count = await this.deps.repo.erase(application_ids, wish_ids);
    this.deps.logger.info(
      { eventId: event.eventId, reason, [this.deps.counted]: count },
      `personal data erased: ${this.deps.what}`,
    );
  }

  /** Erases again what was kept about an erased family later (a mail queued, a late event's entry). */
  async erase(target: ErasedTargets): Promise<void> {
    await this.deps.repo.erase(target.applicationIds, target.wishIds);
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
    const { application_ids, wish_ids } = event.payload;
    await this.store.remember(application_ids, wish_ids, new Date(event.occurredAt));
  }

  /**
   * What the mail and the activity module ask before they keep anything about a family: the
   * application or wish an event is about, when its family's data was erased already.
   */
  async erasedTargetOf(event: DomainEvent): Promise<ErasedTargets | null> {
    if (event.name === Events.PersonalDataErased) return null;
    const p = event.payload as { application_id?: unknown; wish_id?: unknown };
    if (typeof p.application_id === 'number' && event.name.startsWith('application.')) {
      return (await this.store.isErased('application', p.application_id))
        ? { applicationIds: [p.application_id], wishIds: [] }
        : null;
    }
    if (typeof p.wish_id === 'number' && event.name.startsWith('wish.')) {
      return (await this.store.isErased('wish', p.wish_id))
        ? { applicationIds: [], wishIds: [p.wish_id] }
        : null;
    }
    return null;
  }
}

/** POST /privacy/records: staff read what the service keeps about a family's applications and wishes. */
export class NotificationPrivacy {
  constructor(private readonly deps: { mails: ModulePrivacy; activity: ModulePrivacy }) {}

  async records(q: PrivacyRecordsQuery): Promise<PrivacyRecords> {
    const [mails, activity] = await Promise.all([
      this.deps.mails.records(q.application_ids, q.wish_ids),
      this.deps.activity.records(q.application_ids, q.wish_ids),
    ]);
    return { mails, activity };
  }
}
