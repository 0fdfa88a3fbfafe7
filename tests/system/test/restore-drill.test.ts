/**
 * The restore drill (issue 31, docs/operations.md "Backup and restore"): a platform with data of
 * every kind (categories, a user, lots with a photo, applications in three states, a wish, a
 * donation with a photo, mails and log entries) is backed up while it runs, encrypted to an age
 * public key (issue 43: without the private key nothing of it can be read, a wrong key and a
 * changed byte are refused before anything is written, no signing key is in it); a family's data
 * (its application and the donation it made) is erased after the backup; the databases are
 * dropped and the bucket emptied; the archive is restored. Every document and every object is
 * compared with the archive (counts and checksums), the platform starts again on what was
 * restored, the family and the donation erased after the backup stay erased, and a new family
 * applies, is approved and gets its mails.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { BSON, MongoClient } from 'mongodb';
import sharp from 'sharp';
import {
  AGE_MAGIC,
  backupEntries,
  BackupKeyError,
  DamagedArchiveError,
  newBackupIdentity,
  existingData,
  listObjects,
  restoreBackup,
  s3Client,
  writeBackup,
  type Manifest,
} from '@furniture/platform/backup';
import { applicationBody } from '@furniture/applications/testing';
import { eventually, testKeys, testUrls, uniqueName } from '@furniture/platform/testing';
import { waitForMails } from '../src/mail';
import { startSystem, type System } from '../src/stack';

const SERVICES = ['catalog', 'applications', 'notification', 'auth', 'media'] as const;
const databases = Object.fromEntries(SERVICES.map((s) => [s, uniqueName(`drill_${s}`)])) as Record<
  (typeof SERVICES)[number],
  string
>;
const bucket = uniqueName('drill').replace(/_/g, '-');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-drill-'));
const ledger = path.join(work, 'erasures.jsonl');
const urls = testUrls();
const s3 = s3Client(urls.s3Url).client;
const mongo = new MongoClient(urls.mongoUrl);

let s: System | undefined;
beforeAll(async () => {
  await mongo.connect();
});
afterAll(async () => {
  await s?.stop();
  for (const db of Object.values(databases)) await mongo.db(db).dropDatabase();
  await mongo.close();
  await emptyBucket();
  await s3.removeBucket(bucket).catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
});

async function emptyBucket(): Promise<void> {
  if (!(await s3.bucketExists(bucket))) return;
  const names = (await listObjects(s3, bucket)).map((o) => o.name);
  if (names.length > 0) await s3.removeObjects(bucket, names);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Every document of the restored databases, as canonical EJSON lines per collection. */
async function documentsNow(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const db of Object.values(databases)) {
    for (const { name } of await mongo.db(db).listCollections().toArray()) {
      const docs = await mongo
        .db(db)
        .collection(name)
        .find({}, { promoteValues: false, promoteLongs: false })
        .toArray();
      out.set(
        `databases/${db}/${name}.jsonl`,
        docs.map((d) => BSON.EJSON.stringify(d, { relaxed: false })).sort(),
      );
    }
  }
  return out;
}

/** The archive's collections (sorted lines) and objects (checksums). */
async function archived(file: string, identity: string) {
  const docs = new Map<string, string[]>();
  const objects = new Map<string, string>();
  for await (const entry of backupEntries(file, identity)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    if (entry.name.startsWith('databases/'))
      docs.set(entry.name, body.toString('utf8').split('\n').filter(Boolean).sort());
    if (entry.name.startsWith('objects/')) objects.set(entry.name, sha256(body));
  }
  return { docs, objects };
}

async function photo(): Promise<Blob> {
  const jpeg = await sharp({
    create: { width: 400, height: 320, channels: 3, background: { r: 180, g: 120, b: 60 } },
  })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' });
}

