/**
 * Data protection (issue 15) in the applications service, on the real servers: administrators
 * look up everything stored about a phone number (in the body, never in a URL), erase it once
 * the family's records are closed, and the retention job erases closed records after the
 * retention period with the clock in the test's hand. Each erased record keeps status, dates and
 * lot and announces itself with ids only.
 */
import { Events } from '@furniture/contracts';
import { phoneKey } from '@furniture/platform';
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
beforeAll(async () => {
  h = await startApplications({
    now: () => now,
    donors: donors.source,
    env: { PERSONAL_DATA_RETENTION_DAYS: '180' },
  });
});
afterAll(async () => {
  await h?.stop();
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
