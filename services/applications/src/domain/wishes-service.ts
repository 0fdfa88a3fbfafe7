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
  type WishMatches,
  type WishNotified as WishNotifiedAnswer,
  type WishNotify,
} from '@furniture/contracts';
import { AppError, createEvent, type LotLookup } from '@furniture/platform/domain';
import type { ErasureMarks } from '../data-access/erasure-marks';
import type { WishesRepository } from '../data-access/wishes-repository';
import { berlinTimestamp } from './notes';
import type { PhoneValue } from './public-applications';
import type { ReferralRecord } from './records';
import { referralOf } from './status-changes';

/** Lots shown with each active wish, wishes shown with a lot. */
const MATCHES_PER_WISH = 5;
const MATCHES_PER_LOT = 20;

export interface NewWishInput {
  applicant_name: string;
  whatsapp: PhoneValue;
  applicant_email: string | null;
  furniture_category: number;
  furniture_description: string;
  language: Language;
  honeypot: boolean;
  /** issue 44: a partner agency's referrer sends the wish for the family */
  referral?: ReferralRecord | null;
}

/**
 * Wishes: furniture a family needs that no lot offers yet. Anyone may send one; staff work
 * through them. Status rules of back-office §4: active → fulfilled | cancelled, cancelled →
 * active, fulfilled is final.
 */
export class WishesService {
  constructor(
    private readonly deps: {
      wishes: WishesRepository;
      lots: LotLookup;
      /** erasures on request under way, asked after the wish's write (issue 42) */
      erasures?: Pick<ErasureMarks, 'ranSince'>;
      /** erases a wish stored while its number's erasure ran */
      eraseLate?: (id: number) => Promise<unknown>;
    },
  ) {}

  async create(input: NewWishInput): Promise<WishCreated> {
    if (input.honeypot) {
      // like a success, nothing stored (see PublicApplications.decoy)
      return {
        id: await this.deps.wishes.drawId(),
        status: 'active',
        created_at: new Date().toISOString(),
      };
    }
    const { whatsapp, honeypot: _bot, ...fields } = input;
    const begun = new Date();
    const wish = await this.deps.wishes.insert(
      {
        ...fields,
        status: 'active',
        admin_notes: null,
        applicant_whatsapp: whatsapp.e164,
        applicant_whatsapp_raw: whatsapp.raw,
      },
      (w) => [
        createEvent(Events.WishCreated, {
          wish_id: w.id,
          applicant_name: w.applicant_name,
          furniture_category: w.furniture_category,
          status: w.status,
          // who referred whom (issue 44): the activity log's REFER entry, the impact counts
          ...(input.referral ? { referral: referralOf(input.referral) } : {}),
        }),
      ],
    );
    // an erasure of this number under way may have read its wishes before this one was stored
    // (data-access/erasure-marks.ts): what was sent goes with it, and the family is told
    if (await this.deps.erasures?.ranSince(whatsapp.e164, begun)) {
      await this.deps.eraseLate?.(wish.id);
      throw new AppError('ERASURE_RUNNING');
    }
    return { id: wish.id, status: 'active', created_at: wish.created_at };
  }

  /** A page of wishes; each active one with the available lots of its category (oldest first). */
  async list(q: WishesQuery): Promise<WishesPage> {
    const page = await this.deps.wishes.list(q);
    return { ...page, wishes: await this.withMatches(page.wishes) };
  }

  /** GET /wishes/{id}: the wish, with its matching lots while it is active. */
  async detail(id: number): Promise<Wish> {
    const [wish] = await this.withMatches([await this.get(id)]);
    return wish!;
  }

  private async withMatches(wishes: Wish[]): Promise<Wish[]> {
    const active = wishes.filter((w) => w.status === 'active');
    if (active.length === 0) return wishes;
    const lots = await this.deps.lots.availableByCategory(
      active.map((w) => w.furniture_category),
      MATCHES_PER_WISH,
    );
    return wishes.map((w) =>
      w.status === 'active'
        ? {
            ...w,
            matching_lots: (lots.get(w.furniture_category) ?? []).map((l) => ({
              id: l.id,
              name: l.name,
              photo: l.photo,
            })),
          }
        : w,
    );
  }

  /**
   * GET /lots/{id}/wish-matches: the active wishes of the lot's category, oldest first (none
   * while the lot is not available).
   */
  async matchesOfLot(lotId: number): Promise<WishMatches> {
    const lot = await this.deps.lots.get(lotId);
    if (!lot || lot.deleted) throw new AppError('LOT_NOT_FOUND');
    if (lot.status !== 'available') return { wishes: [] };
    return { wishes: await this.deps.wishes.activeOfCategory(lot.category_id, MATCHES_PER_LOT) };
  }

  /**
   * POST /wishes/{id}/notify: tells the family of an active wish about an available lot of its
   * category: by mail (wish.notified, in the wish's language) when it gave an address, otherwise
   * staff send the prefilled WhatsApp message. Either way the wish gets a note line.
   */
  async notify(actor: Actor, id: number, input: WishNotify): Promise<WishNotifiedAnswer> {
    const wish = await this.get(id);
    if (wish.status !== 'active') {
      throw new AppError('WISH_TRANSITION_NOT_ALLOWED', {
        params: { from: wish.status, to: wish.status },
      });
    }
    const lot = await this.deps.lots.get(input.lot_id);
    if (
      !lot ||
      lot.deleted ||
      lot.status !== 'available' ||
      lot.category_id !== wish.furniture_category
    )
      throw new AppError('WISH_LOT_NOT_MATCHING');
    const channel = wish.applicant_email ? 'email' : 'whatsapp';
    const how = channel === 'email' ? 'per E-Mail' : 'per WhatsApp';
    const line = `[${berlinTimestamp(new Date())}] ${actor.email}: über Lot #${lot.id} („${lot.name.de || lot.name.uk}“) ${how} informiert`;
    const updated = await this.deps.wishes.appendNote(id, line, [
      createEvent(
        Events.WishNotified,
        {
          wish_id: id,
          lot_id: lot.id,
          lot_name: lot.name,
          applicant_name: wish.applicant_name,
          applicant_email: wish.applicant_email,
          language: wish.language,
          channel,
          applicant_whatsapp: wish.applicant_whatsapp,
        },
        actor,
      ),
    ]);
    if (!updated) throw new AppError('CONFLICT');
    return { wish: updated, channel };
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
            furniture_category: wish.furniture_category,
          },
          actor,
        ),
      ],
    );
    if (!updated) {
      await this.get(id); // 404 when it is gone
      throw new AppError('CONFLICT');
    }
    return updated;
  }
}
