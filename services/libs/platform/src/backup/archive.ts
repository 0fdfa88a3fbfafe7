// One backup archive (docs/operations.md, "Backup and restore"): a tar.gz holding every
// document of the services' databases read through the MongoDB protocol (EJSON lines, one file
// per collection: dates, ObjectIds and binaries keep their types, on FerretDB as on MongoDB), the
// objects of the S3 buckets, the token signing keys, and last a manifest with the version, the
// counts and a SHA-256 of every file. A restore reads the archive twice: first it checks every
// file against the manifest and writes nothing when one differs; then it writes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Client } from 'minio';
import { BSON, MongoClient, type Document } from 'mongodb';
import tar from 'tar-stream';
import { AGE_MAGIC, BackupKeyError, decryptStream, encryptStream } from './encryption';
import { isMissing, listObjects } from './s3';

export const BACKUP_FORMAT = 'moebelbruecke-backup/1';
const MANIFEST = 'manifest.json';
const NAME = /^moebelbruecke-backup-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z)\.tar\.gz(\.age)?$/;
const INSERT_BATCH = 500;
/** documents as stored: an int stays an int, a double a double, a long a long (no JS numbers) */
const READ_AS_STORED = { batchSize: 1000, promoteValues: false, promoteLongs: false } as const;

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
  /** S3 objects: the Content-Type they are served with */
  content_type?: string;
}

export interface Manifest {
  format: string;
  /** the platform's version (root package.json) */
  version: string;
  /** when reading began: everything changed after it may or may not be in the archive */
  started_at: string;
  created_at: string;
  /** database → collection → documents */
  databases: Record<string, Record<string, number>>;
  /** bucket → objects */
  buckets: Record<string, number>;
  /** the key files, by name */
  keys: string[];
  files: ManifestFile[];
}

export interface BackupSources {
  mongoUrl: string;
  /** the services' databases */
  databases: string[];
  s3?: { client: Client; buckets: string[] };
  /** key files to keep: name in the archive → file */
  keys?: Record<string, string>;
}

export type Log = (line: string) => void;

/** The archive's file name for a moment (sorts by time; retention reads it back). */
export function backupFileName(at: Date, encrypted = true): string {
  return `moebelbruecke-backup-${at.toISOString().replace(/:/g, '-')}.tar.gz${encrypted ? '.age' : ''}`;
}

/** Whether a file is age-encrypted (its first bytes), as every archive since issue 43 is. */
export function isEncryptedArchive(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(AGE_MAGIC.length);
    fs.readSync(fd, head, 0, head.length, 0);
    return head.toString('latin1') === AGE_MAGIC;
  } finally {
    fs.closeSync(fd);
  }
}

/** When an archive named by backupFileName was taken; undefined for any other name. */
export function backupTime(fileName: string): Date | undefined {
  const m = NAME.exec(path.basename(fileName));
  if (!m) return undefined;
  const [day, time] = m[1]!.split('T');
  return new Date(`${day}T${time!.replace(/^(\d\d)-(\d\d)-/, '$1:$2:')}`);
}

class Sha256Sink {
  readonly hash = createHash('sha256');
  size = 0;
  lines = 0;
  add(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.lines++;
  }
}

/** Streams `source` into a new tar entry of exactly `size` bytes; answers its checksum. */
async function addEntry(
  pack: tar.Pack,
  name: string,
  size: number,
  source: AsyncIterable<Buffer | string>,
): Promise<{ size: number; sha256: string }> {
  const sink = new Sha256Sink();
  let entry!: ReturnType<tar.Pack['entry']>;
  const entryDone = new Promise<void>((ok, fail) => {
    entry = pack.entry({ name, size, mode: 0o600 }, (err) => (err ? fail(err) : ok()));
  });
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    sink.add(chunk);
    if (!entry.write(chunk)) await new Promise<void>((r) => entry.once('drain', () => r()));
  }
  entry.end(undefined); // streamx types ask for a last chunk; there is none
  await entryDone;
  if (sink.size !== size) throw new Error(`${name}: ${sink.size} bytes read, ${size} expected`);
  return { size, sha256: sink.hash.digest('hex') };
}

