import { createHash, createHmac, randomBytes } from 'node:crypto';

/*
 * The bearer secrets of the handover (issue 43): a family's booking link and a location's feed
 * key. Neither is stored: a document keeps a random seed and the SHA-256 digest of the secret
 * (looked up by that digest); the secret is HMAC-SHA256(LINK_SECRET, kind + seed), so the
 * service can show staff the same link again and put it into later mails, while a copy of the
 * database or of a backup (without LINK_SECRET, which lives in a Secret only) opens nothing.
 */
export class LinkSecrets {
  constructor(private readonly key: string) {}

  /** A new seed (what a document keeps beside the digest). */
  static newSeed(): string {
    return randomBytes(16).toString('hex');
  }

  /** The booking link's token: 64 lower-case hex digits (API paths are lower case). */
  handoverToken(seed: string): string {
    return createHmac('sha256', this.key).update(`handover:${seed}`).digest('hex');
  }

  /** The location feed's key (base64url, as before: subscribed calendars keep working). */
  feedKey(seed: string): string {
    return createHmac('sha256', this.key).update(`feed:${seed}`).digest('base64url');
  }
}

/** The digest a document keeps of a bearer secret, and the one a presented secret is looked up by. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
