import { eventually, mailsTo } from '@furniture/platform/testing';

/** A captured message as Mailpit's API answers it. */
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

/** Reads mail from Mailpit's API (MAIL_API_URL or a Mailpit of the test's own). */
export function mailbox(apiUrl: string) {
  async function to(address: string): Promise<CapturedMail[]> {
    const messages = await mailsTo(apiUrl, address);
    const full = await Promise.all(
      messages.map(async (m) => {
        const r = await fetch(`${apiUrl}/api/v1/message/${m.ID}`);
        const detail = (await r.json()) as CapturedMail;
        // the detail has no arrival time (the list has); Mailpit gives the text with the
        // message's own CRLF line ends: the tests compare it with the template's lines
        return { ...detail, Text: detail.Text.replaceAll('\r\n', '\n'), Created: m.Created };
      }),
    );
    return Promise.all(
      full.map(async (m) => {
        const r = await fetch(`${apiUrl}/api/v1/message/${m.ID}/headers`);
        return { ...m, Headers: (await r.json()) as Record<string, string[]> };
      }),
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
