import {
  Events,
  LotStatuses,
  resolveCategoryRef,
  type Actor,
  type Category,
  type CategoryCreate,
  type CategoryUpdate,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { CategoriesRepository } from '../data-access/categories-repository';
import type { LotsRepository } from '../data-access/lots-repository';
import { categorySnapshot, changesOf } from './events';
import { mergedText, toCategory, type CategoryData } from './records';
import { KNOWN_CATEGORIES } from './seed';

/** lot_count counts the lots a visitor can see: every status but archived. */
const COUNTED_STATUSES = LotStatuses.filter((s) => s !== 'archived');

/**
 * Categories: the public grid and the staff's category management (back-office §2, §5, §8).
 * Rules: both names required and unique per language; a category that holds lots (archived ones
 * included) cannot be deleted; a save based on a stale version is refused.
 */
export class CategoriesService {
  constructor(
    private readonly deps: {
      categories: CategoriesRepository;
      lots: LotsRepository;
    },
  ) {}

  /** Every category with its lot count, by id. */
  async list(): Promise<Category[]> {
    const [categories, [counts, archived]] = await Promise.all([
      this.deps.categories.list(),
      this.deps.lots.countsByCategory(COUNTED_STATUSES, ['archived']),
    ]);
    return categories.map((c) => toCategory(c, counts.get(c.id) ?? 0, archived.get(c.id) ?? 0));
  }

  /** By id, numeric string or one of the eight slugs. */
  async get(ref: string): Promise<Category> {
    const id = resolveCategoryRef(ref);
    if (id === undefined) throw new AppError('CATEGORY_INVALID_ID', { params: { id: ref } });
    const category = (await this.list()).find((c) => c.id === id);
    if (!category) throw new AppError('CATEGORY_NOT_FOUND');
    return category;
  }

  async create(actor: Actor, input: CategoryCreate): Promise<Category> {
    const now = new Date();
    const created = await this.deps.categories.insert(
      {
        name: input.name,
        description: input.description,
        icon: input.icon,
        created_at: now,
        updated_at: now,
        created_by_user_id: actor.id,
        version: 1,
      },
      (c) => [createEvent(Events.CategoryCreated, { category: categorySnapshot(c) }, actor)],
    );
    return toCategory(created, 0, 0);
  }

  async update(actor: Actor, id: number, input: CategoryUpdate): Promise<Category> {
    const result = await this.deps.categories.mutate(id, (current) => {
      if (input.version !== undefined && current.version !== input.version) {
        throw new AppError('STALE_VERSION', { extra: { current_version: current.version } });
      }
      const next = {
        name: input.name,
        description: mergedText(current.description, input.description),
        icon: input.icon ?? current.icon,
      };
      const changes = changesOf(current, next, ['name', 'description', 'icon']);
      if (Object.keys(changes).length === 0) return null;
      return {
        set: { ...next, version: current.version + 1, updated_at: new Date() },
        events: (after) => [
          createEvent(
            Events.CategoryUpdated,
            { category: categorySnapshot(after), changes },
            actor,
          ),
        ],
      };
    });
    if (!result) throw new AppError('CATEGORY_NOT_FOUND');
    return this.withCount(result.after);
  }

  /** Refused while lots (archived ones too) still belong to the category. */
  async delete(actor: Actor, id: number): Promise<void> {
    const deleted = await this.deps.categories.withMembersLock(id, async () => {
      // the mark first, then the lots and the lots on their way in (CategoriesRepository.enter)
      const { passes, reopen } = await this.deps.categories.closeForDeletion(id);
      try {
        const count = await this.deps.lots.countStored({ categoryId: id });
        if (count + passes > 0)
          throw new AppError('CATEGORY_HAS_LOTS', { params: { count: count + passes } });
        return await this.deps.categories.mutate(id, (current) => ({
          remove: true,
          events: [
            createEvent(Events.CategoryDeleted, { category: categorySnapshot(current) }, actor),
          ],
        }));
      } catch (err) {
        await reopen();
        throw err;
      }
    });
    if (!deleted) throw new AppError('CATEGORY_NOT_FOUND');
  }

  /**
   * First start: the eight known categories with ids 1..8. Runs once per database: a known
   * category that staff deleted later does not come back. Answers how many were created.
   */
  async seed(): Promise<number> {
    if (await this.deps.categories.seeded()) return 0;
    const now = new Date();
    const known: CategoryData[] = Object.entries(KNOWN_CATEGORIES).map(([id, c]) => ({
      id: Number(id),
      ...c,
      created_at: now,
      updated_at: now,
      created_by_user_id: null,
      version: 1,
      rev: 1,
    }));
    return this.deps.categories.seed(known, (c) => [
      createEvent(Events.CategoryCreated, { category: categorySnapshot(c) }, null),
    ]);
  }

  private async withCount(c: CategoryData): Promise<Category> {
    const [count, all] = await Promise.all([
      this.deps.lots.count({ categoryId: c.id, visibleStatuses: COUNTED_STATUSES }),
      // every lot of the category, archived ones included (they still hold it)
      this.deps.lots.count({ categoryId: c.id }),
    ]);
    return toCategory(c, count, all - count);
  }
}
