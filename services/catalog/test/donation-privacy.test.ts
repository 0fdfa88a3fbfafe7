/**
 * Donors' data is families' data (issue 28, docs/privacy.md): the catalog's part of the privacy
 * lookup and erasure by phone (asked by the applications service), and the retention job with the
 * clock in the test's hand. An erased donation keeps its status, dates, items and lots; the
 * donor's fields, photos and staff's free texts go, announced with the donation's id only. The
 * retention job's erasures go to the erasure ledger first, and a donation a restore brought back
 * is erased again from it at start.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Events } from '@furniture/contracts';
import { phoneKey } from '@furniture/platform';
import { api, eventually, outboxPublished } from '@furniture/platform/testing';
import {
  adminToken,
  ADMIN,
  donationBody,
  startCatalog,
  testClock,
  type CatalogHarness,
} from './harness';

const DAY = 24 * 3600 * 1000;
const clock = testClock();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'donation-ledger-'));
const ledger = path.join(work, 'erasures.jsonl');
let svc: CatalogHarness;
beforeAll(async () => {
  svc = await startCatalog(
    { PERSONAL_DATA_RETENTION_DAYS: '180', ERASURE_LEDGER: ledger },
    { now: clock.now },
  );
});
afterAll(async () => {
  await svc?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const admin = { token: adminToken() };
/** the internal calls, as the media and applications services make them */
const asMedia = {
  post: (path: string, body: unknown) => api(svc.url, { caller: 'media' }).post(path, body),
};
const asApplications = {
  post: (path: string, body: unknown) => api(svc.url, { caller: 'applications' }).post(path, body),
};
let phones = 0;
const freshPhone = () => {
  const n = String(100000 + ++phones);
  return { raw: `0160 77${n}`, e164: `+4916077${n}` };
};

async function offer(phone: string, overrides: Record<string, unknown> = {}) {
  const res = await svc.http.post(
    '/api/v1/donations/',
    donationBody({ donor_phone: phone, ...overrides }),
  );
  expect(res.status).toBe(201);
  return res.body as { id: number; upload_token: string };
}
async function decide(id: number, status: string, reason?: string) {
  const res = await svc.http.patch(
    `/api/v1/donations/${id}/status`,
    { status, reason, note: 'Frau Gärtner ruft zurück: 0176 1234567' },
    admin,
  );
  expect(res.status).toBe(200);
}
async function withPhoto(d: { id: number; upload_token: string }) {
  const photoId = randomUUID();
  const base = `/internal/donations/${d.id}/items/1/photo-claims`;
  expect(
    (await asMedia.post(base, { token: d.upload_token, photo_id: photoId })).body.outcome,
  ).toBe('claimed');
  const urls = Object.fromEntries(
    ['thumbnail', 'medium', 'large'].map((s) => [
      s,
      `/media/donations/${d.id}/1/${photoId}-${s}.webp`,
    ]),
  );
  await asMedia.post(`${base}/${photoId}`, { urls, width: 800, height: 600, bytes: 1000 });
}
const lookup = (e164: string) =>
  asApplications.post('/internal/privacy/donations', { phone: e164 });
const erase = (e164: string) =>
  asApplications.post('/internal/privacy/donations/erase', { phone: e164, actor: ADMIN });

test('when a number is looked up, then its donations come as stored, without the outbox', async () => {
  const phone = freshPhone();
  const first = await offer(phone.raw);
  const second = await offer(phone.raw);
  await offer(freshPhone().raw);
  const res = await lookup(phone.e164);
  expect(res.status).toBe(200);
  expect(res.body.donations.map((d: { id: number }) => d.id)).toEqual([first.id, second.id]);
  expect(res.body.donations[0]).toMatchObject({
    donor_name: 'Sabine Gärtner',
    donor_phone: phone.e164,
    donor_email: 'sabine.gaertner@example.org',
    address: 'Sonnenallee 12',
    status: 'submitted',
  });
  for (const key of ['_id', '_outbox', '_outbox_pending'])
    expect(res.body.donations[0]).not.toHaveProperty(key);
});

