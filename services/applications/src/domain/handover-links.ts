/**
 * What the status changes need of the handover (issue 29): an approval carries the family's
 * personal booking link, and an application that leaves `approved` (lapse, cancelled
 * reservation, rejection, completion) gives its booking back.
 */
export interface HandoverLinks {
  /** the family's booking page for a token: the public site + /handover/{token} */
  url(token: string): string;
  /**
   * a new link for an approval: what the application keeps (the seed and the token's digest,
   * never the token: link-secrets.ts) and the page it leads to
   */
  issue(): { seed: string; tokenHash: string; url: string };
  /** the booking page of the link an application keeps the seed of */
  urlOf(seed: string): string;
  /** the application left `approved`: its booked slot, if any, is cancelled by the system */
  applicationLeft(applicationId: number): Promise<void>;
}
