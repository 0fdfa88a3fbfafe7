import { eventually } from '@furniture/platform/testing';

/** A captured message as the catcher's (Mailpit-compatible) API answers it. */
export interface CapturedMail {
  ID: string;
  MessageID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  ReplyTo: { Name: string; Address: string }[];
  Subject: string;
  /** arrival time at the catcher (ISO) */
  Created: string;
  Text: string;
  HTML: string;
  Headers: Record<string, string[]>;
}

/** Reads mail from the SMTP catcher's API (MAIL_API_URL or a catcher of the test's own). */
export function mailbox(apiUrl: string) {
  async function to(address: string): Promise<CapturedMail[]> {
    const res = await fetch(
      `${apiUrl}/api/v1/search?query=${encodeURIComponent(`to:${address}`)}&limit=0`,
    );
    if (!res.ok) throw new Error(`mail API answered ${res.status}`);
    const { messages } = (await res.json()) as { messages: { ID: string; Created: string }[] };
    const full = await Promise.all(
      messages.map(async (m) => {
        const r = await fetch(`${apiUrl}/api/v1/message/${m.ID}`);
        // the detail has no arrival time; the list has
        return { ...((await r.json()) as CapturedMail), Created: m.Created };
      }),
    );
    const withHeaders = await Promise.all(
      full.map(async (m) => {
        const r = await fetch(`${apiUrl}/api/v1/message/${m.ID}/headers`);
        return { ...m, Headers: (await r.json()) as Record<string, string[]> };
      }),
    );
    return withHeaders.filter((m) =>
      m.To.some((t) => t.Address.toLowerCase() === address.toLowerCase()),
    );
  }
  return {
    to,
    /** waits until `count` mails reached the address and answers them */
    async waitFor(address: string, count = 1, timeoutMs = 15000): Promise<CapturedMail[]> {
      return eventually(
        async () => {
          const mails = await to(address);
          return mails.length >= count ? mails : undefined;
        },
        { timeoutMs, intervalMs: 100, what: `${count} mail(s) to ${address}` },
      );
    },
  };
}