/** The collections of a database worth keeping (not MongoDB's own system.* ones). */
async function collectionsOf(client: MongoClient, db: string): Promise<string[]> {
  const infos = await client.db(db).listCollections({}, { nameOnly: true }).toArray();
  return infos
    .filter((c) => (c.type ?? 'collection') === 'collection' && !c.name.startsWith('system.'))
    .map((c) => c.name)
    .sort();
}

/** A client that gives up after 10 s without a server (unless the URL says otherwise). */
function connect(url: string): MongoClient {
  return new MongoClient(
    url,
    /serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: 10_000 },
  );
}

/**
 * Writes one archive into `dir` and answers its path and manifest. The archive is written under
 * a temporary name and renamed when complete: a backup that fails (a database or S3 that does not
 * answer) leaves no file that looks like an archive.
 */
export async function writeBackup(
  sources: BackupSources,
  opts: {
    dir: string;
    version: string;
    /** the age public key the archive is encrypted to (none: a plain .tar.gz, tests of the format) */
    recipient?: string;
    log?: Log;
    now?: () => Date;
  },
): Promise<{ file: string; manifest: Manifest }> {
  const log = opts.log ?? (() => undefined);
  const started = (opts.now ?? (() => new Date()))();
  fs.mkdirSync(opts.dir, { recursive: true });
  const file = path.join(opts.dir, backupFileName(started, opts.recipient !== undefined));
  const partial = `${file}.partial`;
  const work = fs.mkdtempSync(path.join(opts.dir, '.backup-'));
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: opts.version,
    started_at: started.toISOString(),
    created_at: '',
    databases: {},
    buckets: {},
    keys: [],
    files: [],
  };
  const pack = tar.pack();
  const gzip = zlib.createGzip();
  // encrypted as it is written: the archive never lies on a disk in clear
  const body = opts.recipient ? await encryptStream(gzip, opts.recipient) : gzip;
  const written = Promise.all([
    pipeline(pack, gzip),
    pipeline(body, fs.createWriteStream(partial)),
  ]);
  const mongo = connect(sources.mongoUrl);
  try {
    // the databases before the objects: a photo record read first finds its object later
    await mongo.connect().catch((err: unknown) => {
      throw new Error(`the database does not answer: ${(err as Error).message}`);
    });
    for (const db of sources.databases) {
      manifest.databases[db] = {};
      for (const coll of await collectionsOf(mongo, db)) {
        const name = `databases/${db}/${coll}.jsonl`;
        const tmp = path.join(work, 'collection.jsonl');
        const out = fs.createWriteStream(tmp);
        let count = 0;
        const lines = async function* () {
          for await (const doc of mongo.db(db).collection(coll).find({}, READ_AS_STORED)) {
            count++;
            yield `${BSON.EJSON.stringify(doc, { relaxed: false })}\n`;
          }
        };
        await pipeline(Readable.from(lines()), out).catch((err: unknown) => {
          throw new Error(`reading ${db}.${coll}: ${(err as Error).message}`);
        });
        const { size } = fs.statSync(tmp);
        const sum = await addEntry(pack, name, size, fs.createReadStream(tmp));
        manifest.databases[db][coll] = count;
        manifest.files.push({ path: name, ...sum });
        fs.rmSync(tmp);
      }
      const docs = Object.values(manifest.databases[db]).reduce((a, b) => a + b, 0);
      log(`${db}: ${Object.keys(manifest.databases[db]).length} collections, ${docs} documents`);
    }
    for (const bucket of sources.s3?.buckets ?? []) {
      const client = sources.s3!.client;
      const objects = await listObjects(client, bucket).catch((err: unknown) => {
        if (isMissing(err)) return []; // no photo uploaded yet: the bucket is made on first use
        throw new Error(`S3 bucket ${bucket} could not be listed: ${(err as Error).message}`);
      });
      let kept = 0;
      for (const object of objects) {
        // an object deleted since the listing (its lot was deleted) is left out
        const unlessDeleted = (err: unknown) => {
          if (isMissing(err)) return undefined;
          throw new Error(`S3 object ${bucket}/${object.name}: ${(err as Error).message}`);
        };
        const stat = await client.statObject(bucket, object.name).catch(unlessDeleted);
        const body = stat && (await client.getObject(bucket, object.name).catch(unlessDeleted));
        if (!stat || !body) continue;
        const name = `objects/${bucket}/${object.name}`;
        // once its entry is begun, the archive needs all of it: any failure ends the backup
        const sum = await addEntry(pack, name, stat.size, body).catch((err: unknown) => {
          throw new Error(`S3 object ${bucket}/${object.name}: ${(err as Error).message}`);
        });
        const contentType = stat.metaData?.['content-type'] as string | undefined;
        manifest.files.push({
          path: name,
          ...sum,
          ...(contentType ? { content_type: contentType } : {}),
        });
        kept++;
      }
      manifest.buckets[bucket] = kept;
      log(`S3 bucket ${bucket}: ${kept} objects`);
    }
    for (const [key, from] of Object.entries(sources.keys ?? {})) {
      const name = `keys/${key}`;
      const sum = await addEntry(pack, name, fs.statSync(from).size, fs.createReadStream(from));
      manifest.keys.push(key);
      manifest.files.push({ path: name, ...sum });
    }
    manifest.created_at = new Date().toISOString();
    const json = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await addEntry(pack, MANIFEST, json.length, Readable.from([json]));
    pack.finalize();
    await written;
    const fd = fs.openSync(partial, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(partial, file);
    return { file, manifest };
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await mongo.close().catch(() => undefined);
  }
}

