import type { DomainEvent, LotStatus } from '@furniture/contracts';
import {
  docKey,
  escapeRegex,
  isDuplicateKeyError,
  type Mutated,
  type Store,
  type StoredList,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import type { LotChange, LotData } from '../domain/records';
import type { LotDoc } from './models';

/** What a lot list may be narrowed by (built by the domain, translated to a query here). */
export interface LotFilter {
  categoryId?: number;
  status?: LotStatus;
  /** only these statuses (anonymous callers never see archived lots) */
  visibleStatuses?: readonly LotStatus[];
  /** names and short descriptions in both languages, case-insensitive; a number also matches the id */
  search?: string;
  createdFrom?: Date;
  createdBefore?: Date;
}

/** A page of a lot list: `skip` lots left out, or (with skip 0) the lots after `beforeId`. */
export interface LotPage {
  skip: number;
  limit: number;
  /** only lots with a smaller id (the id of the last lot the previous page showed) */
  beforeId?: number;
}

function toData(doc: LotData): LotData {
  return {
    id: doc.id,
    name: { de: doc.name?.de ?? '', uk: doc.name?.uk ?? '' },
    description: { de: doc.description?.de ?? '', uk: doc.description?.uk ?? '' },
    detailed_description: {
      de: doc.detailed_description?.de ?? '',
      uk: doc.detailed_description?.uk ?? '',
    },
    status: doc.status,
    category_id: doc.category_id,
    photos: doc.photos ?? [],
    gallery_photos: doc.gallery_photos ?? [],
    dimensions: doc.dimensions ?? '',
    condition: doc.condition ?? '',
    donor: doc.donor ?? '',
    location: doc.location ?? '',
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    status_changed_at: doc.status_changed_at ?? doc.created_at,
    created_by_user_id: doc.created_by_user_id ?? null,
    version: doc.version,
    rev: doc.rev ?? 0,
    reserved_application_id: doc.reserved_application_id ?? null,
    photo_refs: (doc.photo_refs ?? []).map((r) => ({
      photo_id: r.photo_id,
      medium: r.medium,
      large: r.large,
    })),
    deleted_photo_ids: doc.deleted_photo_ids ?? [],
    label_code: doc.label_code ?? null,
    storage_place_id: doc.storage_place_id ?? null,
  };
}

export class LotsRepository {
  /** counted by category and status, read block by block (the store) */
  readonly stored: StoredList<LotDoc>;

  constructor(
    store: Store,
    /** after every write: publish the events */
  ) {
    this.stored = store.list<LotDoc>({
      name: 'lots',
      key: '_id',
      counts: 'lot_counts',
      countedBy: ['category_id', 'status'],
      tombstones: true,
    });
  }

  /** The filter as a query of the live lots' fields (the store leaves tombstones out). */
  private query(f: LotFilter): QueryFilter<LotDoc> {
    const q: QueryFilter<LotDoc> = {};
    if (f.categoryId !== undefined) q.category_id = f.categoryId;
    if (f.status !== undefined) {
      q.status =
        f.visibleStatuses && !f.visibleStatuses.includes(f.status)
          ? { $in: [] as LotStatus[] }
          : f.status;
    } else if (f.visibleStatuses) {
      q.status = { $in: [...f.visibleStatuses] };
    }
    if (f.search) {
      const re = new RegExp(escapeRegex(f.search), 'i');
      const or: QueryFilter<LotDoc>[] = [
        { 'name.de': re },
        { 'name.uk': re },
        { 'description.de': re },
        { 'description.uk': re },
      ];
      const asId = /^#?(\d{1,12})$/.exec(f.search);
      if (asId) or.push({ id: Number(asId[1]) });
      q.$or = or;
    }
    if (f.createdFrom || f.createdBefore) {
      q.created_at = {
        ...(f.createdFrom ? { $gte: f.createdFrom } : {}),
        ...(f.createdBefore ? { $lt: f.createdBefore } : {}),
      };
    }
    return q;
  }

  /** By primary key alone (the store's `get`), a tombstone answering null. */
  async findById(id: number): Promise<LotData | null> {
    const doc = await this.stored.get(id);
    return doc ? toData(doc) : null;
  }

  /** Newest first. */
  async list(filter: LotFilter, page: LotPage): Promise<LotData[]> {
    return (await this.stored.page(this.query(filter), page)).map(toData);
  }

  /**
   * A page and the number of the filter's lots (all pages), from one read of the kept counts:
   * the public category page shows "24 of 625 lots".
   */
  async pageWithTotal(
    filter: LotFilter,
    page: LotPage,
  ): Promise<{ lots: LotData[]; total: number }> {
    const { docs, total } = await this.stored.pageWithTotal(this.query(filter), page);
    return { lots: docs.map(toData), total };
  }

  count(filter: LotFilter): Promise<number> {
    return this.stored.count(this.query(filter));
  }

  /** The lots stored now (archived ones too), read from the lots, not the counts. */
  countStored(filter: Pick<LotFilter, 'categoryId'>): Promise<number> {
    // from the documents (the store leaves out a tombstone waiting for its event to go out)
    return this.stored.countStored({ category_id: filter.categoryId });
  }

  /** Lots per category, counting only the given statuses. */
  /** Per set of statuses: the lots of each category in one of them (the counts read once). */
  async countsByCategory<T extends (readonly LotStatus[])[]>(
    ...statusSets: T
  ): Promise<{ [K in keyof T]: Map<number, number> }> {
    const wheres = statusSets.map((statuses) => ({ status: { $in: [...statuses] } }));
    const tallies = await this.stored.talliesEach(['category_id'], wheres);
    return tallies.map(
      ({ by }) =>
        new Map([...by.get('category_id')!].map(([category, n]) => [Number(category), n])),
    ) as { [K in keyof T]: Map<number, number> };
  }

  async insert(
    data: Omit<LotData, 'id' | 'rev'>,
    events: (lot: LotData) => DomainEvent[],
  ): Promise<LotData> {
    return (await this.insertAs(await this.stored.nextId(), data, events))!;
  }

  /** The next lot id, drawn ahead of its insert (a lot made of a donated item: insertAs). */
  nextId(): Promise<number> {
    return this.stored.nextId();
  }

  /** A lot with an id drawn before; null when a lot (or its tombstone) already has that id. */
  async insertAs(
    id: number,
    data: Omit<LotData, 'id' | 'rev'>,
    events: (lot: LotData) => DomainEvent[],
  ): Promise<LotData | null> {
    const lot: LotData = { ...data, id, rev: 1 };
    try {
      await this.stored.insert({ _id: docKey(id), ...lot }, events(lot));
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
    return lot;
  }

  /**
   * Reads the lot, lets `decide` choose a change (or none) and writes it with its events in one
   * compare-and-set on `rev` (the store's mutate). null: there is no such lot. Whatever `decide`
   * throws (a stale version, say) ends the call unchanged.
   */
  async mutate(
    id: number,
    decide: (current: LotData) => LotChange | null | Promise<LotChange | null>,
  ): Promise<Mutated<LotData> | null> {
    const result = await this.stored.mutate(docKey(id), () => this.findById(id), decide);
    return result;
  }

  /** Lots with id > afterId in id order, archived included (read models of other services). */
  async snapshotPage(afterId: number, limit: number): Promise<LotData[]> {
    const docs = await this.stored.find({ id: { $gt: afterId } }, { sort: { id: 1 }, limit });
    return docs.map(toData);
  }

  /** The lots recorded on a storage place, newest first (issue 45). */
  async onPlace(placeId: number): Promise<LotData[]> {
    const docs = await this.stored.find({ storage_place_id: placeId }, { sort: { id: -1 } });
    return docs.map(toData);
  }

  countOnPlace(placeId: number): Promise<number> {
    return this.stored.countStored({ storage_place_id: placeId });
  }

  /** Lots of earlier versions that have no label code yet, lowest id first. */
  async withoutLabel(limit: number): Promise<LotData[]> {
    const docs = await this.stored.find({ label_code: null }, { sort: { id: 1 }, limit });
    return docs.map(toData);
  }
}
