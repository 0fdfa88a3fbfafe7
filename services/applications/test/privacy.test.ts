/**
 * Data protection (issue 15) in the applications service, on the real servers: administrators
 * look up everything stored about a phone number (in the body, never in a URL), erase it once
 * the family's records are closed, and the retention job erases closed records after the
 * retention period with the clock in the test's hand. Each erased record keeps status, dates and
 * lot and announces itself with ids only.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Events } from '@furniture/contracts';
import { phoneKey } from '@furniture/platform';
import { eventually, outboxPublished } from '@furniture/platform/testing';
import {
  ADMIN,
  adminToken,
  applicationBody,
  donorsStub,
  e164,
  newPhone,
  publishLot,
  startApplications,
  volunteerToken,
  wishBody,
  type ApplicationsHarness,
} from './harness';

const DAY = 86_400_000;
let now = new Date();
let h: ApplicationsHarness;
const donors = donorsStub();
const ledgerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erasure-ledger-'));
const ledger = path.join(ledgerDir, 'erasures.jsonl');
beforeAll(async () => {
  h = await startApplications({
    now: () => now,
    donors: donors.source,
    env: { PERSONAL_DATA_RETENTION_DAYS: '180', ERASURE_LEDGER: ledger },
  });
});
afterAll(async () => {
  await h?.stop();
  fs.rmSync(ledgerDir, { recursive: true, force: true });
});

const admin = () => ({ token: adminToken() });

async function apply(lotId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await h.http.post('/api/v1/applications/', applicationBody(lotId, overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}
async function reject(id: number) {
  const res = await h.http.patch(
    `/api/v1/applications/${id}/status`,
    { status: 'rejected', note: 'Familie Kovalenko hat abgesagt' },
    admin(),
  );
  expect(res.status).toBe(200);
}
async function wish(overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await h.http.post('/api/v1/wishes/', wishBody(overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}
async function cancelWish(id: number) {
  const res = await h.http.patch(
    `/api/v1/wishes/${id}/status?status=cancelled`,
    { admin_notes: 'Olena meldet sich nicht mehr' },
    admin(),
  );
  expect(res.status).toBe(200);
}
const lookup = (phone: string, token = adminToken()) =>
  h.http.post('/api/v1/privacy/lookup', { phone }, { token });
const erase = (phone: string, token = adminToken()) =>
  h.http.post('/api/v1/privacy/erase', { phone }, { token });

/** The rows of the number's public-write counter (keyed by a digest of the number). */
const writeCounter = (phone: string) =>
  h.conn.collection('public_writes').countDocuments({ key: `phone:${phoneKey(e164(phone))}` });

/** A family with an application (its phone), another (WhatsApp only) and a wish. */
async function family() {
  const phone = newPhone();
  const lot = await publishLot(h);
  const other = await publishLot(h);
  const byPhone = await apply(lot.id, {
    applicant_phone: phone,
    applicant_email: 'olena.privacy@example.org',
  });
  const byWhatsapp = await apply(other.id, { applicant_whatsapp: phone });
  const wishId = await wish({ applicant_whatsapp: phone, applicant_email: 'olena@example.org' });
  return { phone, lot, byPhone, byWhatsapp, wishId };
}

describe('lookup', () => {
  test('when an admin looks a number up in any form, then every application (phone or WhatsApp) with its notes and every wish is answered as stored', async () => {
    const f = await family();
    await reject(f.byPhone);
    const res = await lookup(e164(f.phone).replace('+49', '0049 '));
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe(e164(f.phone));
    expect(res.body.applications.map((a: { id: number }) => a.id)).toEqual([
      f.byPhone,
      f.byWhatsapp,
    ]);
    expect(res.body.applications[0]).toMatchObject({
      applicant_name: 'Olena Kovalenko',
      applicant_phone: e164(f.phone),
      applicant_email: 'olena.privacy@example.org',
      applicant_address: 'Sonnenallee 1',
      status: 'rejected',
    });
    expect(res.body.applications[0].notes.join('\n')).toContain('Familie Kovalenko hat abgesagt');
    expect(res.body.applications[0]).not.toHaveProperty('_outbox');
    expect(res.body.wishes).toEqual([
      expect.objectContaining({ id: f.wishId, applicant_whatsapp: e164(f.phone) }),
    ]);
  });

  test('when a volunteer, a stranger or a bad number asks, then 403, 401 and 422; an unknown number finds nothing', async () => {
    const phone = newPhone();
    expect((await lookup(phone, volunteerToken())).status).toBe(403);
    expect((await erase(phone, volunteerToken())).status).toBe(403);
    expect((await h.http.post('/api/v1/privacy/lookup', { phone })).status).toBe(401);
    const bad = await lookup('not a phone');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'phone'] });
    expect((await lookup('')).status).toBe(422);
    expect((await lookup(phone)).body).toEqual({
      phone: e164(phone),
      applications: [],
      wishes: [],
      donations: [],
      handovers: [],
    });
  });
});