/** Every entry of an archive in order, each body to be consumed before the next. */
export async function* backupEntries(
  file: string,
  identity?: string,
): AsyncGenerator<{ name: string; size: number; body: AsyncIterable<Buffer> }> {
  const extract = tar.extract();
  const source = fs.createReadStream(file);
  let plain: Readable = source;
  if (isEncryptedArchive(file)) {
    if (!identity)
      throw new BackupKeyError(
        'the archive is encrypted: give the private key it was encrypted to (BACKUP_AGE_IDENTITY or BACKUP_AGE_IDENTITY_FILE)',
      );
    plain = await decryptStream(source, identity);
  }
  const gunzip = zlib.createGunzip();
  source.on('error', (err) => extract.destroy(err));
  plain.on('error', (err) => extract.destroy(err));
  gunzip.on('error', (err) => extract.destroy(err));
  plain.pipe(gunzip).pipe(extract);
  try {
    for await (const entry of extract) {
      yield {
        name: entry.header.name,
        size: entry.header.size ?? 0,
        body: entry as AsyncIterable<Buffer>,
      };
      entry.resume(); // whatever the consumer left
    }
  } finally {
    source.destroy();
  }
}

export class DamagedArchiveError extends Error {
  constructor(file: string, why: string) {
    super(`${path.basename(file)} is damaged or not a backup archive: ${why}`);
    this.name = 'DamagedArchiveError';
  }
}

/**
 * Reads the whole archive and checks it against its manifest: every file listed with its size
 * and checksum, nothing else, as many documents in each collection as counted. Answers the
 * manifest; throws DamagedArchiveError otherwise. Writes nothing.
 */
