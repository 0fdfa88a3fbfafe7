/**
 * The backup archive's failures (issue 31, docs/operations.md "Backup and restore"): a database
 * or S3 that does not answer ends the backup with a clear error and leaves no file that looks like
 * an archive; an archive's name tells its time, and the retention period of the archives is at
 * most the personal-data one. The whole round trip is the restore drill (tests/system).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  backupFileName,
  backupRetentionDays,
  backupsOlderThan,
  backupTime,
  s3Client,
  writeBackup,
} from '../src/backup';
import { testUrls, uniqueName } from '../src/testing';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('when the database does not answer, then the backup fails with a clear error and leaves nothing behind', async () => {
  const backup = writeBackup(
    { mongoUrl: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300', databases: ['x'] },
    { dir, version: 'test' },
  );
  await expect(backup).rejects.toThrow(/the database does not answer/);
  expect(fs.readdirSync(dir)).toEqual([]);
});

test('when S3 does not answer after the databases were read, then the backup fails with a clear error and leaves nothing behind', async () => {
  const { mongoUrl } = testUrls();
  const backup = writeBackup(
    {
      mongoUrl,
      databases: [uniqueName('backup')],
      s3: { client: s3Client('http://a:b@127.0.0.1:1').client, buckets: ['furniture-media'] },
    },
    { dir, version: 'test' },
  );
  await expect(backup).rejects.toThrow(/S3 bucket furniture-media could not be listed/);
  expect(fs.readdirSync(dir)).toEqual([]);
});

test('when archives are named by their time, then the time is read back and the older ones are found', () => {
  const at = new Date('2026-04-30T03:00:01.234Z');
  expect(backupFileName(at, false)).toBe('moebelbruecke-backup-2026-04-30T03-00-01.234Z.tar.gz');
  // encrypted (every archive since issue 43)
  expect(backupFileName(at)).toBe('moebelbruecke-backup-2026-04-30T03-00-01.234Z.tar.gz.age');
  expect(backupTime(`/x/${backupFileName(at)}`)).toEqual(at);
  expect(backupTime(`/x/${backupFileName(at, false)}`)).toEqual(at);
  expect(backupTime('erasures.jsonl')).toBeUndefined();
  for (const day of ['2026-01-01', '2026-04-01'])
    fs.writeFileSync(path.join(dir, backupFileName(new Date(`${day}T00:00:00Z`))), '');
  fs.writeFileSync(path.join(dir, 'erasures.jsonl'), '');
  expect(
    backupsOlderThan(dir, new Date('2026-02-01T00:00:00Z')).map((f) => path.basename(f)),
  ).toEqual(['moebelbruecke-backup-2026-01-01T00-00-00.000Z.tar.gz.age']);
});

test('when the retention of the archives is set, then it defaults to and may not exceed the personal-data retention period', () => {
  expect(backupRetentionDays({})).toBe(180);
  expect(backupRetentionDays({ PERSONAL_DATA_RETENTION_DAYS: '90' })).toBe(90);
  expect(backupRetentionDays({ BACKUP_RETENTION_DAYS: '30' })).toBe(30);
  expect(() => backupRetentionDays({ BACKUP_RETENTION_DAYS: '365' })).toThrow(
    /may not exceed PERSONAL_DATA_RETENTION_DAYS \(180\)/,
  );
  expect(() => backupRetentionDays({ BACKUP_RETENTION_DAYS: 'a week' })).toThrow(/number of days/);
});
