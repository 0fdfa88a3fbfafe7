// What the backup command does around the archive, the same in the images (cli/backup.ts, read
// from the environment) and for `make backup` / `make restore` (infra, which finds the local
// stack): write the archive, upload it when its place is a bucket, delete archives older than the
// retention period, and on restore say what the erasure ledger will erase again.
import fs from 'node:fs';
import path from 'node:path';
import { Limits } from '@furniture/contracts';
import {
  backupsOlderThan,
  backupTime,
  restoreBackup,
  writeBackup,
  type Log,
  type Manifest,
} from './archive';
import { checkRecipient } from './encryption';
import { openErasureLedger } from './erasure-ledger';
import { listObjects, s3Client } from './s3';

const DAY_MS = 24 * 3600 * 1000;

/** The services' databases under their default names (each service's MONGO_DB). */
export const DEFAULT_DATABASES = [
  'furniture_auth',
  'furniture_catalog',
  'furniture_applications',
  'furniture_media',
  'furniture_notification',
];

/** The platform's version: the repository's (the image's) package.json. */
export function platformVersion(): string {
  try {
    const file = path.resolve(__dirname, '../../../../../package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export interface BackupSettings {
  mongoUrl: string;
  databases: string[];
  /** S3 server of the buckets to keep (S3_URL form); none: no objects are kept */
  s3Url?: string;
  s3Region?: string;
  buckets: string[];
  /**
   * name in the archive → key file. The token signing keys are left out (issue 43): a restore
   * where they are lost makes new ones, and every session ends
   */
  keys: Record<string, string>;
  /** the age public key every archive is encrypted to (BACKUP_AGE_RECIPIENT) */
  recipient: string;
  /** where the archive is written (and kept, unless uploaded) */
  dir: string;
  /** a bucket to keep the archives in instead of `dir` (the k8s CronJob) */
  upload?: { s3Url: string; bucket: string; prefix: string };
  /** archives older than this are deleted; at most the personal-data retention period */
  retentionDays: number;
  log: Log;
}

/**
 * BACKUP_RETENTION_DAYS, at most PERSONAL_DATA_RETENTION_DAYS: an archive older than that holds
 * data the retention job has erased since (docs/privacy.md, "Backups").
 */
export function backupRetentionDays(env: NodeJS.ProcessEnv): number {
  const personal = Number(env.PERSONAL_DATA_RETENTION_DAYS ?? Limits.personalDataRetentionDays);
  const raw = env.BACKUP_RETENTION_DAYS?.trim();
  const days = raw ? Number(raw) : personal;
  if (!Number.isInteger(days) || days < 1)
    throw new Error(`BACKUP_RETENTION_DAYS must be a number of days, got "${raw}"`);
  if (days > personal)
    throw new Error(
      `BACKUP_RETENTION_DAYS (${days}) may not exceed PERSONAL_DATA_RETENTION_DAYS (${personal}): older archives would keep data the retention period has erased`,
    );
  return days;
}

/** Writes one archive, keeps it, deletes the expired ones; answers where it is. */
export async function runBackup(
  s: BackupSettings,
): Promise<{ location: string; manifest: Manifest }> {
  const source = s.s3Url ? s3Client(s.s3Url, s.s3Region) : undefined;
  const { file, manifest } = await writeBackup(
    {
      mongoUrl: s.mongoUrl,
      databases: s.databases,
      s3:
        source && s.buckets.length > 0 ? { client: source.client, buckets: s.buckets } : undefined,
      keys: s.keys,
    },
    { dir: s.dir, version: platformVersion(), recipient: checkRecipient(s.recipient), log: s.log },
  );
  const cutoff = new Date(Date.now() - s.retentionDays * DAY_MS);
  if (!s.upload) {
    for (const old of backupsOlderThan(s.dir, cutoff)) {
      fs.rmSync(old, { force: true });
      s.log(`deleted ${path.basename(old)} (older than ${s.retentionDays} days)`);
    }
    return { location: file, manifest };
  }
  const target = s3Client(s.upload.s3Url);
  const key = `${s.upload.prefix}${path.basename(file)}`;
  try {
    // an S3 object appears whole or not at all
    await target.client.fPutObject(s.upload.bucket, key, file, {
      'Content-Type': 'application/octet-stream',
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
  try {
    const expired = (await listObjects(target.client, s.upload.bucket, s.upload.prefix))
      .filter((o) => (backupTime(o.name) ?? new Date()) < cutoff)
      .map((o) => o.name);
    if (expired.length > 0) {
      await target.client.removeObjects(s.upload.bucket, expired);
      s.log(`deleted ${expired.length} archive(s) older than ${s.retentionDays} days`);
    }
  } catch (err) {
    // a put-only credential (docs/operations.md): the bucket's lifecycle rule keeps the retention
    s.log(
      `old archives not deleted here (${(err as Error).message}): the bucket's lifecycle rule must delete them after ${s.retentionDays} days`,
    );
  }
  return { location: `s3://${s.upload.bucket}/${key}`, manifest };
}

export interface RestoreSettings {
  /** a file, or s3://bucket/key (downloaded into `dir` first) */
  from: string;
  dir: string;
  mongoUrl: string;
  s3Url?: string;
  s3Region?: string;
  keysDir?: string;
  force: boolean;
  /** the ERASURE_LEDGER setting (with s3Url for an s3:// one) */
  ledger?: string;
  /** the age private key the archive was encrypted to (BACKUP_AGE_IDENTITY) */
  identity?: string;
  log: Log;
}

/** Restores an archive and says how many recorded erasures are newer than it. */
export async function runRestore(s: RestoreSettings): Promise<Manifest> {
  let file = s.from;
  let downloaded = false;
  if (s.from.startsWith('s3://')) {
    const [bucket, ...key] = s.from.slice('s3://'.length).split('/');
    if (!bucket || key.length === 0 || !s.s3Url)
      throw new Error(`${s.from}: an archive on S3 needs s3://bucket/key and S3_URL`);
    fs.mkdirSync(s.dir, { recursive: true });
    file = path.join(s.dir, `.restore-${path.basename(key.join('/'))}`);
    await s3Client(s.s3Url, s.s3Region).client.fGetObject(bucket, key.join('/'), file);
    downloaded = true;
  } else if (!fs.existsSync(s.from)) {
    throw new Error(`${s.from}: no such archive`);
  }
  try {
    const manifest = await restoreBackup(
      file,
      {
        mongoUrl: s.mongoUrl,
        s3: s.s3Url ? s3Client(s.s3Url, s.s3Region).client : undefined,
        keysDir: s.keysDir,
      },
      { force: s.force, log: s.log, identity: s.identity },
    );
    if (!manifest.keys.some((k) => k.includes('private')))
      s.log(
        'the archive holds no token signing key (kept out of backups): where the key is lost, a new one is made (make run: at its next start; k8s: create the Secrets anew, k8s/README.md) and every session ends: staff log in again',
      );
    const ledger = openErasureLedger(s.ledger, s.s3Url, s.s3Region);
    if (!ledger) {
      s.log(
        'no erasure ledger configured (ERASURE_LEDGER): erasures after the backup are not known',
      );
    } else {
      const newer = (await ledger.entries()).filter((e) => e.at >= manifest.started_at);
      s.log(
        `${newer.length} erasure(s) recorded in ${ledger.where} since the backup: the applications service and the catalog erase them again when they start, before they answer`,
      );
    }
    return manifest;
  } finally {
    if (downloaded) fs.rmSync(file, { force: true });
  }
}