export async function verifyBackup(file: string, identity?: string): Promise<Manifest> {
  const seen = new Map<string, { size: number; sha256: string; lines: number }>();
  let manifestText = '';
  try {
    for await (const entry of backupEntries(file, identity)) {
      const sink = new Sha256Sink();
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) {
        sink.add(chunk);
        if (entry.name === MANIFEST) chunks.push(chunk);
      }
      if (entry.name === MANIFEST) manifestText = Buffer.concat(chunks).toString('utf8');
      else
        seen.set(entry.name, {
          size: sink.size,
          sha256: sink.hash.digest('hex'),
          lines: sink.lines,
        });
    }
  } catch (err) {
    if (err instanceof BackupKeyError) throw err;
    throw new DamagedArchiveError(file, (err as Error).message);
  }
  if (!manifestText) throw new DamagedArchiveError(file, 'it has no manifest');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch {
    throw new DamagedArchiveError(file, 'its manifest is not JSON');
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw new DamagedArchiveError(file, `unknown format ${String(manifest.format)}`);
  const problems: string[] = [];
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const f of manifest.files) {
    const got = seen.get(f.path);
    if (!got) problems.push(`${f.path} is missing`);
    else if (got.size !== f.size || got.sha256 !== f.sha256)
      problems.push(`${f.path} does not match its checksum`);
  }
  for (const name of seen.keys())
    if (!listed.has(name)) problems.push(`${name} is not in the manifest`);
  for (const [db, colls] of Object.entries(manifest.databases)) {
    for (const [coll, count] of Object.entries(colls)) {
      const got = seen.get(`databases/${db}/${coll}.jsonl`);
      if (got && got.lines !== count)
        problems.push(`${db}.${coll} holds ${got.lines} documents, the manifest counts ${count}`);
    }
  }
  if (problems.length > 0)
    throw new DamagedArchiveError(
      file,
      `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    );
  return manifest;
}

export interface RestoreTargets {
  mongoUrl: string;
  s3?: Client;
  /** where the key files go; left out: the keys stay in the archive (the Secrets of k8s) */
  keysDir?: string;
}

/** What of the archive's databases, buckets and keys already holds something. */
export async function existingData(manifest: Manifest, targets: RestoreTargets): Promise<string[]> {
  const found: string[] = [];
  const mongo = connect(targets.mongoUrl);
  try {
    await mongo.connect();
    for (const db of Object.keys(manifest.databases)) {
      let filled = 0;
      for (const coll of await collectionsOf(mongo, db)) {
        const one = await mongo
          .db(db)
          .collection(coll)
          .findOne({}, { projection: { _id: 1 } });
        if (one) filled++;
      }
      if (filled > 0) found.push(`database ${db} (${filled} collections with documents)`);
    }
  } finally {
    await mongo.close().catch(() => undefined);
  }
  for (const bucket of Object.keys(manifest.buckets)) {
    if (!targets.s3 || !(await targets.s3.bucketExists(bucket))) continue;
    if ((await listObjects(targets.s3, bucket)).length > 0) found.push(`S3 bucket ${bucket}`);
  }
  if (targets.keysDir) {
    for (const key of manifest.keys)
      if (fs.existsSync(path.join(targets.keysDir, key))) found.push(`key ${key}`);
  }
  return found;
}

/** Drops the archive's databases and empties its buckets (a restore with FORCE=1). */
async function clear(manifest: Manifest, targets: RestoreTargets): Promise<void> {
  const mongo = connect(targets.mongoUrl);
  try {
    await mongo.connect();
    for (const db of Object.keys(manifest.databases)) await mongo.db(db).dropDatabase();
  } finally {
    await mongo.close().catch(() => undefined);
  }
  for (const bucket of Object.keys(manifest.buckets)) {
    if (!targets.s3 || !(await targets.s3.bucketExists(bucket))) continue;
    const names = (await listObjects(targets.s3, bucket)).map((o) => o.name);
    for (let i = 0; i < names.length; i += 1000)
      await targets.s3.removeObjects(bucket, names.slice(i, i + 1000));
  }
}

/** Lines of an entry's body, one at a time. */
async function* linesOf(body: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of body) {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    yield* parts;
  }
  if (rest) yield rest;
}

/**
 * Puts an archive back: checks it first (verifyBackup), refuses when any of its databases,
 * buckets or key files holds data unless `force` (then they are cleared), and writes every
 * document, object and key. Answers the manifest.
 */
export async function restoreBackup(
  file: string,
  targets: RestoreTargets,
  opts: { force?: boolean; log?: Log; identity?: string } = {},
): Promise<Manifest> {
  const log = opts.log ?? (() => undefined);
  const manifest = await verifyBackup(file, opts.identity);
  log(
    `${path.basename(file)}: checked (${manifest.files.length} files, taken ${manifest.created_at}, version ${manifest.version})`,
  );
  if (Object.keys(manifest.buckets).length > 0 && !targets.s3)
    throw new Error('the archive holds S3 objects, but no S3 server is configured');
  const existing = await existingData(manifest, targets);
  if (existing.length > 0) {
    if (!opts.force)
      throw new Error(
        `refusing to overwrite data that exists: ${existing.join(', ')} (FORCE=1 replaces it)`,
      );
    log(`replacing what exists: ${existing.join(', ')}`);
    await clear(manifest, targets);
  }
  const types = new Map(manifest.files.map((f) => [f.path, f.content_type]));
  const mongo = connect(targets.mongoUrl);
  try {
    await mongo.connect();
    for await (const entry of backupEntries(file, opts.identity)) {
      const [kind, owner, ...rest] = entry.name.split('/');
      const name = rest.join('/');
      if (kind === 'databases' && owner && name.endsWith('.jsonl')) {
        const coll = mongo.db(owner).collection(name.slice(0, -'.jsonl'.length));
        await mongo
          .db(owner)
          .createCollection(coll.collectionName)
          .catch(() => undefined);
        let batch: Document[] = [];
        for await (const line of linesOf(entry.body)) {
          batch.push(BSON.EJSON.parse(line, { relaxed: false }) as Document);
          if (batch.length >= INSERT_BATCH) {
            await coll.insertMany(batch, { ordered: true });
            batch = [];
          }
        }
        if (batch.length > 0) await coll.insertMany(batch, { ordered: true });
      } else if (kind === 'objects' && owner && targets.s3) {
        if (!(await targets.s3.bucketExists(owner))) await targets.s3.makeBucket(owner);
        const type = types.get(entry.name);
        await targets.s3.putObject(owner, name, Readable.from(entry.body), entry.size, {
          ...(type ? { 'Content-Type': type } : {}),
        });
      } else if (kind === 'keys' && owner && targets.keysDir) {
        fs.mkdirSync(targets.keysDir, { recursive: true, mode: 0o700 });
        const to = path.join(targets.keysDir, path.basename(owner));
        await pipeline(Readable.from(entry.body), fs.createWriteStream(to, { mode: 0o600 }));
        // the public key is read by every service; the private one only by its owner
        if (!/private/.test(owner)) fs.chmodSync(to, 0o644);
      }
    }
  } finally {
    await mongo.close().catch(() => undefined);
  }
  for (const [db, colls] of Object.entries(manifest.databases)) {
    const docs = Object.values(colls).reduce((a, b) => a + b, 0);
    log(`${db}: ${Object.keys(colls).length} collections, ${docs} documents restored`);
  }
  for (const [bucket, n] of Object.entries(manifest.buckets))
    log(`S3 bucket ${bucket}: ${n} objects restored`);
  if (manifest.keys.length > 0)
    log(
      targets.keysDir
        ? `keys restored: ${manifest.keys.join(', ')}`
        : `keys not written (no keys folder): ${manifest.keys.join(', ')}`,
    );
  return manifest;
}

/** Archives in `dir` taken before `before` (backupTime of their names). */
export function backupsOlderThan(dir: string, before: Date): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => {
      const at = backupTime(name);
      return at !== undefined && at < before;
    })
    .map((name) => path.join(dir, name));
}
