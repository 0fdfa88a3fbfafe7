/** A mail as Mailpit (the test run's mail catcher) lists it. */
export interface CaughtMail {
  ID: string;
  MessageID: string;
  Subject: string;
  To: { Address: string }[];
  /** arrival time at Mailpit (ISO) */
  Created: string;
}

/** Mailpit's answer to GET /api/v1/search and /api/v1/messages (one page). */
interface MailPage {
  /** how many the search found (all pages); /api/v1/messages: how many are stored */
  messages_count: number;
  messages: CaughtMail[];
}

const PAGE = 200;

/**
 * Every mail Mailpit (at `mailApiUrl`) finds for a search (its syntax: `to:address`,
 * `subject:word` …; '' for all), newest first, read page by page (a mail arriving meanwhile
 * shifts the pages: one seen twice is kept once).
 */
export async function searchMails(mailApiUrl: string, query: string): Promise<CaughtMail[]> {
  const found = new Map<string, CaughtMail>();
  const path = query ? `/api/v1/search?query=${encodeURIComponent(query)}&` : '/api/v1/messages?';
  for (let start = 0; ; start += PAGE) {
    const res = await fetch(`${mailApiUrl}${path}start=${start}&limit=${PAGE}`);
    if (!res.ok) throw new Error(`Mailpit answered ${res.status}`);
    const page = (await res.json()) as MailPage;
    for (const m of page.messages) found.set(m.ID, m);
    if (page.messages.length < PAGE || start + PAGE >= page.messages_count)
      return [...found.values()];
  }
}

/** The mails Mailpit (at `mailApiUrl`) received for one address. */
export async function mailsTo(mailApiUrl: string, address: string): Promise<CaughtMail[]> {
  const wanted = address.toLowerCase();
  // Mailpit's to: matches part of an address: keep only the exact one
  return (await searchMails(mailApiUrl, `to:${address}`)).filter((m) =>
    m.To.some((t) => t.Address.toLowerCase() === wanted),
  );
}
