import type { DomainEvent } from '@furniture/contracts';
import {
  docKey,
  duplicateAs,
  insertedUnlessTaken,
  nextId,
  raiseCounter,
  NOT_DELETED,
  type Connection,
  type Mutated,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import type { Document } from 'mongodb';
import { duplicateCategoryName, type CategoryChange, type CategoryData } from '../domain/records';
import type { CategoryDoc, Models } from './models';

/** Another category already has this German or Ukrainian name: the unique index's refusal. */
const namedDuplicate = duplicateAs(duplicateCategoryName);

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
  private readonly stored: StoredCollection<CategoryDoc>;

  constructor(
    store: Store,
    private readonly conn: Connection,
    private readonly models: Models,
    private readonly onWrite: () => void,
  ) {
    this.stored = store.collection<CategoryDoc>({ name: 'categories', key: '_id' });
  }

  /** A category's names as their unique keys. */
  private static keys(name: CategoryData['name']) {
    return { name_key_de: nameKey(name.de), name_key_uk: nameKey(name.uk) };
  }

  private store(category: CategoryData, events: (category: CategoryData) => DomainEvent[]) {
    const doc = {
      _id: docKey(category.id),
      ...category,
      ...CategoriesRepository.keys(category.name),
    };
    return this.stored.insert(doc, events(category));
  }

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
    return this.stored.inTurnOf(`members:${id}`, fn);
  }

  async insert(
    data: Omit<CategoryData, 'id' | 'rev'>,
    events: (category: CategoryData) => DomainEvent[],
  ): Promise<CategoryData> {
    const id = await nextId(this.conn, 'categories');
    const category: CategoryData = { ...data, id, rev: 1 };
    await this.store(category, events).catch(namedDuplicate);
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
    for (const category of categories)
      if (await insertedUnlessTaken(() => this.store(category, events))) created++;
    const maxId = Math.max(0, ...categories.map((c) => c.id));
    await raiseCounter(this.conn, 'categories', maxId);
    await insertedUnlessTaken(() =>
      this.conn.collection('seeds').insertOne({ _id: 'categories', at: new Date() } as never),
    );
    if (created > 0) this.onWrite();
    return created;
  }

  /** Compare-and-set change (the store's mutate); see LotsRepository.mutate. */
  async mutate(
    id: number,
    decide: (current: CategoryData) => CategoryChange | null | Promise<CategoryChange | null>,
  ): Promise<Mutated<CategoryData> | null> {
    const result = await this.stored
      .mutate(
        docKey(id),
        () => this.findById(id),
        async (current) => {
          const change = await decide(current);
          if (!change) return null;
          // a tombstone releases both names at once
          const gone = `deleted:${id}:${Date.now()}`;
          const stored =
            'remove' in change
              ? { name_key_de: `${gone}:de`, name_key_uk: `${gone}:uk` }
              : change.set.name
                ? CategoriesRepository.keys(change.set.name)
                : {};
          return { ...change, stored };
        },
      )
      .catch(namedDuplicate);
    if (result?.changed) this.onWrite();
    return result;
  }
}
