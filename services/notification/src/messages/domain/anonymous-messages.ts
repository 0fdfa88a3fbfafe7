import { countryOfE164, type MessageReason } from '@furniture/contracts';
import type { AnonymousQuotaRepository } from '../data-access/anonymous-quota-repository';
import { phoneHash } from './channels';
import type { MessageRecord } from './message-types';

/**
 * The messages an anonymous submission triggers (issue 43, "no budget for a bot"): the
 * confirmations that an application or a donation was received. Anyone can make the platform
 * send them to any number it types in, so they go only to numbers of the allowed countries, at
 * most one per number and day, and out of their own share of each channel's monthly budget
 * (MessageOutcomes). The confirmation stays on screen and in the mail; every message after a
 * staff action is sent as before.
 */
export const AnonymousKinds: readonly string[] = ['submitted', 'donation_received'];

export const isAnonymousKind = (kind: string): boolean => AnonymousKinds.includes(kind);

export class AnonymousMessages {
  constructor(
    private readonly deps: {
      /** ISO 3166-1 alpha-2 codes (DE, UA, PL) */
      countries: ReadonlySet<string>;
      quota: AnonymousQuotaRepository;
      /** the office's day: "one per day" is its calendar day */
      dayOf: (at: Date) => string;
    },
  ) {}

  /**
   * The numbers an anonymous message may go to (those of the allowed countries), or why it may
   * go to none: no number of an allowed country, or the number's day already taken by another.
   */
  async admit(
    m: Pick<MessageRecord, 'id' | 'kind' | 'whatsapp_to' | 'sms_to'>,
    now = new Date(),
  ): Promise<
    { refused: MessageReason } | { numbers: Pick<MessageRecord, 'whatsapp_to' | 'sms_to'> }
  > {
    const numbers = { whatsapp_to: m.whatsapp_to, sms_to: m.sms_to };
    if (!isAnonymousKind(m.kind)) return { numbers };
    const allowed = (n: string | null) =>
      n && this.deps.countries.has(countryOfE164(n) ?? '') ? n : null;
    const kept = { whatsapp_to: allowed(m.whatsapp_to), sms_to: allowed(m.sms_to) };
    const left = [...new Set([kept.whatsapp_to, kept.sms_to].filter((n): n is string => !!n))];
    if (left.length === 0)
      return m.whatsapp_to || m.sms_to ? { refused: 'country_not_allowed' } : { numbers };
    const day = this.deps.dayOf(now);
    for (const n of left)
      if (!(await this.deps.quota.takeDay(`${phoneHash(n)}:${day}`, m.id)))
        return { refused: 'daily_limit' };
    return { numbers: kept };
  }
}