describe('a number that also donated (issue 28)', () => {
  test('when an admin looks it up, then its donations come with its applications; an open donation refuses the erasure; once closed, the catalog erases it with the admin as actor', async () => {
    const f = await family();
    await reject(f.byPhone);
    await reject(f.byWhatsapp);
    await cancelWish(f.wishId);
    const number = e164(f.phone);
    donors.donations.set(number, [
      { id: 41, status: 'declined', donor_phone: number, donor_name: 'Olena Kovalenko' },
      { id: 42, status: 'accepted', donor_phone: number, donor_name: 'Olena Kovalenko' },
    ]);
    const found = await lookup(f.phone);
    expect(found.body.donations.map((d: { id: number }) => d.id)).toEqual([41, 42]);

    const refused = await erase(f.phone);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PRIVACY_OPEN_RECORDS');
    expect(refused.body.message).toContain('1 offene Spende(n)');
    expect((await lookup(f.phone)).body.applications).toHaveLength(2);
    expect(donors.erasures).toEqual([]);

    donors.donations.get(number)![1]!.status = 'cancelled';
    const res = await erase(f.phone);
    expect(res.body).toEqual({ applications: 2, wishes: 1, donations: 2 });
    expect(donors.erasures).toEqual([
      { phone: number, actor: expect.objectContaining({ id: ADMIN.id }) },
    ]);
  });
});

describe('erasure on request', () => {
  test('when the family still has an open application or an active wish, then the erasure is refused with 409 and nothing changes', async () => {
    const f = await family();
    const res = await erase(f.phone);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PRIVACY_OPEN_RECORDS');
    expect(res.body.message).toContain('2 offene Bewerbung');
    expect((await lookup(f.phone)).body.applications).toHaveLength(2);
  });

  test('when the records are closed, then the family fields go, status, dates and lot stay, the lookup finds nothing and each record publishes privacy.personal_data_erased with ids only', async () => {
    const f = await family();
    await reject(f.byPhone);
    await reject(f.byWhatsapp);
    await cancelWish(f.wishId);
    const before = (await lookup(f.phone)).body;
    expect(await writeCounter(f.phone)).toBe(1);

    const res = await erase(f.phone);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ applications: 2, wishes: 1, donations: 0 });
    expect((await lookup(f.phone)).body).toEqual({
      phone: e164(f.phone),
      applications: [],
      wishes: [],
      donations: [],
      handovers: [],
    });

    const app = (await h.http.get(`/api/v1/applications/${f.byPhone}`, admin())).body;
    const old = before.applications[0];
    expect(app).toMatchObject({
      id: f.byPhone,
      lot_id: f.lot.id,
      status: 'rejected',
      created_at: old.created_at,
      updated_at: old.updated_at,
      applicant_name: '',
      applicant_email: null,
      applicant_whatsapp: null,
      applicant_city: '',
      applicant_address: '',
      notes: [],
    });
    const stored = JSON.stringify(app);
    for (const trace of [e164(f.phone), f.phone, 'Kovalenko', 'olena', 'Sonnenallee'])
      expect(stored).not.toContain(trace);
    const w = (await h.http.get(`/api/v1/wishes/${f.wishId}`, admin())).body;
    expect(w).toMatchObject({ id: f.wishId, status: 'cancelled', applicant_name: '' });
    for (const trace of [e164(f.phone), 'Olena', 'Kinderbett'])
      expect(JSON.stringify(w)).not.toContain(trace);

    for (const id of [f.byPhone, f.byWhatsapp]) {
      const e = await h.recorder.waitFor(Events.PersonalDataErased, (ev) =>
        ev.payload.application_ids.includes(id),
      );
      expect(e.payload).toEqual({ reason: 'request', application_ids: [id], wish_ids: [] });
      expect(e.actor).toMatchObject({ role: 'admin' });
      expect(JSON.stringify(e)).not.toContain(e164(f.phone));
    }
    await h.recorder.waitFor(Events.PersonalDataErased, (ev) =>
      ev.payload.wish_ids.includes(f.wishId),
    );

    // the public-write counter of the number (a digest of it) is gone too
    expect(await writeCounter(f.phone)).toBe(0);
    // the number may apply again as a new family; a second erasure finds nothing
    expect((await erase(f.phone)).body).toEqual({ applications: 0, wishes: 0, donations: 0 });
    await apply(f.lot.id, { applicant_phone: f.phone });
  });

  test('when the staff counts are read after an erasure, then they are unchanged', async () => {
    const f = await family();
    await reject(f.byPhone);
    await reject(f.byWhatsapp);
    await cancelWish(f.wishId);
    const stats = async () => (await h.http.get('/api/v1/applications/stats', admin())).body;
    const before = await stats();
    expect((await erase(f.phone)).status).toBe(200);
    expect(await stats()).toEqual(before);
  });
});