test('when a donor is erased, then the closed donations lose name, number, e-mail, address, photos and staff’s notes, keep status, dates and items, announce it with ids only; open ones stay', async () => {
  const phone = freshPhone();
  const declined = await offer(phone.raw);
  await withPhoto(declined);
  await decide(declined.id, 'declined', 'Leider zu groß für Frau Gärtner');
  const open = await offer(phone.raw);
  expect(
    await svc.conn
      .collection('public_writes')
      .countDocuments({ key: `phone:${phoneKey(phone.e164)}` }),
  ).toBe(1);

  const res = await erase(phone.e164);
  expect(res.body).toEqual({ erased: 1, open: 1 });
  const detail = (await svc.http.get(`/api/v1/donations/${declined.id}`, admin)).body;
  expect(detail).toMatchObject({
    status: 'declined',
    erased: true,
    donor_name: '',
    donor_phone: `erased:${declined.id}`,
    donor_phone_raw: '',
    donor_email: null,
    city: '',
    address: '',
    items: [
      { id: 1, category_id: 1, description: 'Dreisitzer-Sofa, grau, kaum benutzt', photos: [] },
    ],
  });
  expect(detail.history.map((h: { to: string }) => h.to)).toEqual(['submitted', 'declined']);
  expect(JSON.stringify(detail.history)).not.toMatch(/Gärtner|0176/);
  const event = await svc.recorder.waitFor(
    Events.PersonalDataErased,
    (e) => e.payload.donation_ids?.includes(declined.id) ?? false,
  );
  expect(event.payload).toEqual({
    reason: 'request',
    application_ids: [],
    wish_ids: [],
    donation_ids: [declined.id],
  });
  expect(event.actor).toMatchObject({ id: ADMIN.id });
  // nothing of the donor is left to find by the number; the open donation stays as it was
  const left = await lookup(phone.e164);
  expect(left.body.donations.map((d: { id: number }) => d.id)).toEqual([open.id]);
  expect(
    await svc.conn
      .collection('public_writes')
      .countDocuments({ key: `phone:${phoneKey(phone.e164)}` }),
  ).toBe(0);
  const stored = await svc.conn.collection('donations').findOne({ id: declined.id });
  expect(JSON.stringify(stored)).not.toMatch(/Gärtner|Sonnenallee|sabine|16077/);
  expect((await erase(phone.e164)).body).toEqual({ erased: 0, open: 1 });
});

test('when the retention job runs, then donations closed for longer than the period are erased (reason retention, no actor) and younger or open ones are not', async () => {
  const old = await offer(freshPhone().raw);
  await decide(old.id, 'declined', 'Kein Bedarf');
  const collected = await offer(freshPhone().raw);
  await decide(collected.id, 'accepted');
  await decide(collected.id, 'collected');
  const openOld = await offer(freshPhone().raw);
  clock.advance(100 * DAY);
  const young = await offer(freshPhone().raw);
  await decide(young.id, 'declined', 'Kein Platz');
  try {
    clock.advance(81 * DAY);
    // a pass whose one-replica lease was lost erases nothing (the next holder does)
    expect(await svc.catalog.donationPrivacy.applyRetention(() => false)).toBe(0);
    expect(await svc.catalog.donationPrivacy.applyRetention()).toBe(2);
    expect(await svc.catalog.donationPrivacy.applyRetention()).toBe(0);
  } finally {
    clock.advance(-181 * DAY);
  }
  const erased = async (id: number) =>
    (await svc.http.get(`/api/v1/donations/${id}`, admin)).body.erased;
  expect(await erased(old.id)).toBe(true);
  expect(await erased(collected.id)).toBe(true);
  expect(await erased(young.id)).toBe(false);
  expect(await erased(openOld.id)).toBe(false);
  const event = await svc.recorder.waitFor(
    Events.PersonalDataErased,
    (e) => e.payload.donation_ids?.includes(old.id) ?? false,
  );
  expect(event.payload.reason).toBe('retention');
  expect(event.actor).toBeNull();
});

test('when the retention job erased a donation and a restore brought it back, then it is in the ledger and the catalog erases it again, once', async () => {
  const d = await offer(freshPhone().raw);
  await decide(d.id, 'declined', 'Kein Bedarf');
  const donations = svc.kit.conn.db!.collection('donations');
  const backup = await donations.findOne({ id: d.id });
  try {
    clock.advance(181 * DAY);
    expect(await svc.catalog.donationPrivacy.applyRetention()).toBeGreaterThanOrEqual(1);
  } finally {
    clock.advance(-181 * DAY);
  }
  const entries = fs
    .readFileSync(ledger, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { reason: string; actor: unknown; donations: { id: number }[] });
  const entry = entries.find((e) => e.donations.some((r) => r.id === d.id));
  expect(entry).toMatchObject({ reason: 'retention', actor: null, applications: [], wishes: [] });
  expect(entry!.donations.find((r) => r.id === d.id)).toEqual({
    id: d.id,
    created_at: (backup!.created_at as Date).toISOString(),
  });
  expect(fs.readFileSync(ledger, 'utf8')).not.toContain('Gärtner');

  // the restore: the document as the backup had it. A restore runs with the services stopped;
  // here the outbox relay is first let finish its write of the erasure's events (FerretDB writes
  // a document back whole: a relay write in flight would put the erased fields over the restore)
  await eventually(() => outboxPublished(donations, { id: d.id }), {
    what: "the erasure's events published",
  });
  await donations.replaceOne({ _id: backup!._id }, backup!);
  const get = async () => (await svc.http.get(`/api/v1/donations/${d.id}`, admin)).body;
  expect(await get()).toMatchObject({ erased: false, donor_name: 'Sabine Gärtner' });
  expect(await svc.catalog.donationPrivacy.catchUp()).toBe(1);
  expect(await get()).toMatchObject({ erased: true, donor_name: '', status: 'declined' });
  expect(await svc.catalog.donationPrivacy.catchUp()).toBe(0);
});
