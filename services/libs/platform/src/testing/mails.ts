/** A mail as the test run's SMTP catcher lists it (Mailpit-compatible API). */
export interface CaughtMail {
  ID: string;
  MessageID: string;
  Subject: string;
  To: { Address: string }[];
  /** when the catcher received it (RFC 3339) */
  Created: string;
}

/** The mails the test's SMTP catcher (at `mailApiUrl`) received for one address. */
export async function mailsTo(mailApiUrl: string, address: string): Promise<CaughtMail[]> {
  const res = await fetch(
    `${mailApiUrl}/api/v1/search?query=${encodeURIComponent(`to:${address}`)}&limit=0`,
  );
  if (!res.ok) throw new Error(`mail API answered ${res.status}`);
  const { messages } = (await res.json()) as { messages: CaughtMail[] };
  return messages.filter((m) => m.To.some((t) => t.Address.toLowerCase() === address));
}
