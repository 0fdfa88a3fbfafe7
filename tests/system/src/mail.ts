import {
  eventually,
  mailsTo as caughtMailsTo,
  testUrls,
  type CaughtMail,
} from '@furniture/platform/testing';

export type Mail = CaughtMail;

/** The mails Mailpit (the test run's mail catcher) received for one address. */
export function mailsTo(address: string): Promise<Mail[]> {
  return caughtMailsTo(testUrls().mailApiUrl, address);
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
