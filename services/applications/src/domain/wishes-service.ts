import {
  Events,
  WishTransitions,
  type Actor,
  type Language,
  type Wish,
  type WishCreated,
  type WishStatus,
  type WishesPage,
  type WishesQuery,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { WishesRepository } from '../data-access/wishes-repository';
import type { PhoneValue } from './public-applications';

export interface NewWishInput {
  applicant_name: string;
  whatsapp: PhoneValue;
  applicant_email: string | null;
  furniture_category: number;
  furniture_description: string;
  language: Language;
  honeypot: boolean;
}

/**
 * Wishes: furniture a family needs that no lot offers yet. Anyone may send one; staff work
 * through them. Status rules of back-office §4: active → fulfilled | cancelled, cancelled →
 * active, fulfilled is final.
 */
export class WishesService {
  constructor(private readonly deps: { wishes: WishesRepository; onEvents: () => void }) {}

  async create(input: NewWishInput): Promise<WishCreated> {
    if (input.honeypot) {
      // like a success, nothing stored (see PublicApplications.decoy)
      return {
        id: await this.deps.wishes.drawId(),
        status: 'active',
        created_at: new Date().toISOString(),
      };
    }
    const wish = await this.deps.wishes.insert(
      {
        status: 'active',
        admin_notes: null,
        applicant_name: input.applicant_name,
        applicant_whatsapp: input.whatsapp.e164,
        applicant_whatsapp_raw: input.whatsapp.raw,
        applicant_email: input.applicant_email,
        furniture_category: input.furniture_category,
        furniture_description: input.furniture_description,
        language: input.language,
      },
      (w) => [
        createEvent(Events.WishCreated, {
          wish_id: w.id,
          applicant_name: w.applicant_name,
          furniture_category: w.furniture_category,
          status: w.status,
        }),
      ],
    );
    this.deps.onEvents();
    return { id: wish.id, status: 'active', created_at: wish.created_at };
  }

  list(q: WishesQuery): Promise<WishesPage> {
    return this.deps.wishes.list(q);
  }

  async get(id: number): Promise<Wish> {
    const wish = await this.deps.wishes.findById(id);
    if (!wish) throw new AppError('WISH_NOT_FOUND');
    return wish;
  }

  /**
   * Changes status and/or admin notes. Nothing changed answers the wish as it is; a fulfilled
   * wish cannot be changed at all.
   */
  async changeStatus(
    actor: Actor,
    id: number,
    input: { status: WishStatus; admin_notes?: string | null },
  ): Promise<Wish> {
    const wish = await this.get(id);
    const notes =
      input.admin_notes === undefined ? wish.admin_notes : input.admin_notes?.trim() || null;
    if (input.status === wish.status && notes === wish.admin_notes) return wish;
    if (wish.status === 'fulfilled') throw new AppError('WISH_FULFILLED');
    if (input.status !== wish.status && !WishTransitions[wish.status].includes(input.status)) {
      throw new AppError('WISH_TRANSITION_NOT_ALLOWED', {
        params: { from: wish.status, to: input.status },
      });
    }
    const updated = await this.deps.wishes.update(
      id,
      wish.status,
      { status: input.status, admin_notes: notes },
      [
        createEvent(
          Events.WishStatusChanged,
          {
            wish_id: id,
            old_status: wish.status,
            new_status: input.status,
            admin_notes: notes,
            old_admin_notes: wish.admin_notes,
          },
          actor,
        ),
      ],
    );
    if (!updated) {
      await this.get(id); // 404 when it is gone
      throw new AppError('CONFLICT');
    }
    this.deps.onEvents();
    return updated;
  }
}
