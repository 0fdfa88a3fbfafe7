import { eventually, testUrls } from '@furniture/platform/testing';

export interface Mail {
  ID: string;
  MessageID: string;
  Subject: string;
  To: { Address: string }[];
}

/** The mails the test's SMTP catcher received for one address (Mailpit-compatible API). */
export async function mailsTo(address: string): Promise<Mail[]> {
  const api = testUrls().mailApiUrl;
  const res = await fetch(
    `${api}/api/v1/search?query=${encodeURIComponent(`to:${address}`)}&limit=0`,
  );
  if (!res.ok) throw new Error(`mail API answered ${res.status}`);
  const { messages } = (await res.json()) as { messages: Mail[] };
  return messages.filter((m) => m.To.some((t) => t.Address.toLowerCase() === address));
}

/** Waits until an address has received mails whose subjects match each of `subjects`. */
export async function waitForMails(address: string, subjects: RegExp[]): Promise<Mail[]> {
  return eventually(
    async () => {
      const mails = await mailsTo(address);
      return subjects.every((s) => mails.some((m) => s.test(m.Subject))) ? mails : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, what: `mails to ${address}` },
  );
}
