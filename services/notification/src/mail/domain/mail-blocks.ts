import type { Language, LocalizedText } from '@furniture/contracts';

/** What the mails say about the organisation (from config). */
export interface MailContext {
  siteName: string;
  publicBaseUrl: string;
  office: { email: string; phone: string; address: string; hours: LocalizedText };
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

/**
 * The pen of one mail: each text is written once per language and the mail's language picks one
 * (`say`); a paragraph, a link on the public site, and the mail itself.
 */
export function writer(lang: Language, ctx: MailContext) {
  const say = (de: string, uk: string): string => (lang === 'de' ? de : uk);
  return {
    say,
    para: (de: string, uk: string): Block => ({ type: 'p', text: say(de, uk) }),
    link: (text: string, path: string): Block => ({
      type: 'link',
      text,
      url: `${ctx.publicBaseUrl}${path}`,
    }),
    mail: (subject: string, ...blocks: Block[]): Body => ({ subject, blocks }),
  };
}
