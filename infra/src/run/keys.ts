import { generateKeyPairSync } from 'node:crypto';
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

/** Where the key pair of a keys folder is (`make backup` keeps both). */
export function keyFiles(dir: string): { privateKeyFile: string; publicKeyFile: string } {
  return {
    privateKeyFile: path.join(dir, 'jwt-private.pem'),
    publicKeyFile: path.join(dir, 'jwt-public.pem'),
  };
}
