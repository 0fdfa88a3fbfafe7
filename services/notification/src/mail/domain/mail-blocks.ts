import type { Language, LocalizedText } from '@furniture/contracts';

/** What the mails say about the organisation (from config). */
export interface MailContext {
  siteName: string;
  publicBaseUrl: string;
  office: { email: string; phone: string; address: string; hours: LocalizedText };
  /** the office's time zone: a slot's day and hours as the family reads them (TIMEZONE) */
  timeZone: string;
}

/** A mail is a list of blocks, rendered once as plain text and once as HTML. */
export type Block =
  | { type: 'p'; text: string }
  | { type: 'steps'; items: string[] }
  | { type: 'link'; text: string; url: string }
  | { type: 'contact'; title: string; lines: [label: string, value: string, href?: string][] };

/** One mail's subject and what it says between the greeting and the office's contact. */
export interface Body {
  subject: string;
  blocks: Block[];
}

/** "2026-12-01" as the family reads a date: 01.12.2026 (both languages write it so). */
export function dayIn(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}.${m}.${y}`;
}

const LOCALES: Record<Language, string> = { de: 'de-DE', uk: 'uk-UA' };

/**
 * A slot's day and hours in the office's zone: "Dienstag, 01.12.2026, 10:00–12:00 Uhr" /
 * "вівторок, 01.12.2026, 10:00–12:00"; `day` alone, the date ("01.12.2026"), `from` the start
 * ("10:00 Uhr" / "10:00").
 */
export function slotTimeIn(startsAt: string, endsAt: string, lang: Language, timeZone: string) {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const weekday = new Intl.DateTimeFormat(LOCALES[lang], { weekday: 'long', timeZone });
  const date = new Intl.DateTimeFormat(LOCALES[lang], {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone,
  });
  const time = new Intl.DateTimeFormat(LOCALES[lang], {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  const uhr = lang === 'de' ? ' Uhr' : '';
  const day = date.format(start);
  return {
    day,
    from: `${time.format(start)}${uhr}`,
    full: `${weekday.format(start)}, ${day}, ${time.format(start)}–${time.format(end)}${uhr}`,
  };
}

/**
 * The pen of one mail: each text is written once per language and the mail's language picks one
 * (`say`); a paragraph, a link on the public site, and the mail itself.
 */
export function writer(lang: Language, ctx: MailContext) {
  const say = (de: string, uk: string): string => (lang === 'de' ? de : uk);
  return {
    say,
    para: (de: string, uk: string): Block => ({ type: 'p', text: say(de, uk) }),
    /** a path on the public site, or an address of its own (a family's personal link) */
    link: (text: string, path: string): Block => ({
      type: 'link',
      text,
      url: /^https?:\/\//.test(path) ? path : `${ctx.publicBaseUrl}${path}`,
    }),
    mail: (subject: string, ...blocks: Block[]): Body => ({ subject, blocks }),
  };
}
