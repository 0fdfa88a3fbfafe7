// `make backup`: one archive of make run's data (every service's database, the photos, the
// signing keys, a manifest) in .data/backups (BACKUP_DIR), its path printed as the last line;
// make run may be running meanwhile. `make restore FROM=<archive> [FORCE=1]`: puts an archive
// back with make run stopped, so that the next make run serves it. docs/operations.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackupKeyError,
  backupRetentionDays,
  DEFAULT_DATABASES,
  newBackupIdentity,
  recipientOf,
  runBackup,
  runRestore,
} from '@furniture/platform/backup';
import { assertStopped, hasData, openRunStorage } from '../backup';
import { BACKUP_DIR, displayPath, ERASURE_LEDGER_FILE, RUN_DATA_DIR } from '../paths';
import { errorMessage } from '../util';

const log = (line: string) => process.stdout.write(`backup  ${line}\n`);

/**
 * The archives' private key on this machine: BACKUP_AGE_IDENTITY_FILE, else one in the user's
 * configuration folder, made by the first `make backup` (never in .data, beside the archives).
 */
function identityFile(): string {
  const configured = process.env.BACKUP_AGE_IDENTITY_FILE?.trim();
  if (configured) return configured;
  const base = process.env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config');
  return path.join(base, 'moebelbruecke', 'backup-identity.txt');
}

/** BACKUP_AGE_RECIPIENT, else the public key of this machine's identity (made when missing). */
async function recipient(): Promise<string> {
  const given = process.env.BACKUP_AGE_RECIPIENT?.trim();
  if (given) return given;
  const file = identityFile();
  if (fs.existsSync(file)) return recipientOf(fs.readFileSync(file, 'utf8'));
  const made = await newBackupIdentity();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `# public key: ${made.recipient}\n${made.identity}\n`, { mode: 0o600 });
  log(
    `made the archives' key pair: the private key is ${displayPath(file)}; keep a copy of it away from this machine (a password manager): without it no archive can be restored`,
  );
  return made.recipient;
}

/** The private key for a restore: BACKUP_AGE_IDENTITY, or the file of identityFile(). */
function identity(): string {
  const given = process.env.BACKUP_AGE_IDENTITY?.trim();
  if (given) return given;
  const file = identityFile();
  if (!fs.existsSync(file))
    throw new BackupKeyError(
      `no private key for the archives: put it into ${displayPath(file)} or set BACKUP_AGE_IDENTITY`,
    );
  const key = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('AGE-SECRET-KEY-'));
  if (!key) throw new BackupKeyError(`${displayPath(file)} holds no age private key`);
  return key;
}

async function backup(): Promise<void> {
  if (!hasData(RUN_DATA_DIR) && !process.env.MONGO_URL)
    throw new Error(`${displayPath(RUN_DATA_DIR)} holds no data yet: nothing to back up`);
  // the platform's requests come first when both want the CPU
  os.setPriority(19);
  const started = Date.now();
  const storage = await openRunStorage(RUN_DATA_DIR, log);
  log(storage.running ? 'make run is running: reading its data as it is' : 'make run is stopped');
  try {
    const { location, manifest } = await runBackup({
      mongoUrl: storage.mongoUrl,
      databases: DEFAULT_DATABASES,
      s3Url: storage.s3Url,
      buckets: [process.env.S3_BUCKET?.trim() || 'furniture-media'],
      // the token signing keys stay out of every archive
      keys: {},
      recipient: await recipient(),
      dir: BACKUP_DIR,
      retentionDays: backupRetentionDays(process.env),
      log,
    });
    const size = fs.statSync(location).size;
    log(
      `${manifest.files.length} files, ${(size / 1e6).toFixed(1)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    process.stdout.write(`${displayPath(location)}\n`);
  } finally {
    await storage.stop();
  }
}

async function restore(from: string): Promise<void> {
  if (!from) throw new Error('name the archive: make restore FROM=<archive> [FORCE=1]');
  assertStopped(RUN_DATA_DIR);
  const started = Date.now();
  const storage = await openRunStorage(RUN_DATA_DIR, log);
  try {
    await runRestore({
      from: path.resolve(from),
      dir: BACKUP_DIR,
      mongoUrl: storage.mongoUrl,
      s3Url: storage.s3Url,
      keysDir: path.join(RUN_DATA_DIR, 'keys'),
      force: process.env.FORCE === '1',
      ledger: process.env.ERASURE_LEDGER || ERASURE_LEDGER_FILE,
      identity: identity(),
      log,
    });
  } finally {
    await storage.stop();
  }
  log(
    `restored into ${displayPath(RUN_DATA_DIR)} in ${((Date.now() - started) / 1000).toFixed(1)} s: the next make run serves it`,
  );
}

const [command, from] = process.argv.slice(2);
(command === 'restore' ? restore(from ?? '') : backup()).catch((err: unknown) => {
  process.stderr.write(
    `make ${command === 'restore' ? 'restore' : 'backup'} failed: ${errorMessage(err)}\n`,
  );
  process.exit(1);
});
