// `make backup`: one archive of make run's data (every service's database, the photos, the
// signing keys, a manifest) in .data/backups (BACKUP_DIR), its path printed as the last line;
// make run may be running meanwhile. `make restore FROM=<archive> [FORCE=1]`: puts an archive
// back with make run stopped, so that the next make run serves it. docs/operations.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  backupRetentionDays,
  DEFAULT_DATABASES,
  runBackup,
  runRestore,
} from '@furniture/platform/backup';
import { assertStopped, hasData, openRunStorage } from '../backup';
import { BACKUP_DIR, displayPath, ERASURE_LEDGER_FILE, RUN_DATA_DIR } from '../paths';
import { keyFiles } from '../run/keys';
import { errorMessage } from '../util';

const log = (line: string) => process.stdout.write(`backup  ${line}\n`);

async function backup(): Promise<void> {
  if (!hasData(RUN_DATA_DIR) && !process.env.MONGO_URL)
    throw new Error(`${displayPath(RUN_DATA_DIR)} holds no data yet: nothing to back up`);
  // the platform's requests come first when both want the CPU
  os.setPriority(19);
  const started = Date.now();
  const storage = await openRunStorage(RUN_DATA_DIR, log);
  log(storage.running ? 'make run is running: reading its data as it is' : 'make run is stopped');
  try {
    const keysDir = path.join(RUN_DATA_DIR, 'keys');
    const { privateKeyFile, publicKeyFile } = keyFiles(keysDir);
    const keys = Object.fromEntries(
      Object.entries({ 'jwt-private.pem': privateKeyFile, 'jwt-public.pem': publicKeyFile }).filter(
        ([, file]) => fs.existsSync(file),
      ),
    );
    const { location, manifest } = await runBackup({
      mongoUrl: storage.mongoUrl,
      databases: DEFAULT_DATABASES,
      s3Url: storage.s3Url,
      buckets: [process.env.S3_BUCKET?.trim() || 'furniture-media'],
      keys,
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
