// The erasure ledger (docs/privacy.md, "Backups"): every erasure of a family's or donor's data on
// request, and the catalog's retention erasures of donations, as ids only, appended before the
// records are erased, in a place a restore never overwrites (beside the backups: a file, or
// objects in the backup bucket). The applications service (applications, wishes) and the catalog
// (donations) read it when they start and erase again what a restored archive brought back.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '@furniture/contracts';
import { readSecret } from '../config';
import { listObjects, s3Client } from './s3';

export { ledgerWatermark } from './watermark';

/** One erased record: its id and when it was created (an id a restore hands out again differs). */
export interface ErasedRecord {
  id: number;
  created_at: string;
}

export interface ErasureEntry {
  at: string;
  reason: 'request' | 'retention';
  actor: Actor | null;
  applications: ErasedRecord[];
  wishes: ErasedRecord[];
  /** the donors' donations (the catalog's); absent in entries written before donations had it */
  donations?: ErasedRecord[];
}

export interface ErasureLedger {
  /** where it is, for messages */
  readonly where: string;
  /** durably appended when it resolves */
  append(entry: ErasureEntry): Promise<void>;
  /**
   * the entries, oldest first; with `since` (an ISO time, the watermark) only those at or after
   * it: an S3 ledger then lists from there on and reads nothing older
   */
  entries(since?: string): Promise<ErasureEntry[]>;
  /**
   * Drops the entries before the watermark (no archive that may still be restored is older):
   * the file is rewritten; on S3 the objects are deleted where the credential may (under object
   * lock the bucket's lifecycle rule does it). Answers how many were dropped.
   */
  compact(before: string): Promise<number>;
}

/** A JSON-lines file, appended to and flushed to disk before the erasure goes on. */
class FileLedger implements ErasureLedger {
  constructor(readonly where: string) {}

  async append(entry: ErasureEntry): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.where), { recursive: true });
    const handle = await fs.promises.open(this.where, 'a', 0o600);
    try {
      await handle.write(`${JSON.stringify(entry)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async entries(since = ''): Promise<ErasureEntry[]> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.where, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    // a line cut short by a crash while appending is no entry
    return text.split('\n').flatMap((line) => {
      try {
        const entry = line ? (JSON.parse(line) as ErasureEntry) : undefined;
        return entry && entry.at >= since ? [entry] : [];
      } catch {
        return [];
      }
    });
  }

  async compact(before: string): Promise<number> {
    const all = await this.entries();
    const kept = all.filter((e) => e.at >= before);
    if (kept.length === all.length) return 0;
    // written whole beside it and renamed over it: a crash leaves the old or the new file
    const tmp = `${this.where}.compacting-${process.pid}`;
    const handle = await fs.promises.open(tmp, 'w', 0o600);
    try {
      await handle.write(kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, this.where);
    return all.length - kept.length;
  }
}

/** One object per entry under a prefix of a bucket (S3 has no append; replicas write apart). */
class S3Ledger implements ErasureLedger {
  readonly where: string;
  private readonly s3: ReturnType<typeof s3Client>;

  constructor(
    private readonly bucket: string,
    private readonly prefix: string,
    s3Url: string,
    region?: string,
  ) {
    this.s3 = s3Client(s3Url, region);
    this.where = `s3://${bucket}/${prefix}`;
  }

  async append(entry: ErasureEntry): Promise<void> {
    const body = Buffer.from(JSON.stringify(entry));
    const key = `${this.prefix}${entry.at.replace(/:/g, '-')}-${randomUUID()}.json`;
    await this.s3.client.putObject(this.bucket, key, body, body.length, {
      'Content-Type': 'application/json',
    });
  }

  /** An entry's object name starts with its time (append), so names sort by time. */
  private keyTime(time: string): string {
    return `${this.prefix}${time.replace(/:/g, '-')}`;
  }

  async entries(since = ''): Promise<ErasureEntry[]> {
    const objects = await listObjects(
      this.s3.client,
      this.bucket,
      this.prefix,
      since ? this.keyTime(since) : '',
    );
    const out: ErasureEntry[] = [];
    for (const o of objects) {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.s3.client.getObject(this.bucket, o.name))
        chunks.push(chunk as Buffer);
      out.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ErasureEntry);
    }
    return out.filter((e) => e.at >= since).sort((a, b) => a.at.localeCompare(b.at));
  }

  async compact(before: string): Promise<number> {
    const old = (await listObjects(this.s3.client, this.bucket, this.prefix))
      .map((o) => o.name)
      .filter((name) => name < this.keyTime(before));
    for (let i = 0; i < old.length; i += 1000)
      await this.s3.client.removeObjects(this.bucket, old.slice(i, i + 1000));
    return old.length;
  }
}

/**
 * The ledger an ERASURE_LEDGER setting names: an absolute file path, or s3://bucket/prefix/
 * (credentials from `s3Url`, the S3_URL form). Undefined when the setting is empty.
 */
export function openErasureLedger(
  setting: string | undefined,
  s3Url?: string,
  region?: string,
): ErasureLedger | undefined {
  const value = setting?.trim();
  if (!value) return undefined;
  if (value.startsWith('s3://')) {
    const [bucket, ...rest] = value.slice('s3://'.length).split('/');
    if (!bucket) throw new Error('ERASURE_LEDGER: s3://bucket/prefix/ names no bucket');
    if (!s3Url) throw new Error('ERASURE_LEDGER on S3 needs S3_URL (the credentials)');
    const prefix = rest.join('/');
    return new S3Ledger(
      bucket,
      prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
      s3Url,
      region,
    );
  }
  if (!path.isAbsolute(value))
    throw new Error('ERASURE_LEDGER must be an absolute file path or s3://bucket/prefix/');
  return new FileLedger(value);
}

/** The ledger a service's configuration names (ERASURE_LEDGER, and S3_URL for an s3:// one). */
export function erasureLedgerOf(config: {
  ERASURE_LEDGER?: string;
  S3_URL?: string;
  S3_URL_FILE?: string;
  S3_REGION?: string;
}): ErasureLedger | undefined {
  return openErasureLedger(
    config.ERASURE_LEDGER,
    config.S3_URL || config.S3_URL_FILE
      ? readSecret(config.S3_URL, config.S3_URL_FILE, 'S3_URL').trim()
      : undefined,
    config.S3_REGION,
  );
}
