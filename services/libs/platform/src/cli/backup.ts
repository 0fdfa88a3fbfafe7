// The backup command of the images (compose profile `backup`, the k8s CronJob), configured by
// the environment like the services; `make backup` and `make restore` do the same for the local
// stack (infra/src/cli/backup.ts). docs/operations.md, "Backup and restore".
//   node services/libs/platform/dist/cli/backup.js backup
//   node services/libs/platform/dist/cli/backup.js restore <archive | s3://bucket/key>
//   node services/libs/platform/dist/cli/backup.js verify <archive>
/* eslint-disable no-console -- a command-line tool prints */
import { verifyBackup } from '../backup/archive';
import { BackupKeyError } from '../backup/encryption';
import { backupRetentionDays, DEFAULT_DATABASES, runBackup, runRestore } from '../backup/command';
import { readSecret } from '../config';

const usage = `usage: backup.js backup | restore <archive | s3://bucket/key> | verify <archive>

  env (backup):  MONGO_URL, BACKUP_DATABASES (${DEFAULT_DATABASES.join(',')}),
                 S3_URL or S3_URL_FILE, S3_BUCKET (furniture-media), S3_REGION,
                 BACKUP_AGE_RECIPIENT (the age public key every archive is encrypted to),
                 BACKUP_DIR (/backups), or BACKUP_S3_BUCKET and BACKUP_S3_PREFIX (backups/),
                 BACKUP_RETENTION_DAYS (at most PERSONAL_DATA_RETENTION_DAYS, 180)
  env (restore): MONGO_URL, S3_URL, BACKUP_AGE_IDENTITY or BACKUP_AGE_IDENTITY_FILE (the private
                 key: also for verify), KEYS_DIR, FORCE=1 (replace data), ERASURE_LEDGER`;

/** The private key of the archives, when given (restore, verify). */
function identity(env: NodeJS.ProcessEnv): string | undefined {
  return env.BACKUP_AGE_IDENTITY || env.BACKUP_AGE_IDENTITY_FILE
    ? readSecret(env.BACKUP_AGE_IDENTITY, env.BACKUP_AGE_IDENTITY_FILE, 'BACKUP_AGE_IDENTITY')
    : undefined;
}

function list(value: string | undefined, fallback: string[]): string[] {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : fallback;
}

function required(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  const [command, archive] = process.argv.slice(2);
  const env = process.env;
  const log = (line: string) => console.error(line);
  const s3Url =
    env.S3_URL || env.S3_URL_FILE
      ? readSecret(env.S3_URL, env.S3_URL_FILE, 'S3_URL').trim()
      : undefined;
  const dir = env.BACKUP_DIR?.trim() || '/backups';
  switch (command) {
    case 'backup': {
      const bucket = env.BACKUP_S3_BUCKET?.trim();
      const { location } = await runBackup({
        mongoUrl: required('MONGO_URL'),
        databases: list(env.BACKUP_DATABASES, DEFAULT_DATABASES),
        s3Url,
        s3Region: env.S3_REGION,
        buckets: s3Url ? list(env.BACKUP_BUCKETS ?? env.S3_BUCKET, ['furniture-media']) : [],
        // the token signing keys stay out of every archive
        keys: {},
        recipient: required('BACKUP_AGE_RECIPIENT'),
        dir,
        upload: bucket
          ? {
              s3Url: env.BACKUP_S3_URL?.trim() || s3Url || required('BACKUP_S3_URL'),
              bucket,
              prefix: env.BACKUP_S3_PREFIX ?? 'backups/',
            }
          : undefined,
        retentionDays: backupRetentionDays(env),
        log,
      });
      console.log(location);
      return;
    }
    case 'restore':
      if (!archive) throw new Error('restore: name the archive');
      await runRestore({
        from: archive,
        dir,
        mongoUrl: required('MONGO_URL'),
        s3Url,
        s3Region: env.S3_REGION,
        keysDir: env.KEYS_DIR?.trim() || undefined,
        force: env.FORCE === '1',
        ledger: env.ERASURE_LEDGER,
        identity: identity(env),
        log,
      });
      console.log(`restored ${archive}`);
      return;
    case 'verify': {
      if (!archive) throw new Error('verify: name the archive');
      const m = await verifyBackup(archive, identity(env));
      console.log(
        `${archive}: intact, ${m.files.length} files, taken ${m.created_at}, version ${m.version}`,
      );
      return;
    }
    default:
      console.error(usage);
      process.exit(2);
  }
}

main().catch((err: unknown) => {
  console.error(`${process.argv[2] ?? 'backup'} failed: ${(err as Error).message}`);
  // a wrong key is the operator's to fix, not a damaged archive
  process.exit(err instanceof BackupKeyError ? 3 : 1);
});