describe('retention', () => {
  test('when closed applications and wishes are older than the period, then the job erases them (reason retention) and leaves open and younger ones', async () => {
    const f = await family();
    await reject(f.byPhone);
    await cancelWish(f.wishId);
    const service = h.service as { privacy: { applyRetention(): Promise<unknown> } };

    // 179 days later nothing is due
    now = new Date(Date.now() + 179 * DAY);
    await service.privacy.applyRetention();
    expect((await lookup(f.phone)).body.applications).toHaveLength(2);

    // 181 days later the rejected application and the cancelled wish are; the pending one is not
    now = new Date(Date.now() + 181 * DAY);
    const done = (await service.privacy.applyRetention()) as {
      applications: number;
      wishes: number;
    };
    expect(done.applications).toBeGreaterThanOrEqual(1);
    expect(done.wishes).toBeGreaterThanOrEqual(1);
    const left = (await lookup(f.phone)).body;
    expect(left.applications.map((a: { id: number }) => a.id)).toEqual([f.byWhatsapp]);
    expect(left.wishes).toEqual([]);
    const app = (await h.http.get(`/api/v1/applications/${f.byPhone}`, admin())).body;
    expect(app).toMatchObject({ status: 'rejected', lot_id: f.lot.id, applicant_name: '' });
    const e = await h.recorder.waitFor(Events.PersonalDataErased, (ev) =>
      ev.payload.application_ids.includes(f.byPhone),
    );
    expect(e.payload.reason).toBe('retention');
    expect(e.actor).toBeNull();

    // a second run finds nothing new of this family
    await service.privacy.applyRetention();
    expect((await lookup(f.phone)).body.applications).toHaveLength(1);
    now = new Date();
  });
});

describe('erasure ledger (backups)', () => {
  const lastEntry = () => JSON.parse(fs.readFileSync(ledger, 'utf8').trim().split('\n').at(-1)!);
  const service = () => h.service as { privacy: { catchUp(): Promise<unknown> } };

  test('when an erasure on request is made, then the ledger records ids, creation times and the admin, no family data; when the ledger cannot be written, then 503 and nothing is erased', async () => {
    const f = await family();
    await reject(f.byPhone);
    await reject(f.byWhatsapp);
    await cancelWish(f.wishId);
    const before = (await lookup(f.phone)).body;
    expect((await erase(f.phone)).status).toBe(200);
    const entry = lastEntry();
    expect(entry).toMatchObject({
      reason: 'request',
      actor: { role: 'admin' },
      applications: before.applications.map((a: { id: number; created_at: string }) => ({
        id: a.id,
        created_at: a.created_at,
      })),
      wishes: [{ id: f.wishId, created_at: before.wishes[0].created_at }],
    });
    for (const trace of [e164(f.phone), 'Kovalenko', 'olena', 'Sonnenallee', 'Kinderbett'])
      expect(JSON.stringify(entry)).not.toContain(trace);

    // the ledger's place is gone (a folder where the file should be): nothing is erased
    const g = await family();
    await reject(g.byPhone);
    await reject(g.byWhatsapp);
    await cancelWish(g.wishId);
    const kept = fs.readFileSync(ledger);
    fs.rmSync(ledger);
    fs.mkdirSync(ledger);
    try {
      const refused = await erase(g.phone);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
      expect((await lookup(g.phone)).body.applications).toHaveLength(2);
    } finally {
      fs.rmdirSync(ledger);
      fs.writeFileSync(ledger, kept);
    }
  });

  test('when the service starts on records a restored backup brought back, then what the ledger says was erased is erased again with its events, and a record that only shares an id is left alone', async () => {
    const f = await family();
    await reject(f.byPhone);
    await reject(f.byWhatsapp);
    await cancelWish(f.wishId);
    const ids = [f.byPhone, f.byWhatsapp];
    const apps = h.conn.collection('applications');
    const wishes = h.conn.collection('wishes');
    const backup = {
      apps: await apps.find({ id: { $in: ids } }).toArray(),
      wish: await wishes.findOne({ id: f.wishId }),
    };
    expect((await erase(f.phone)).status).toBe(200);
    // a restore runs with the services stopped; here the outbox relay is first let finish its
    // writes of the erasure's events (FerretDB writes a document back whole: a relay write in
    // flight would put the erased fields over the restored document)
    await eventually(
      async () =>
        (await outboxPublished(apps, { id: f.byPhone })) &&
        (await outboxPublished(apps, { id: f.byWhatsapp })) &&
        (await outboxPublished(wishes, { id: f.wishId })),
      { what: "the erasure's events published" },
    );
    // a restore: the documents as they were in the archive
    for (const doc of backup.apps) await apps.replaceOne({ _id: doc._id }, doc);
    await wishes.replaceOne({ _id: backup.wish!._id }, backup.wish!);
    expect((await lookup(f.phone)).body.applications).toHaveLength(2);
    // an id the restore will hand out again, to another family: its creation time differs
    const other = await apply(f.lot.id);
    fs.appendFileSync(
      ledger,
      `${JSON.stringify({
        at: new Date().toISOString(),
        reason: 'request',
        actor: null,
        applications: [{ id: other, created_at: '2001-01-01T00:00:00.000Z' }],
        wishes: [],
      })}\n`,
    );

    expect(await service().privacy.catchUp()).toEqual({ applications: 2, wishes: 1 });
    expect((await lookup(f.phone)).body).toMatchObject({ applications: [], wishes: [] });
    const kept = (await h.http.get(`/api/v1/applications/${other}`, admin())).body;
    expect(kept.applicant_name).toBe('Olena Kovalenko');
    // the same events as the first time: each record erased twice, told twice
    const told = (id: number) =>
      h.recorder.of(Events.PersonalDataErased).filter((e) => e.payload.application_ids.includes(id))
        .length;
    await eventually(() => told(f.byPhone) === 2 && told(f.byWhatsapp) === 2, {
      what: 'each erasure told again',
    });
    // a second start finds nothing to do
    expect(await service().privacy.catchUp()).toEqual({ applications: 0, wishes: 0 });
  });
});

