import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The token signing key pair of the single-machine run: created once under the data folder
 * (never in the repository) and kept, so sessions survive restarts.
 */
export function ensureKeyPair(dir: string): {
  privateKeyFile: string;
  publicKeyFile: string;
  created: boolean;
} {
  const { privateKeyFile, publicKeyFile } = keyFiles(dir);
  if (fs.existsSync(privateKeyFile) && fs.existsSync(publicKeyFile)) {
    return { privateKeyFile, publicKeyFile, created: false };
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  fs.writeFileSync(privateKeyFile, privateKey, { mode: 0o600 });
  fs.writeFileSync(publicKeyFile, publicKey, { mode: 0o644 });
  return { privateKeyFile, publicKeyFile, created: true };
}

/**
 * Each service's secret for its /internal calls (docs/security.md, "Service-to-service calls"),
 * created once under the data folder and kept; every service gets its own secret and the
 * digests of all (INTERNAL_SECRET, INTERNAL_CALLERS). Not in a backup: a restore makes new ones.
 */
export function ensureInternalSecrets(dir: string): Record<string, string> {
  const file = path.join(dir, 'internal-secrets.json');
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    if (INTERNAL_SERVICES.every((s) => typeof stored[s] === 'string')) return stored;
  } catch {
    // none yet (or unreadable): create below
  }
  const created = Object.fromEntries(
    INTERNAL_SERVICES.map((s) => [s, randomBytes(32).toString('base64url')]),
  );
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}

const INTERNAL_SERVICES = ['auth', 'catalog', 'applications', 'media', 'notification'];

/**
 * The applications service's LINK_SECRET (booking links and feed keys are derived from it),
 * created once and kept: another one would make every link sent before invalid.
 */
export function ensureLinkSecret(dir: string): string {
  const file = path.join(dir, 'link-secret');
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch {
    // none yet: create below
  }
  const created = randomBytes(32).toString('base64url');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, created, { mode: 0o600 });
  return created;
}

/** A service's INTERNAL_SECRET and INTERNAL_CALLERS from the secrets of ensureInternalSecrets. */
export function internalEnv(
  secrets: Record<string, string>,
  service: string,
): Record<string, string> {
  const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
  return {
    INTERNAL_SECRET: secrets[service] ?? '',
    INTERNAL_CALLERS: Object.entries(secrets)
      .map(([name, secret]) => `${name}:${digest(secret)}`)
      .join(' '),
  };
}

/** Where the key pair of a keys folder is (`make backup` keeps both). */
export function keyFiles(dir: string): { privateKeyFile: string; publicKeyFile: string } {
  return {
    privateKeyFile: path.join(dir, 'jwt-private.pem'),
    publicKeyFile: path.join(dir, 'jwt-public.pem'),
  };
}

/** The credentials the local WhatsApp/SMS stand-in and the notification service share. */
export interface MessagesCredentials {
  whatsappToken: string;
  whatsappPhoneNumberId: string;
  whatsappBusinessAccountId: string;
  whatsappAppSecret: string;
  whatsappVerifyToken: string;
  smsAccountSid: string;
  smsAuthToken: string;
  /** the platform's sender number at the stand-in (the To of inbound SMS) */
  smsFrom: string;
}

function digits(count: number): string {
  const bytes = randomBytes(count);
  return Array.from(bytes, (b, i) => (i === 0 ? 1 + (b % 9) : b % 10)).join('');
}

/** Fresh random credentials (tests that start a stand-in of their own). */
export function newMessagesCredentials(): MessagesCredentials {
  return {
    whatsappToken: `EAAL${randomBytes(30).toString('base64url')}`,
    whatsappPhoneNumberId: digits(15),
    whatsappBusinessAccountId: digits(15),
    whatsappAppSecret: randomBytes(16).toString('hex'),
    whatsappVerifyToken: randomBytes(16).toString('base64url'),
    smsAccountSid: `AC${randomBytes(16).toString('hex')}`,
    smsAuthToken: randomBytes(16).toString('hex'),
    smsFrom: LOCAL_SMS_FROM,
  };
}

/** The platform's made-up sender number at the stand-in (it never leaves this machine). */
export const LOCAL_SMS_FROM = '+4930555000199';

/**
 * The messages stand-in's credentials of a data folder: created once (never in the repository)
 * and kept, so a restarted `make run` and its stand-in still agree.
 */
export function ensureMessagesCredentials(dir: string): MessagesCredentials {
  const file = path.join(dir, 'messages-standin.json');
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<MessagesCredentials>;
    const fresh = newMessagesCredentials();
    if (Object.keys(fresh).every((k) => typeof stored[k as keyof MessagesCredentials] === 'string'))
      return stored as MessagesCredentials;
  } catch {
    // none yet (or unreadable): create below
  }
  const created = newMessagesCredentials();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}