test('when a platform with data of every kind is backed up while it runs, wiped and restored, then every document and object is back, an erasure made after the backup stays done, and the restored platform applies, approves and mails', async () => {
  s = await startSystem({ full: true, databases, bucket, erasureLedger: ledger });
  const staff = s.staff();
  const statusOf = async (sys: System, id: number) =>
    (await sys.http.get(`/api/v1/applications/${id}`, staff)).body.status as string;

  // --- data of every kind, through the API
  const volunteer = { email: 'mariia.drill@example.org', password: 'Linden-Allee-2026' };
  const user = await s.http.post(
    '/api/v1/users',
    { name: 'Mariia Drill', role: 'volunteer', ...volunteer },
    staff,
  );
  expect(user.status).toBe(201);
  const wardrobe = await s.createLot('Kleiderschrank weiß');
  const table = await s.createLot('Esstisch Eiche');
  const form = new FormData();
  form.append('file', await photo(), 'schrank.jpg');
  const uploaded = await fetch(`${s.url}/api/v1/lots/${wardrobe}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staff.token}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const apply = async (lot: number, overrides: Record<string, unknown>) => {
    const res = await s!.http.post('/api/v1/applications/', applicationBody(lot, overrides));
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const winner = await apply(wardrobe, { applicant_email: 'winner.drill@example.org' });
  const rival = await apply(wardrobe, { applicant_email: 'rival.drill@example.org' });
  const waiting = await apply(table, {});
  const erasedPhone = '0176 5550 4242';
  const erasedName = 'Oksana Drill-Erased';
  const erased = await apply(table, {
    applicant_phone: erasedPhone,
    applicant_name: erasedName,
    applicant_email: 'oksana.drill@example.org',
  });
  // the same family offered furniture: a declined donation with a photo
  const donation = await s.http.post('/api/v1/donations/', {
    donor_name: erasedName,
    donor_phone: erasedPhone,
    donor_email: 'oksana.drill@example.org',
    city: 'Berlin',
    address: 'Sonnenallee 12',
    available_until: '2099-06-30',
    items: [{ category_id: 4, description: 'Kommode mit drei Schubladen, weiß' }],
    consent: true,
  });
  expect(donation.status).toBe(201);
  const donationId = donation.body.id as number;
  const donationForm = new FormData();
  donationForm.append('file', await photo(), 'kommode.jpg');
  const donorUpload = await fetch(
    `${s.url}/api/v1/donations/${donationId}/items/${donation.body.items[0].id}/photos`,
    {
      method: 'POST',
      headers: { 'x-donation-token': donation.body.upload_token },
      body: donationForm,
    },
  );
  expect(donorUpload.status).toBe(201);
  expect(
    (
      await s.http.patch(
        `/api/v1/donations/${donationId}/status`,
        { status: 'declined', reason: 'Kein Lagerplatz' },
        staff,
      )
    ).status,
  ).toBe(200);
  const wish = await s.http.post('/api/v1/wishes/', {
    applicant_name: 'Iryna Drill',
    applicant_whatsapp: '+380 50 765 1111',
    furniture_category: 2,
    furniture_description: 'Kinderbett',
  });
  expect(wish.status).toBe(201);
  expect(
    (
      await s.http.patch(
        `/api/v1/applications/${winner}/status`,
        { status: 'approved', note: 'Abholung Freitag' },
        staff,
      )
    ).status,
  ).toBe(202);
  expect(
    (
      await s.http.patch(
        `/api/v1/applications/${erased}/status`,
        { status: 'rejected', note: 'Familie hat abgesagt' },
        staff,
      )
    ).status,
  ).toBe(200);
  await eventually(async () => (await statusOf(s!, winner)) === 'approved', { what: 'approved' });
  await eventually(async () => (await statusOf(s!, rival)) === 'rejected', { what: 'rejected' });
  await waitForMails('winner.drill@example.org', [/eingegangen/, /^Gute Nachricht/]);
  await waitForMails('oksana.drill@example.org', [/eingegangen/, /leider/]);
  const photos = await eventually(async () => {
    const lot = (await s!.http.get(`/api/v1/lots/${wardrobe}`, staff)).body;
    return lot.photos?.length === 1 ? (lot.photos as string[]) : undefined;
  });
  await eventually(
    async () =>
      (
        await s!.http.get(
          `/api/v1/activity-logs?target_type=application&target_id=${winner}&limit=50`,
          staff,
        )
      ).body.data.some((e: { action_type: string }) => e.action_type === 'APPROVE'),
    { what: 'the approval logged' },
  );
  await s.applications.kit.flushOutbox();

  // --- the backup, while the platform runs, encrypted to the operator's public key; the token
  // signing keys are not given to it (as the backup command gives none)
  const { identity, recipient } = await newBackupIdentity();
  const started = Date.now();
  const { file, manifest } = await writeBackup(
    {
      mongoUrl: urls.mongoUrl,
      databases: Object.values(databases),
      s3: { client: s3, buckets: [bucket] },
    },
    { dir: path.join(work, 'backups'), version: 'drill', recipient },
  );
  const backupMs = Date.now() - started;
  expect(manifest.databases[databases.applications]).toMatchObject({ applications: 4, wishes: 1 });
  expect(manifest.databases[databases.catalog]).toMatchObject({ lots: 2, categories: 8 });
  expect(manifest.databases[databases.auth]?.users).toBe(2);
  expect(manifest.databases[databases.notification]?.activity_logs).toBeGreaterThan(5);
  expect(manifest.databases[databases.notification]?.mails).toBeGreaterThanOrEqual(6);
  expect(manifest.buckets[bucket]).toBe((await listObjects(s3, bucket)).length);
  expect(manifest.buckets[bucket]).toBeGreaterThanOrEqual(3); // three sizes of the photo
  expect(manifest.keys).toEqual([]);
  // what a thief who copies the archive holds: age's header and ciphertext, no tar, no gzip
  const stolen = fs.readFileSync(file);
  expect(path.basename(file)).toMatch(/\.tar\.gz\.age$/);
  expect(stolen.subarray(0, AGE_MAGIC.length).toString('latin1')).toBe(AGE_MAGIC);
  expect(() => zlib.gunzipSync(stolen)).toThrow();
  expect(stolen.includes(Buffer.from(testKeys().privateKey.split('\n')[1]!))).toBe(false);

  // --- after the backup, an administrator erases a family's data
  const erasure = await s.http.post('/api/v1/privacy/erase', { phone: erasedPhone }, staff);
  expect(erasure.status).toBe(200);
  expect(erasure.body).toEqual({ applications: 1, wishes: 0, donations: 1 });
  const entries = fs.readFileSync(ledger, 'utf8').trim().split('\n');
  expect(entries).toHaveLength(1);
  expect(entries[0]).not.toContain('Drill-Erased');
  expect(JSON.parse(entries[0]!)).toMatchObject({
    applications: [{ id: erased, created_at: expect.any(String) }],
    donations: [{ id: donationId, created_at: expect.any(String) }],
  });

  // --- the machine is lost: every database dropped, the bucket emptied
  await s.stop();
  s = undefined;
  for (const db of Object.values(databases)) await mongo.db(db).dropDatabase();
  await emptyBucket();
  const targets = { mongoUrl: urls.mongoUrl, s3, keysDir: path.join(work, 'restored-keys') };
  expect(await existingData(manifest, targets)).toEqual([]);

  // no key, a wrong key, a changed byte: each refused, clearly, before anything is written
  await expect(restoreBackup(file, targets)).rejects.toThrow(/archive is encrypted/);
  const wrong = await newBackupIdentity();
  const refusal = restoreBackup(file, targets, { identity: wrong.identity });
  await expect(refusal).rejects.toBeInstanceOf(BackupKeyError);
  await expect(restoreBackup(file, targets, { identity: wrong.identity })).rejects.toThrow(
    /encrypted to another key/,
  );
  const damaged = path.join(work, 'damaged.tar.gz.age');
  const bytes = fs.readFileSync(file);
  bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
  fs.writeFileSync(damaged, bytes);
  await expect(restoreBackup(damaged, targets, { identity })).rejects.toBeInstanceOf(
    DamagedArchiveError,
  );
  expect(await existingData(manifest, targets)).toEqual([]);

  // --- the restore, and every document and object compared with the archive
  const restoreStarted = Date.now();
  const restored: Manifest = await restoreBackup(file, targets, { identity });
  const restoreMs = Date.now() - restoreStarted;
  expect(restored.created_at).toBe(manifest.created_at);
  const archive = await archived(file, identity);
  const now = await documentsNow();
  expect([...now.keys()].sort()).toEqual([...archive.docs.keys()].sort());
  for (const [name, lines] of archive.docs) {
    const [, db, coll] = /^databases\/([^/]+)\/(.+)\.jsonl$/.exec(name)!;
    expect({ name, count: now.get(name)?.length }).toEqual({
      name,
      count: manifest.databases[db!]![coll!],
    });
    expect({ name, sum: sha256(now.get(name)!.join('\n')) }).toEqual({
      name,
      sum: sha256(lines.join('\n')),
    });
  }
  const objects = await listObjects(s3, bucket);
  expect(objects).toHaveLength(archive.objects.size);
  for (const o of objects) {
    const chunks: Buffer[] = [];
    for await (const chunk of await s3.getObject(bucket, o.name)) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(archive.objects.get(`objects/${bucket}/${o.name}`));
    const type = manifest.files.find((f) => f.path === `objects/${bucket}/${o.name}`)?.content_type;
    expect((await s3.statObject(bucket, o.name)).metaData['content-type']).toBe(type);
  }
  // no signing key came back: the platform keeps (or makes) its own
  expect(fs.existsSync(path.join(targets.keysDir, 'jwt-private.pem'))).toBe(false);
  // the erased family and its donation are in the archive, as they were when it was taken
  expect(now.get(`databases/${databases.applications}/applications.jsonl`)!.join()).toContain(
    erasedName,
  );
  expect(now.get(`databases/${databases.catalog}/donations.jsonl`)!.join()).toContain(erasedName);
  const donorPhotos = () => listObjects(s3, bucket, `donations/${donationId}/`);
  expect((await donorPhotos()).length).toBeGreaterThan(0);

  // --- the platform starts again on what was restored
  s = await startSystem({ full: true, databases, bucket, erasureLedger: ledger });
  const back = s;
  // the erasure made after the backup is done again before the service answers
  const lookup = await back.http.post('/api/v1/privacy/lookup', { phone: erasedPhone }, staff);
  expect(lookup.body.applications).toEqual([]);
  expect(lookup.body.donations).toEqual([]);
  const erasedDonation = (await back.http.get(`/api/v1/donations/${donationId}`, staff)).body;
  expect(erasedDonation).toMatchObject({ status: 'declined', erased: true, donor_name: '' });
  expect(JSON.stringify(erasedDonation)).not.toContain('Drill-Erased');
  await eventually(async () => (await donorPhotos()).length === 0, {
    what: "the erased donor's photos gone again",
  });
  const erasedApp = (await back.http.get(`/api/v1/applications/${erased}`, staff)).body;
  expect(erasedApp).toMatchObject({ status: 'rejected', applicant_name: '' });
  await eventually(
    async () => {
      const r = await back.http.post(
        '/api/v1/privacy/records',
        { application_ids: [erased], wish_ids: [] },
        staff,
      );
      return r.body.mails.length === 0 && !JSON.stringify(r.body).includes('Drill-Erased');
    },
    { what: "the erased family's mails and log details gone again" },
  );
  // it serves every lot, photo, application, wish, user and log entry it had
  expect((await back.http.get(`/api/v1/lots/${wardrobe}`, staff)).body.photos).toEqual(photos);
  const image = await fetch(`${back.url}${photos[0]}`);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/webp');
  expect(await statusOf(back, winner)).toBe('approved');
  expect(await statusOf(back, rival)).toBe('rejected');
  expect(await statusOf(back, waiting)).toBe('pending');
  expect((await back.http.get(`/api/v1/wishes/${wish.body.id}`, staff)).status).toBe(200);
  const login = await back.http.post('/api/v1/auth/login', volunteer);
  expect(login.status).toBe(200);
  const log = await back.http.get(
    `/api/v1/activity-logs?target_type=application&target_id=${winner}&limit=50`,
    staff,
  );
  expect(log.body.data.map((e: { action_type: string }) => e.action_type)).toContain('APPROVE');

  // and works: a new family applies for the table, is approved and gets its mails
  const family = await apply(table, { applicant_email: 'new.family.drill@example.org' });
  expect(
    (
      await back.http.patch(
        `/api/v1/applications/${family}/status`,
        { status: 'approved', note: 'Abholung Montag' },
        staff,
      )
    ).status,
  ).toBe(202);
  await eventually(async () => (await statusOf(back, family)) === 'approved', {
    what: 'the new family approved',
  });
  await waitForMails('new.family.drill@example.org', [/eingegangen/, /^Gute Nachricht/]);
  expect(await statusOf(back, waiting)).toBe('rejected');
  process.stdout.write(
    `restore drill: backup ${backupMs} ms, restore ${restoreMs} ms, ${manifest.files.length} files\n`,
  );
  // two whole platforms start, back up and restore: about 60 s alone, 140 s beside the browser
  // suites on two cores
}, 300_000);