describe('an erasure under way (issue 42)', () => {
  /** An erasure of the number running in another process: its mark, stored before its reads. */
  async function erasureElsewhere(phone: string, id: string) {
    const marks = h.conn.collection('erasure_marks');
    const key = createHash('sha256').update(e164(phone), 'utf8').digest('hex').slice(0, 32);
    await marks.insertOne({
      _id: id as never,
      phone_key: key,
      until: new Date(Date.now() + 60_000),
    });
    return {
      /** the erasure ended */
      end: () => marks.updateOne({ _id: id as never }, { $set: { until: new Date() } }),
    };
  }

  test('when a family applies while an erasure of its number runs, then the application is not kept: 409 ERASURE_RUNNING in the family’s language, its data erased; once the erasure ended, it may apply again', async () => {
    const phone = newPhone();
    const lot = (await publishLot(h)).id;
    const erasure = await erasureElsewhere(phone, 'elsewhere');
    const refused = await h.http.post(
      '/api/v1/applications/',
      applicationBody(lot, { applicant_phone: phone }),
      { headers: { 'accept-language': 'uk' } },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ERASURE_RUNNING');
    expect(refused.body.message).toMatch(/видаляються/);
    const kept = await h.conn
      .collection('applications')
      .countDocuments({ applicant_phone: e164(phone), erased_at: null });
    expect(kept).toBe(0);
    await erasure.end();
    const again = await h.http.post(
      '/api/v1/applications/',
      applicationBody(lot, { applicant_phone: phone }),
    );
    expect(again.status).toBe(201);
  });

  test('when a family sends a wish while an erasure of its number runs, then the wish is not kept: 409 ERASURE_RUNNING in the family’s language, its data erased', async () => {
    const phone = newPhone();
    const erasure = await erasureElsewhere(phone, 'elsewhere-wish');
    const wishes = h.conn.collection('wishes');
    const erasedBefore = await wishes.countDocuments({ erased_at: { $ne: null } });
    const refused = await h.http.post('/api/v1/wishes/', wishBody({ applicant_whatsapp: phone }), {
      headers: { 'accept-language': 'de' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ERASURE_RUNNING');
    expect(refused.body.message).toMatch(/gerade auf Wunsch gelöscht/);
    // none of the number kept; the one stored was erased as the erasure would have erased it
    expect(await wishes.countDocuments({ applicant_whatsapp: e164(phone) })).toBe(0);
    expect(await wishes.countDocuments({ erased_at: { $ne: null } })).toBe(erasedBefore + 1);
    await erasure.end();
    await wish({ applicant_whatsapp: phone });
  });
});
