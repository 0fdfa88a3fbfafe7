import type { DomainEvent } from '@furniture/contracts';
import {
  docKey,
  duplicateAs,
  insertedUnlessTaken,
  nextId,
  raiseCounter,
  type Connection,
  type Mutated,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import { randomUUID } from 'node:crypto';
import type { Document } from 'mongodb';
import { duplicateCategoryName, type CategoryChange, type CategoryData } from '../domain/records';
import type { CategoryDoc } from './models';

/** How long a lot's pass into a category lasts (CategoriesRepository.enter). */
const PASS_MS = 30_000;

interface PassDoc {
  _id: string;
  category_id: number;
  until: Date;
}

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
  ) {
    this.stored = store.collection<CategoryDoc>({
      name: 'categories',
      key: '_id',
      tombstones: true,
    });
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
    const docs = await this.stored.find({}, { sort: { id: 1 } });
    return docs.map(toData);
  }

  /** By primary key alone (the store's `get`), a tombstone answering null. */
  async findById(id: number): Promise<CategoryData | null> {
    const doc = await this.stored.get(id);
    return doc ? toData(doc) : null;
  }

  /**
   * Serializes "which lots belong to category id" decisions in this process: assigning a lot to
   * the category and deleting the category. An optimisation only; between processes the passes
   * below decide.
   */
  withMembersLock<T>(id: number, fn: () => Promise<T>): Promise<T> {
    return this.stored.inTurnOf(`members:${id}`, fn);
  }

  /**
   * A lot's way into a category across processes (issue 42), against the category's deletion:
   * a pass (its own document, written first), then the category read. The deletion writes its
   * mark first, then reads the passes and lots (`closeForDeletion`). Each side writes before it
   * reads the other's write, so at least one of them sees the other: the lot is refused, or the
   * deletion is (both may be). False (and no pass) when the category is gone or being deleted.
   * A pass lasts PASS_MS: a process that dies holding one delays a deletion by that much at most;
   * `leave` when the lot is stored (or not).
   */
  async enter(categoryId: number, lotId: number): Promise<boolean> {
    const passes = this.conn.collection<PassDoc>('category_passes');
    const _id = `${categoryId}#${lotId}#${randomUUID()}`;
    await passes.insertOne({ _id, category_id: categoryId, until: new Date(Date.now() + PASS_MS) });
    const open = await this.isOpen(categoryId);
    if (!open) {
      await passes.deleteOne({ _id });
      return false;
    }
    this.held.set(`${categoryId}#${lotId}`, _id);
    return true;
  }

  /**
   * Neither deleted nor being deleted: read by a lot on its way in before it is stored (its pass
   * written), and once more after (the lot written): a lot that finds its category closed then
   * is taken back (LotsService), so no lot stays in a category deleted around it.
   */
  async isOpen(categoryId: number): Promise<boolean> {
    const doc = (await this.stored.get(categoryId)) as
      (CategoryDoc & { deleting_until?: Date | null }) | null;
    return !!doc && !(doc.deleting_until && doc.deleting_until > new Date());
  }

  /** The lot is stored (or not): its pass is given back. */
  async leave(categoryId: number, lotId: number): Promise<void> {
    const key = `${categoryId}#${lotId}`;
    const _id = this.held.get(key);
    this.held.delete(key);
    if (_id) await this.conn.collection<PassDoc>('category_passes').deleteOne({ _id });
  }

  private readonly held = new Map<string, string>();

  /**
   * Marks the category as being deleted (new lots are refused while the mark lasts), then answers
   * whether a lot is on its way in (a live pass). `reopen` takes the mark away again when the
   * deletion is refused.
   */
  async closeForDeletion(id: number): Promise<{ passes: number; reopen: () => Promise<void> }> {
    const until = new Date(Date.now() + PASS_MS);
    await this.stored.update({ _id: docKey(id) }, { $set: { deleting_until: until } });
    const passes = await this.conn
      .collection<PassDoc>('category_passes')
      .countDocuments({ category_id: id, until: { $gt: new Date() } });
    return {
      passes,
      reopen: async () => {
        await this.stored.update({ _id: docKey(id) }, { $set: { deleting_until: null } });
      },
    };
  }

  /** Passes that ran out (their process died): deleted now and then. */
  async purgePasses(): Promise<number> {
    const res = await this.conn
      .collection<PassDoc>('category_passes')
      .deleteMany({ until: { $lt: new Date(Date.now() - PASS_MS) } });
    return res.deletedCount;
  }

  async insert(
    data: Omit<CategoryData, 'id' | 'rev'>,
    events: (category: CategoryData) => DomainEvent[],
  ): Promise<CategoryData> {
    const id = await nextId(this.conn, 'categories');
    const category: CategoryData = { ...data, id, rev: 1 };
    await this.store(category, events).catch(namedDuplicate);
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
    return result;
  }
}
