import type { DomainEvent } from '@furniture/contracts';
import {
  docWithEvents,
  isDuplicateKeyError,
  namespaceOf,
  nextId,
  raiseCounter,
  tombstoneUpdate,
  withDocLock,
  withEvents,
  withLock,
  NOT_DELETED,
  type Connection,
} from '@furniture/platform';
import type { Document, UpdateFilter } from 'mongodb';
import {
  DuplicateCategoryNameError,
  type CategoryChange,
  type CategoryData,
} from '../domain/records';
import { docKey, type CategoryDoc, type Models } from './models';

/** Another category already has this German or Ukrainian name. */
export { DuplicateCategoryNameError } from '../domain/records';

const MAX_ATTEMPTS = 5;

/** "  Sofas  &  Sessel" and "sofas & sessel" are one name to a volunteer. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function toData(doc: CategoryDoc): CategoryData {
  return {
    id: doc.id,
    name: { de: doc.name?.de ?? '', uk: doc.name?.uk ?? '' },
    description: { de: doc.description?.de ?? '', uk: doc.description?.uk ?? '' },
    icon: doc.icon,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    created_by_user_id: doc.created_by_user_id ?? null,
    version: doc.version,
    rev: doc.rev ?? 0,
  };
}

export class CategoriesRepository {
  constructor(
    private readonly conn: Connection,
    private readonly models: Models,
    private readonly onWrite: () => void,
  ) {}

  async list(): Promise<CategoryData[]> {
    const docs = await this.models.Category.find(NOT_DELETED).sort({ id: 1 }).lean<CategoryDoc[]>();
    return docs.map(toData);
  }

  /** By primary key alone (see models.ts), the tombstone checked here. */
  async findById(id: number): Promise<CategoryData | null> {
    const doc = await this.models.Category.findOne({ _id: docKey(id) })
      .select('+deleted_at')
      .lean<CategoryDoc>();
    return doc && !doc.deleted_at ? toData(doc) : null;
  }

  /**
   * Serializes "which lots belong to category id" decisions: assigning a lot to the category and
   * deleting the category (so that no lot is left pointing at a deleted category). In-process,
   * like every lock of the single-replica FerretDB run.
   */
  withMembersLock<T>(id: number, fn: () => Promise<T>): Promise<T> {
    return withLock(`${namespaceOf(this.models.Category.collection)}:members:${id}`, fn);
  }

  async insert(
    data: Omit<CategoryData, 'id' | 'rev'>,
    events: (category: CategoryData) => DomainEvent[],
  ): Promise<CategoryData> {
    const id = await nextId(this.conn, 'categories');
    const category: CategoryData = { ...data, id, rev: 1 };
    try {
      await this.models.Category.collection.insertOne(
        docWithEvents(
          {
            _id: docKey(id),
            ...category,
            name_key_de: nameKey(data.name.de),
            name_key_uk: nameKey(data.name.uk),
          },
          events(category),
        ) as unknown as Document,
      );
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new DuplicateCategoryNameError();
      throw err;
    }
    this.onWrite();
    return category;
  }

  /** Whether the known categories were seeded once already (a deleted one never comes back). */
  async seeded(): Promise<boolean> {
    return (
      (await this.conn.collection('seeds').countDocuments({ _id: 'categories' } as Document)) > 0
    );
  }

  /**
   * Seeds categories with fixed ids (first start). A category another replica seeded first, or a
   * clash with an existing name, is skipped. Answers how many were created.
   */
  async seed(
    categories: CategoryData[],
    events: (category: CategoryData) => DomainEvent[],
  ): Promise<number> {
    let created = 0;
    for (const category of categories) {
      try {
        await this.models.Category.collection.insertOne(
          docWithEvents(
            {
              _id: docKey(category.id),
              ...category,
              name_key_de: nameKey(category.name.de),
              name_key_uk: nameKey(category.name.uk),
            },
            events(category),
          ) as unknown as Document,
        );
        created++;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    const maxId = Math.max(0, ...categories.map((c) => c.id));
    await raiseCounter(this.conn, 'categories', maxId);
    try {
      await this.conn
        .collection('seeds')
        .insertOne({ _id: 'categories', at: new Date() } as unknown as Document);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    if (created > 0) this.onWrite();
    return created;
  }

  /** Compare-and-set change under the category's lock; see LotsRepository.mutate. */
  async mutate(
    id: number,
    decide: (current: CategoryData) => CategoryChange | null | Promise<CategoryChange | null>,
  ): Promise<{ before: CategoryData; after: CategoryData; changed: boolean } | null> {
    const collection = this.models.Category.collection;
    return withDocLock(collection, id, async () => {
      for (let attempt = 1; ; attempt++) {
        const before = await this.findById(id);
        if (!before) return null;
        const change = await decide(before);
        if (!change) return { before, after: before, changed: false };
        const rev = before.rev + 1;
        let after: CategoryData;
        let update: UpdateFilter<Document>;
        if ('remove' in change) {
          after = { ...before, rev };
          // the tombstone releases both names at once
          const gone = `deleted:${id}:${Date.now()}`;
          update = tombstoneUpdate(change.events, {
            rev,
            name_key_de: `${gone}:de`,
            name_key_uk: `${gone}:uk`,
          });
        } else {
          after = { ...before, ...change.set, rev };
          const keys = change.set.name
            ? { name_key_de: nameKey(change.set.name.de), name_key_uk: nameKey(change.set.name.uk) }
            : {};
          update = withEvents({ $set: { ...change.set, ...keys, rev } }, change.events(after));
        }
        let matched: number;
        try {
          const res = await collection.updateOne(
            { _id: docKey(id), rev: before.rev } as unknown as Document,
            update,
          );
          matched = res.matchedCount;
        } catch (err) {
          if (isDuplicateKeyError(err)) throw new DuplicateCategoryNameError();
          throw err;
        }
        if (matched === 1) {
          this.onWrite();
          return { before, after, changed: true };
        }
        if (attempt >= MAX_ATTEMPTS)
          throw new Error(`category ${id}: concurrent writes did not settle`);
      }
    });
  }
}
