import {
  Events,
  Limits,
  LotStatuses,
  resolveCategoryRef,
  type Actor,
  type DomainEvent,
  type LocalizedTextValue,
  type Lot,
  type LotCreate,
  type LotPatch,
  type LotSearchPage,
  type LotSearchQuery,
  type LotSnapshotPage,
  type LotsOfCategoryQuery,
  type LotsQuery,
  type LotUpdate,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { CategoriesRepository } from '../data-access/categories-repository';
import type { LotFilter, LotsRepository } from '../data-access/lots-repository';
import type { StoragePlacesRepository } from '../data-access/storage-places-repository';
import type { LabelCodes } from './label-codes';
import type { StoragePlaceRecord } from './warehouse-records';
import { dateRange } from './dates';
import { changesOf, lotSnapshot } from './events';
import { mergedText, toLot, type LotData, type LotSet, type PhotoRef } from './records';

/** A category's lots (all or a page) and how many the caller can see in it. */
export interface LotsOfCategory {
  lots: Lot[];
  total: number;
}

/** Anonymous callers never see archived lots (public-site §4). */
const PUBLIC_STATUSES = LotStatuses.filter((s) => s !== 'archived');

/** Fields of the lot form whose change bumps the edit version. */
const EDIT_FIELDS = [
  'name',
  'description',
  'detailed_description',
  'category_id',
  'dimensions',
  'condition',
  'donor',
  'location',
] as const;
const PHOTO_FIELDS = ['photos', 'gallery_photos'] as const;

const LANGS = ['de', 'uk'] as const;

/** A move's places (issue 45): where the lot was recorded, and where it is now. */
interface Move {
  from: StoragePlaceRecord | null;
  to: StoragePlaceRecord | null;
}

const placeRef = (p: StoragePlaceRecord | null) =>
  p && { id: p.id, name: p.name, location_id: p.location_id };

function placeMissing(): AppError {
  return new AppError('LOT_STORAGE_PLACE_NOT_FOUND', {
    fieldErrors: [{ loc: ['body', 'storage_place_id'], msg: '', type: 'unknown_storage_place' }],
  });
}

function categoryMissing(): AppError {
  return new AppError('LOT_CATEGORY_NOT_FOUND', {
    fieldErrors: [{ loc: ['body', 'category_id'], msg: '', type: 'unknown_category' }],
  });
}

/**
 * Detailed descriptions default to the short ones (back-office §5). One that was a copy of the
 * short text and is left as it was follows a changed short text, so that the lot detail does not
 * show the old short text as "more details".
 */
function detailedOf(
  current: Pick<LotData, 'description' | 'detailed_description'> | null,
  description: LocalizedTextValue,
  sent: Partial<LocalizedTextValue> | undefined,
): LocalizedTextValue {
  const out = { de: '', uk: '' };
  for (const lang of LANGS) {
    const given = sent?.[lang];
    let text: string;
    if (!current) text = given ?? '';
    else if (given === undefined || given === current.detailed_description[lang]) {
      const wasCopy = current.detailed_description[lang] === current.description[lang];
      text = wasCopy ? description[lang] : current.detailed_description[lang];
    } else text = given;
    out[lang] = text === '' ? description[lang] : text;
  }
  return out;
}

/**
 * Lots: public browsing and search, the staff's lot list and form (back-office §2, §5, §8), and
 * the snapshot other services rebuild their read models from.
 */
export class LotsService {
  constructor(
    private readonly deps: {
      lots: LotsRepository;
      categories: CategoriesRepository;
      /** the warehouse (issue 45): every new lot's label code, the places of a move */
      codes: LabelCodes;
      places: StoragePlacesRepository;
    },
  ) {}

  private visibility(actor: Actor | undefined): Pick<LotFilter, 'visibleStatuses'> {
    return actor ? {} : { visibleStatuses: PUBLIC_STATUSES };
  }

  private filterOf(actor: Actor | undefined, q: Partial<LotsQuery>): LotFilter {
    return {
      ...this.visibility(actor),
      categoryId: q.category_id,
      status: q.status,
      search: q.search,
      ...dateRange(q.date_from, q.date_to),
    };
  }

  async list(actor: Actor | undefined, q: LotsQuery): Promise<Lot[]> {
    const lots = await this.deps.lots.list(this.filterOf(actor, q), {
      skip: q.skip,
      limit: q.limit,
    });
    return lots.map((l) => toLot(l, !!actor));
  }

  count(actor: Actor | undefined, q: LotsQuery): Promise<number> {
    return this.deps.lots.count(this.filterOf(actor, q));
  }

  async search(actor: Actor | undefined, q: LotSearchQuery): Promise<LotSearchPage> {
    const { lots, total } = await this.deps.lots.pageWithTotal(this.filterOf(actor, q), {
      skip: (q.page - 1) * q.limit,
      limit: q.limit,
    });
    return { lots: lots.map((l) => toLot(l, !!actor)), total, page: q.page, limit: q.limit };
  }

  /**
   * The lots of a category by id, numeric string or slug, newest first: all of them, or a page
   * (`limit`, the next one after `before_id`), with the number of the category's lots the caller
   * can see.
   */
  async byCategory(
    actor: Actor | undefined,
    ref: string,
    q: LotsOfCategoryQuery = {},
  ): Promise<LotsOfCategory> {
    const id = resolveCategoryRef(ref);
    if (id === undefined) throw new AppError('CATEGORY_INVALID_ID', { params: { id: ref } });
    // side by side: a page costs a few queries, each a round trip
    const [category, { lots, total }] = await Promise.all([
      this.deps.categories.findById(id),
      this.deps.lots.pageWithTotal(
        { categoryId: id, ...this.visibility(actor) },
        { skip: 0, limit: q.limit ?? Limits.lotDateFilterFetchCap, beforeId: q.before_id },
      ),
    ]);
    if (!category) throw new AppError('CATEGORY_NOT_FOUND');
    return { lots: lots.map((l) => toLot(l, !!actor)), total };
  }

  async get(actor: Actor | undefined, id: number): Promise<Lot> {
    const lot = await this.deps.lots.findById(id);
    if (!lot || (!actor && lot.status === 'archived')) throw new AppError('LOT_NOT_FOUND');
    return toLot(lot, !!actor);
  }

  async create(actor: Actor, input: LotCreate): Promise<Lot> {
    // the id first: the lot's label code is claimed for it before the lot is stored
    const id = await this.deps.lots.nextId();
    const created = await this.insert(
      actor,
      id,
      input,
      [],
      () => [],
      (data, events) => this.deps.lots.insertAs(id, data, events),
    );
    return toLot(created!, true);
  }

  /**
   * A lot made of a donated item: under the id drawn for it (LotsRepository.nextId), with the
   * item's photos (already copied to the lot by the media service) and the events of its making.
   * null when a lot already has that id (the item became a lot meanwhile).
   */
  async createAs(
    actor: Actor,
    id: number,
    input: LotCreate,
    photos: PhotoRef[],
    events: (lot: LotData) => DomainEvent[],
  ): Promise<Lot | null> {
    const created = await this.insert(actor, id, input, photos, events, (data, all) =>
      this.deps.lots.insertAs(id, data, all),
    );
    return created && toLot(created, true);
  }

  private insert(
    actor: Actor,
    id: number,
    input: LotCreate,
    photos: PhotoRef[],
    more: (lot: LotData) => DomainEvent[],
    store: (
      data: Omit<LotData, 'id' | 'rev'>,
      events: (lot: LotData) => DomainEvent[],
    ) => Promise<LotData | null>,
  ): Promise<LotData | null> {
    const description = { de: input.description.de, uk: input.description.uk ?? '' };
    return this.deps.categories.withMembersLock(input.category_id, async () => {
      // the lot's pass into its category (against a deletion in another process), given back
      // once it is stored
      if (!(await this.deps.categories.enter(input.category_id, id))) throw categoryMissing();
      let created: LotData | null;
      try {
        created = await this.stored(actor, id, input, photos, more, store, description);
      } finally {
        await this.deps.categories.leave(input.category_id, id);
      }
      // stored, then the category read once more: one deleted (or being deleted) around this lot
      // takes it back (the deletion may then have been refused for it too: both may be)
      if (created && !(await this.deps.categories.isOpen(input.category_id))) {
        await this.deps.lots.mutate(created.id, (current) => ({
          remove: true,
          events: [createEvent(Events.LotDeleted, { lot: lotSnapshot(current) }, actor)],
        }));
        throw categoryMissing();
      }
      return created;
    });
  }

  private async stored(
    actor: Actor,
    id: number,
    input: LotCreate,
    photos: PhotoRef[],
    more: (lot: LotData) => DomainEvent[],
    store: (
      data: Omit<LotData, 'id' | 'rev'>,
      events: (lot: LotData) => DomainEvent[],
    ) => Promise<LotData | null>,
    description: { de: string; uk: string },
  ): Promise<LotData | null> {
    {
      const labelCode = await this.deps.codes.claim('lot', id);
      const now = new Date();
      return store(
        {
          name: { de: input.name.de, uk: input.name.uk ?? '' },
          description,
          detailed_description: detailedOf(null, description, input.detailed_description),
          status: input.status,
          category_id: input.category_id,
          photos: [...(input.photos ?? []), ...photos.map((p) => p.medium)],
          gallery_photos: [...(input.gallery_photos ?? []), ...photos.map((p) => p.large)],
          dimensions: input.dimensions ?? '',
          condition: input.condition ?? '',
          donor: input.donor ?? '',
          location: input.location ?? '',
          created_at: now,
          updated_at: now,
          status_changed_at: now,
          created_by_user_id: actor.id,
          version: 1,
          reserved_application_id: null,
          photo_refs: photos,
          deleted_photo_ids: [],
          label_code: labelCode,
          storage_place_id: null,
        },
        (lot) => [createEvent(Events.LotCreated, { lot: lotSnapshot(lot) }, actor), ...more(lot)],
      );
    }
  }

  /**
   * PUT and PATCH. Fields left out keep their value. A sent version must be the current one (a
   * form loaded before someone else's save is refused); without one the save wins, as the
   * spec's client expects. A change of any form field bumps the version; photos alone (set main
   * photo) keep it. A status change by staff releases a reservation record (the applications service
   * follows lot.status_changed).
   */
  async update(actor: Actor, id: number, input: LotUpdate | LotPatch): Promise<Lot> {
    const write = () =>
      this.deps.lots.mutate(id, async (current) => {
        if (input.version !== undefined && input.version !== current.version) {
          throw new AppError('STALE_VERSION', { extra: { current_version: current.version } });
        }
        if (
          input.category_id !== undefined &&
          input.category_id !== current.category_id &&
          !(await this.deps.categories.findById(input.category_id))
        ) {
          throw categoryMissing();
        }
        return this.change(actor, current, input, await this.moveOf(current, input));
      });
    const into = input.category_id;
    const result =
      into !== undefined
        ? await this.deps.categories.withMembersLock(into, async () => {
            // the lot's pass into the category, as at creation
            if (!(await this.deps.categories.enter(into, id))) throw categoryMissing();
            try {
              return await write();
            } finally {
              await this.deps.categories.leave(into, id);
            }
          })
        : await write();
    if (!result) throw new AppError('LOT_NOT_FOUND');
    return toLot(result.after, true);
  }

  /** The places of a move the input asks for (PATCH storage_place_id); null: no move. */
  private async moveOf(current: LotData, input: LotUpdate | LotPatch): Promise<Move | null> {
    const wanted = (input as LotPatch).storage_place_id;
    if (wanted === undefined || wanted === current.storage_place_id) return null;
    const [from, to] = await Promise.all([
      current.storage_place_id === null ? null : this.deps.places.get(current.storage_place_id),
      wanted === null ? null : this.deps.places.get(wanted),
    ]);
    if (wanted !== null && !to) throw placeMissing();
    return { from, to };
  }

  private change(actor: Actor, current: LotData, input: LotUpdate | LotPatch, move: Move | null) {
    const description = mergedText(current.description, input.description);
    const next = {
      name: mergedText(current.name, input.name),
      description,
      detailed_description: detailedOf(current, description, input.detailed_description),
      category_id: input.category_id ?? current.category_id,
      dimensions: input.dimensions ?? current.dimensions,
      condition: input.condition ?? current.condition,
      donor: input.donor ?? current.donor,
      location: input.location ?? current.location,
      photos: input.photos ?? current.photos,
      gallery_photos: input.gallery_photos ?? current.gallery_photos,
    };
    const status = input.status ?? current.status;
    const formChanges = changesOf(current, next, EDIT_FIELDS);
    const photoChanges = changesOf(current, next, PHOTO_FIELDS);
    const statusChanged = status !== current.status;
    const formChanged = Object.keys(formChanges).length > 0;
    if (!formChanged && !statusChanged && !move && Object.keys(photoChanges).length === 0)
      return null;

    const now = new Date();
    const set: LotSet = { ...next, updated_at: now };
    if (formChanged || statusChanged) set.version = current.version + 1;
    if (statusChanged) {
      set.status = status;
      set.status_changed_at = now;
      set.reserved_application_id = null;
    }
    // a move is no edit of the form: an open lot form stays valid (no new version)
    if (move) set.storage_place_id = move.to?.id ?? null;
    const changes = { ...formChanges, ...photoChanges };
    return {
      set,
      events: (after: LotData) => {
        const events: DomainEvent[] = [];
        if (Object.keys(changes).length > 0) {
          events.push(createEvent(Events.LotUpdated, { lot: lotSnapshot(after), changes }, actor));
        }
        if (move) {
          const moved = { from_place: placeRef(move.from), to_place: placeRef(move.to) };
          events.push(createEvent(Events.LotMoved, { lot: lotSnapshot(after), ...moved }, actor));
        }
        if (statusChanged) {
          events.push(
            createEvent(
              Events.LotStatusChanged,
              {
                lot: lotSnapshot(after),
                old_status: current.status,
                new_status: status,
                cause: 'staff',
                application_id: null,
              },
              actor,
            ),
          );
        }
        return events;
      },
    };
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const result = await this.deps.lots.mutate(id, (current) => ({
      remove: true,
      events: [createEvent(Events.LotDeleted, { lot: lotSnapshot(current) }, actor)],
    }));
    if (!result) throw new AppError('LOT_NOT_FOUND');
  }

  /** One page of the snapshot other services rebuild their read model of lots from. */
  async snapshot(afterId: number, limit: number): Promise<LotSnapshotPage> {
    const page = await this.deps.lots.snapshotPage(afterId, limit + 1);
    const lots = page.slice(0, limit);
    const last = lots[lots.length - 1];
    return {
      lots: lots.map(lotSnapshot),
      next_after_id: page.length > limit && last ? last.id : null,
    };
  }
}
