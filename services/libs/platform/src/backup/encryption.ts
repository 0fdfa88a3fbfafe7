// Backups a thief cannot read (issue 43): every archive is encrypted to an age public key
// (age-encryption.org/v1, X25519; the `age-encryption` package, the reference TypeScript
// implementation, interoperable with the `age` command line). The backup needs the public key
// only (BACKUP_AGE_RECIPIENT); the private key (BACKUP_AGE_IDENTITY) is needed to restore and is
// never stored beside the archives. age authenticates every 64 KiB chunk and the header, so a
// changed byte anywhere fails the decryption: a tampered archive is refused as a damaged one.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** The library is an ES module; this package is CommonJS: loaded when first needed. */
const age = () => import('age-encryption');

/** The first bytes of every age file. */
export const AGE_MAGIC = 'age-encryption.org/v1';

export class BackupKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupKeyError';
  }
}

/** A new key pair: the identity (AGE-SECRET-KEY-1…) and its recipient (age1…). */
export async function newBackupIdentity(): Promise<{ identity: string; recipient: string }> {
  const lib = await age();
  const identity = await lib.generateIdentity();
  return { identity, recipient: await lib.identityToRecipient(identity) };
}

/** The recipient (public key) of an identity. */
export async function recipientOf(identity: string): Promise<string> {
  return (await age()).identityToRecipient(identity.trim());
}

/** A recipient as the backup is configured with it, checked. */
export function checkRecipient(recipient: string): string {
  const value = recipient.trim();
  if (!/^age1[02-9ac-hj-np-z]{58}$/.test(value))
    throw new BackupKeyError(
      `BACKUP_AGE_RECIPIENT is not an age public key (age1… , 62 characters): "${value.slice(0, 12)}…"`,
    );
  return value;
}

/** `plain` encrypted to `recipient`, as a stream. */
export async function encryptStream(plain: Readable, recipient: string): Promise<Readable> {
  const lib = await age();
  const e = new lib.Encrypter();
  e.addRecipient(checkRecipient(recipient));
  const encrypted = await e.encrypt(Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>);
}

/**
 * `encrypted` decrypted with `identity`, as a stream. A key the archive was not encrypted to
 * throws BackupKeyError at once; a changed byte fails the stream where it is read.
 */
export async function decryptStream(encrypted: Readable, identity: string): Promise<Readable> {
  const lib = await age();
  const d = new lib.Decrypter();
  try {
    d.addIdentity(identity.trim());
  } catch {
    throw new BackupKeyError('BACKUP_AGE_IDENTITY is not an age private key (AGE-SECRET-KEY-1…)');
  }
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await d.decrypt(Readable.toWeb(encrypted) as unknown as ReadableStream<Uint8Array>);
  } catch (err) {
    const why = (err as Error).message;
    if (/no identity matched|identity/i.test(why))
      throw new BackupKeyError(
        'this key cannot open the archive: it was encrypted to another key (BACKUP_AGE_IDENTITY must be the private key of the BACKUP_AGE_RECIPIENT the backup used)',
      );
    throw err;
  }
  return Readable.fromWeb(plain as unknown as WebReadableStream<Uint8Array>);
}
