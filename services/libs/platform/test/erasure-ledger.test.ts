/**
 * The erasure ledger (docs/privacy.md, "Backups") in both of its places: a file beside the
 * backups (make run, compose) and objects in a bucket (k8s), on the real test MinIO. Entries come
 * back in order of time; a line cut short by a crash while appending is no entry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ledgerWatermark,
  listObjects,
  openErasureLedger,
  s3Client,
  type ErasureEntry,
} from '../src/backup';
import { testUrls, uniqueName } from '../src/testing';

const entry = (at: string, id: number): ErasureEntry => ({
  at,
  reason: 'request',
  actor: { id: 1, name: 'Anna', email: 'anna@example.org', role: 'admin' },
  applications: [{ id, created_at: '2026-01-02T03:04:05.000Z' }],
  wishes: [],
});

test('when erasures are appended to a file ledger, then they are read back in order and a line cut short is left out', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-'));
  try {
    const file = path.join(dir, 'backups', 'erasures.jsonl');
    const ledger = openErasureLedger(file)!;
    expect(await ledger.entries()).toEqual([]);
    await ledger.append(entry('2026-03-01T10:00:00.000Z', 7));
    await ledger.append(entry('2026-03-02T10:00:00.000Z', 8));
    fs.appendFileSync(file, '{"at":"2026-03-03T10:00:00.000Z","reas');
    expect((await ledger.entries()).map((e) => e.applications[0]!.id)).toEqual([7, 8]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('when erasures are appended to an S3 ledger, then each is an object under the prefix and they are read back in order', async () => {
  const { s3Url } = testUrls();
  const s3 = s3Client(s3Url).client;
  const bucket = uniqueName('ledger').replace(/_/g, '-');
  await s3.makeBucket(bucket);
  try {
    const ledger = openErasureLedger(`s3://${bucket}/erasures`, s3Url)!;
    expect(ledger.where).toBe(`s3://${bucket}/erasures/`);
    await ledger.append(entry('2026-03-02T10:00:00.000Z', 8));
    await ledger.append(entry('2026-03-01T10:00:00.000Z', 7));
    expect((await ledger.entries()).map((e) => e.applications[0]!.id)).toEqual([7, 8]);
    const objects = await listObjects(s3, bucket);
    expect(objects.map((o) => o.name).every((n) => n.startsWith('erasures/'))).toBe(true);
    await s3.removeObjects(
      bucket,
      objects.map((o) => o.name),
    );
  } finally {
    await s3.removeBucket(bucket);
  }
});

test('when the setting is empty, relative or names no bucket, then there is no ledger or a clear error', () => {
  expect(openErasureLedger(undefined)).toBeUndefined();
  expect(openErasureLedger(' ')).toBeUndefined();
  expect(() => openErasureLedger('backups/erasures.jsonl')).toThrow(/absolute file path/);
  expect(() => openErasureLedger('s3:///x', 'http://a:b@127.0.0.1:9000')).toThrow(/no bucket/);
  expect(() => openErasureLedger('s3://bucket/x')).toThrow(/S3_URL/);
});

test('when a ledger is compacted at a watermark, then the entries before it are gone, those after it stay, and a read from the watermark on lists nothing older (file and S3)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-'));
  const { s3Url } = testUrls();
  const s3 = s3Client(s3Url).client;
  const bucket = uniqueName('ledger').replace(/_/g, '-');
  await s3.makeBucket(bucket);
  try {
    const ledgers = [
      openErasureLedger(path.join(dir, 'erasures.jsonl'))!,
      openErasureLedger(`s3://${bucket}/erasures/`, s3Url)!,
    ];
    for (const ledger of ledgers) {
      for (const [at, id] of [
        ['2026-01-10T10:00:00.000Z', 1],
        ['2026-02-10T10:00:00.000Z', 2],
        ['2026-06-10T10:00:00.000Z', 3],
      ] as const)
        await ledger.append(entry(at, id));
      const watermark = ledgerWatermark(new Date('2026-08-01T00:00:00Z'), 180);
      expect(watermark).toBe('2026-02-01T00:00:00.000Z');
      const ids = async (since?: string) =>
        (await ledger.entries(since)).map((e) => e.applications[0]!.id);
      expect(await ids(watermark)).toEqual([2, 3]);
      expect(await ledger.compact(watermark)).toBe(1);
      expect(await ids()).toEqual([2, 3]);
      expect(await ledger.compact(watermark)).toBe(0);
    }
    expect((await listObjects(s3, bucket, 'erasures/')).length).toBe(2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    const names = (await listObjects(s3, bucket)).map((o) => o.name);
    if (names.length > 0) await s3.removeObjects(bucket, names);
    await s3.removeBucket(bucket);
  }
});
