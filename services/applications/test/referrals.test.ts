/**
 * Referrals (issue 44) through the gateway with the real catalog: a partner agency's referrer
 * applies for a family under the family's own rules, sees its own agency's families only, and
 * staff see who referred an application.
 */
import { Events } from '@furniture/contracts';
import { signTestToken } from '@furniture/platform/testing';
import { adminToken, e164, eventually, newPhone, volunteerToken } from './harness';
import { startStack, type Stack } from './stack';

/** a low daily limit, so that the test of the bound reaches it (the default is 50) */
const PER_DAY = 20;

let s: Stack;
beforeAll(async () => {
  s = await startStack({ env: { REFERRALS_PER_REFERRER_PER_DAY: String(PER_DAY) } });
});
afterAll(async () => {
  await s?.stop();
});

const caritas = { id: 11, name: 'Caritas Leipzig' };
const diakonie = { id: 12, name: 'Diakonie Halle' };
const referrerOf = (agency: { id: number; name: string }, id: number) => ({
  token: signTestToken({
    id,
    role: 'referrer',
    name: `Sozialarbeiterin ${id}`,
    email: `sozial${id}@beratung.example`,
    agency,
    lang: 'de',
  }),
});
const olena = referrerOf(caritas, 901);
const petra = referrerOf(diakonie, 902);

function family(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Iryna Bondarenko',
    phone: newPhone(),
    whatsapp: '+380 67 765 4321',
    email: 'iryna@example.org',
    city: 'Leipzig',
    address: 'Eisenbahnstraße 5',
    household_size: 4,
    language: 'uk',
    needs_delivery_help: true,
    ...overrides,
  };
}

const refer = (lotId: number, fam = family(), as = olena, note?: string) =>
  s.http.post('/api/v1/referrals/', { lot_id: lotId, family: fam, note }, as);

describe('a referral for a lot', () => {
  test('when a referrer refers a family, then its application is made like its own, in its language, with the agency on it', async () => {
    const lot = await s.createLot();
    const fam = family();
    const res = await refer(lot, fam, olena, 'Familie mit drei Kindern, kein Auto');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      wish_id: null,
      status: 'pending',
      queue_position: 1,
      agency: caritas,
    });
    const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const app = await s.http.get(`/api/v1/applications/${res.body.application_id}`, {
      token: adminToken(),
    });
    expect(app.body).toMatchObject({
      applicant_name: 'Iryna Bondarenko',
      applicant_phone: e164(fam.phone),
      language: 'uk',
      needs_delivery_help: true,
      referral: {
        id: res.body.id,
        agency: caritas,
        referrer: { name: 'Sozialarbeiterin 901' },
      },
    });
    // the family hears of it as if it had applied itself; the log says who referred whom
    const submitted = await s.recorder.waitFor(
      Events.ApplicationSubmitted,
      (e) => e.payload.application_id === res.body.application_id,
    );
    expect(submitted.payload).toMatchObject({
      language: 'uk',
      applicant_email: 'iryna@example.org',
      referral: { id: res.body.id, agency: caritas, referrer: { id: 901 } },
    });
  });

  test('when the family already applied for the lot (itself or through another agency), then ALREADY_APPLIED and nothing of the other', async () => {
    const lot = await s.createLot();
    const fam = family();
    expect((await refer(lot, fam, petra)).status).toBe(201);
    const again = await refer(lot, { ...fam, name: 'Iryna B.' }, olena);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_APPLIED');
    expect(JSON.stringify(again.body)).not.toMatch(/Diakonie|Sozialarbeiterin|referral/i);

    const own = family();
    const public_ = await s.http.post('/api/v1/applications/', {
      applicant_name: own.name,
      applicant_phone: own.phone,
      applicant_whatsapp: null,
      lot_id: lot,
    });
    expect(public_.status).toBe(201);
    const afterOwn = await refer(lot, own, olena);
    expect(afterOwn.status).toBe(409);
    expect(afterOwn.body.code).toBe('ALREADY_APPLIED');
  });

  test('when the body is wrong, then 422 in the caller’s language, and an unknown lot 404', async () => {
    const lot = await s.createLot();
    const bad = await s.http.post(
      '/api/v1/referrals/',
      { lot_id: lot, family: family({ phone: 'abc', household_size: 0 }) },
      { ...olena, headers: { 'accept-language': 'uk' } },
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('household_size');
    const phone = await s.http.post(
      '/api/v1/referrals/',
      { lot_id: lot, family: family({ phone: '12' }) },
      { ...olena, headers: { 'accept-language': 'de' } },
    );
    expect(phone.status).toBe(422);
    expect(JSON.stringify(phone.body)).toContain('Ungültige Telefonnummer');
    expect((await refer(999999)).status).toBe(404);
  });
});

describe('who sees which referral', () => {
  test("when referrers list their families, then each sees its own agency's only; another agency's one is 404; staff see all and filter by agency", async () => {
    const lot = await s.createLot();
    const mine = (await refer(lot, family(), olena)).body;
    const theirs = (await refer(lot, family(), petra)).body;

    const list = await s.http.get('/api/v1/referrals/', olena);
    expect(list.status).toBe(200);
    const ids = list.body.referrals.map((r: { id: number }) => r.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.body.referrals.find((r: { id: number }) => r.id === mine.id)).toMatchObject({
      application_id: mine.application_id,
      agency: caritas,
      lot: { id: lot },
      status: 'pending',
      queue_position: 1,
      handover_url: null,
    });
    // the agency in the query changes nothing for a referrer
    const asked = await s.http.get(`/api/v1/referrals/?agency_id=${diakonie.id}`, olena);
    expect(asked.body.referrals.map((r: { id: number }) => r.id)).not.toContain(theirs.id);

    expect((await s.http.get(`/api/v1/referrals/${mine.id}`, olena)).status).toBe(200);
    const other = await s.http.get(`/api/v1/referrals/${theirs.id}`, olena);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('REFERRAL_NOT_FOUND');
    expect((await s.http.get('/api/v1/referrals/999999', olena)).status).toBe(404);

    const all = await s.http.get('/api/v1/referrals/', { token: volunteerToken() });
    const allIds = all.body.referrals.map((r: { id: number }) => r.id);
    expect(allIds).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const onlyDiakonie = await s.http.get(`/api/v1/referrals/?agency_id=${diakonie.id}`, {
      token: adminToken(),
    });
    expect(onlyDiakonie.body.referrals.map((r: { agency: { id: number } }) => r.agency.id)).toEqual(
      expect.arrayContaining([diakonie.id]),
    );
    expect(
      onlyDiakonie.body.referrals.every(
        (r: { agency: { id: number } }) => r.agency.id === diakonie.id,
      ),
    ).toBe(true);

    const apps = await s.http.get(`/api/v1/applications/?agency_id=${caritas.id}&limit=100`, {
      token: adminToken(),
    });
    expect(apps.status).toBe(200);
    expect(apps.body.applications.map((a: { id: number }) => a.id)).toContain(mine.application_id);
    expect(
      apps.body.applications.every(
        (a: { referral: { agency: { id: number } } | null }) =>
          a.referral?.agency.id === caritas.id,
      ),
    ).toBe(true);
  });

  test('when staff or nobody call POST /referrals, then 403 or 401; an approved referral shows its handover link to its referrer', async () => {
    const lot = await s.createLot();
    expect(
      (
        await s.http.post(
          '/api/v1/referrals/',
          { lot_id: lot, family: family() },
          { token: adminToken() },
        )
      ).status,
    ).toBe(403);
    expect(
      (await s.http.post('/api/v1/referrals/', { lot_id: lot, family: family() })).status,
    ).toBe(401);
    expect((await s.http.get('/api/v1/referrals/')).status).toBe(401);

    const ref = (await refer(lot)).body;
    const res = await s.http.patch(
      `/api/v1/applications/${ref.application_id}/status`,
      { status: 'approved' },
      { token: adminToken() },
    );
    expect(res.status).toBe(202);
    const seen = await eventually(
      async () => {
        const one = await s.http.get(`/api/v1/referrals/${ref.id}`, olena);
        return one.body.status === 'approved' ? one.body : undefined;
      },
      { what: 'the referral approved' },
    );
    expect(seen.handover_url).toMatch(/\/handover\//);
    expect(seen.pickup_by).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('referrals expire', () => {
  test('when a referral is still pending after 30 days, then it closes as expired (rejected, reason referral_expired), once, and the queue behind it moves up', async () => {
    const lot = await s.createLot();
    const first = (await refer(lot)).body;
    const second = (await refer(lot, family(), petra)).body;
    const own = family();
    const behind = await s.http.post('/api/v1/applications/', {
      applicant_name: own.name,
      applicant_phone: own.phone,
      applicant_whatsapp: null,
      lot_id: lot,
    });
    expect(behind.body.queue_position).toBe(3);
    const later = new Date(Date.now() + 31 * 86_400_000);
    // not yet: nothing closes before its end
    const closedNow = await s.applications.service.referrals.expire(new Date());
    expect(closedNow).toBe(0);

    // two passes of one process at once (its document turns decide); across replicas the job's
    // fenced lease keeps passes apart (proven by two OS processes in the platform's store test)
    const [a, b] = await Promise.all([
      s.applications.service.referrals.expire(later),
      s.applications.service.referrals.expire(later),
    ]);
    expect(a + b).toBeGreaterThanOrEqual(2);
    await eventually(
      async () =>
        s.recorder
          .of(Events.ApplicationRejected)
          .filter((e) => e.payload.application_id === first.application_id).length === 1 ||
        undefined,
      { what: 'one rejection of the expired referral' },
    );
    const event = s.recorder
      .of(Events.ApplicationRejected)
      .find((e) => e.payload.application_id === first.application_id)!;
    expect(event.payload).toMatchObject({
      reason: 'referral_expired',
      old_status: 'pending',
      new_status: 'rejected',
      referrer: { name: 'Sozialarbeiterin 901', language: 'de', agency_name: caritas.name },
    });

    const seen = await s.http.get(`/api/v1/referrals/${first.id}`, olena);
    expect(seen.body).toMatchObject({ status: 'expired', queue_position: null });
    const theirs = await s.http.get(`/api/v1/referrals/${second.id}`, petra);
    expect(theirs.body.status).toBe('expired');
    const moved = await s.http.get(`/api/v1/applications/${behind.body.id}`, {
      token: adminToken(),
    });
    expect(moved.body).toMatchObject({ status: 'pending', queue_position: 1, referral: null });
  });
});

describe('privacy', () => {
  test("when a referred family asks what is stored and then to be erased, then the lookup shows who referred it and the erasure takes the referral's note and household with the family's fields; the agency stays for its counts", async () => {
    const lot = await s.createLot();
    const fam = family();
    const ref = (await refer(lot, fam, olena, 'Vater im Krankenhaus')).body;
    const admin = { token: adminToken() };
    const found = await s.http.post('/api/v1/privacy/lookup', { phone: fam.phone }, admin);
    expect(found.status).toBe(200);
    expect(found.body.applications[0]).toMatchObject({
      id: ref.application_id,
      referral: {
        id: ref.id,
        agency_id: caritas.id,
        referrer_name: 'Sozialarbeiterin 901',
        household_size: 4,
        note: 'Vater im Krankenhaus',
      },
    });
    expect(
      (
        await s.http.patch(
          `/api/v1/applications/${ref.application_id}/status`,
          { status: 'rejected', note: 'passt nicht' },
          admin,
        )
      ).status,
    ).toBe(200);
    const erased = await s.http.post('/api/v1/privacy/erase', { phone: fam.phone }, admin);
    expect(erased.status).toBe(200);
    const stored = await s.applications.conn
      .collection('applications')
      .findOne({ id: ref.application_id });
    expect(stored?.referral).toMatchObject({
      id: ref.id,
      agency_id: caritas.id,
      note: null,
      household_size: 0,
    });
    expect(JSON.stringify(stored)).not.toContain('Vater im Krankenhaus');
    expect(JSON.stringify(stored)).not.toContain(fam.name);
  });
});

describe('a referral as a wish', () => {
  test("when a referrer sends a wish for a family, then the family's own wish is made with the referral, listed for its agency only", async () => {
    const res = await s.http.post(
      '/api/v1/referrals/',
      {
        wish: { category_id: 2, description: 'Zwei Kinderbetten, die Kinder schlafen am Boden' },
        family: family({ name: 'Nadiia' }),
      },
      olena,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      application_id: null,
      status: 'active',
      queue_position: null,
      agency: caritas,
    });
    const wish = await s.http.get(`/api/v1/wishes/${res.body.wish_id}`, { token: adminToken() });
    expect(wish.body).toMatchObject({ applicant_name: 'Nadiia', furniture_category: 2 });

    const mine = await s.http.get(`/api/v1/referrals/${res.body.id}`, olena);
    expect(mine.body).toMatchObject({ wish_id: res.body.wish_id, lot: null, status: 'active' });
    expect((await s.http.get(`/api/v1/referrals/${res.body.id}`, petra)).status).toBe(404);
    const list = await s.http.get('/api/v1/referrals/', olena);
    expect(list.body.referrals.map((r: { id: number }) => r.id)).toContain(res.body.id);
    const theirs = await s.http.get('/api/v1/referrals/', petra);
    expect(theirs.body.referrals.map((r: { id: number }) => r.id)).not.toContain(res.body.id);
  });

  test('when both or neither of lot and wish are given, or a wish without WhatsApp, then 422', async () => {
    const lot = await s.createLot();
    const wish = { category_id: 2, description: 'Ein Kleiderschrank für vier Personen' };
    const both = await s.http.post(
      '/api/v1/referrals/',
      { lot_id: lot, wish, family: family() },
      olena,
    );
    expect(both.status).toBe(422);
    expect((await s.http.post('/api/v1/referrals/', { family: family() }, olena)).status).toBe(422);
    const noWhatsapp = await s.http.post(
      '/api/v1/referrals/',
      { wish, family: family({ whatsapp: null }) },
      olena,
    );
    expect(noWhatsapp.status).toBe(422);
  });
});

describe('an approved referral booked', () => {
  test("when the referred family books its slot, then the referrer's view shows when, pickup or delivery, and where; none before", async () => {
    const staff = { token: adminToken() };
    const lot = await s.createLot();
    const ref = (await refer(lot)).body;
    expect(
      (
        await s.http.patch(
          `/api/v1/applications/${ref.application_id}/status`,
          { status: 'approved' },
          staff,
        )
      ).status,
    ).toBe(202);
    const approved = await eventually(
      async () => {
        const one = await s.http.get(`/api/v1/referrals/${ref.id}`, olena);
        return one.body.status === 'approved' ? one.body : undefined;
      },
      { what: 'the referral approved' },
    );
    expect(approved.booking).toBeNull();

    const place = await s.http.post(
      '/api/v1/locations/',
      { name: 'Lager Lindenau', address: 'Lützner Str. 30', city: 'Leipzig', notes: null },
      staff,
    );
    expect(place.status).toBe(201);
    const start = new Date(Date.now() + 50 * 3600_000);
    start.setUTCMinutes(0, 0, 0);
    const end = new Date(start.getTime() + 3600_000);
    const slot = await s.http.post(
      '/api/v1/slots/',
      {
        location_id: place.body.id,
        kind: 'pickup',
        starts_at: start.toISOString(),
        ends_at: end.toISOString(),
        capacity: 2,
      },
      staff,
    );
    expect(slot.status).toBe(201);
    const token = (approved.handover_url as string).split('/handover/')[1]!;
    const booked = await s.http.post(`/api/v1/handovers/${token}/booking`, {
      slot_id: slot.body.id,
    });
    expect(booked.status).toBe(200);

    const expected = {
      starts_at: start.toISOString(),
      ends_at: end.toISOString(),
      kind: 'pickup',
      location: 'Lager Lindenau',
    };
    expect((await s.http.get(`/api/v1/referrals/${ref.id}`, olena)).body.booking).toEqual(expected);
    const list = await s.http.get('/api/v1/referrals/', olena);
    expect(list.body.referrals.find((r: { id: number }) => r.id === ref.id).booking).toEqual(
      expected,
    );
    // nothing of the booking for another agency
    expect((await s.http.get(`/api/v1/referrals/${ref.id}`, petra)).status).toBe(404);
  });
});

describe('what one referrer can make the platform send', () => {
  test(`when a referrer makes more than ${PER_DAY} referrals in a day, even at once, then exactly ${PER_DAY} are taken and the rest refused with 429 REFERRAL_DAILY_LIMIT in the caller's language; other referrers go on`, async () => {
    const busy = referrerOf(caritas, 903);
    const lot = await s.createLot();
    const answers = await Promise.all(
      Array.from({ length: PER_DAY + 3 }, () => refer(lot, family(), busy)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(PER_DAY);
    expect(statuses.filter((x) => x === 429)).toHaveLength(3);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.code).toBe('REFERRAL_DAILY_LIMIT');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(25 * 3600);

    const uk = await s.http.post(
      '/api/v1/referrals/',
      { lot_id: lot, family: family() },
      { ...busy, headers: { 'accept-language': 'uk' } },
    );
    expect(uk.status).toBe(429);
    expect(uk.body.message).toContain(`${PER_DAY} родин`);
    const de = await s.http.post(
      '/api/v1/referrals/',
      { wish: { category_id: 2, description: 'Ein Tisch mit vier Stühlen' }, family: family() },
      { ...busy, headers: { 'accept-language': 'de' } },
    );
    expect(de.status).toBe(429);
    expect(de.body.message).toContain(`heute schon ${PER_DAY} Familien vermittelt`);
    const stored = await s.applications.conn
      .collection('applications')
      .countDocuments({ 'referral.referrer_id': 903 });
    expect(stored).toBe(PER_DAY);

    // another referrer of the same agency has its own day
    expect((await refer(lot, family(), referrerOf(caritas, 904))).status).toBe(201);
  });
});

describe('a referred wish in the log and under privacy', () => {
  test("when a referrer sends a wish, then wish.created says who referred whom (the log's REFER entry); the family's lookup shows the referral and its erasure takes the note and household", async () => {
    const fam = family({ name: 'Oksana Melnyk', whatsapp: newPhone() });
    const res = await s.http.post(
      '/api/v1/referrals/',
      {
        wish: { category_id: 3, description: 'Ein Kleiderschrank für vier Personen' },
        family: fam,
        note: 'Wohnung ab 1. Januar, noch leer',
      },
      olena,
    );
    expect(res.status).toBe(201);
    const created = await s.recorder.waitFor(
      Events.WishCreated,
      (e) => e.payload.wish_id === res.body.wish_id,
    );
    expect(created.payload).toMatchObject({
      applicant_name: 'Oksana Melnyk',
      referral: {
        id: res.body.id,
        agency: caritas,
        referrer: { id: 901, name: 'Sozialarbeiterin 901' },
      },
    });

    const admin = { token: adminToken() };
    const found = await s.http.post('/api/v1/privacy/lookup', { phone: fam.whatsapp }, admin);
    expect(found.status).toBe(200);
    expect(found.body.wishes[0]).toMatchObject({
      id: res.body.wish_id,
      referral: {
        id: res.body.id,
        agency_id: caritas.id,
        referrer_name: 'Sozialarbeiterin 901',
        household_size: 4,
        note: 'Wohnung ab 1. Januar, noch leer',
      },
    });
    // an active wish is not erased (409), a cancelled one is
    expect(
      (await s.http.post('/api/v1/privacy/erase', { phone: fam.whatsapp }, admin)).status,
    ).toBe(409);
    expect(
      (await s.http.patch(`/api/v1/wishes/${res.body.wish_id}/status?status=cancelled`, {}, admin))
        .status,
    ).toBe(200);
    const erased = await s.http.post('/api/v1/privacy/erase', { phone: fam.whatsapp }, admin);
    expect(erased.status).toBe(200);
    expect(erased.body.wishes).toBe(1);
    const stored = await s.applications.conn.collection('wishes').findOne({ id: res.body.wish_id });
    expect(stored?.referral).toMatchObject({
      id: res.body.id,
      agency_id: caritas.id,
      note: null,
      household_size: 0,
    });
    expect(JSON.stringify(stored)).not.toContain('Wohnung ab 1. Januar');
    expect(JSON.stringify(stored)).not.toContain('Oksana Melnyk');
    // the referrer's view keeps the referral, without the family's name
    const seen = await s.http.get(`/api/v1/referrals/${res.body.id}`, olena);
    expect(JSON.stringify(seen.body)).not.toContain('Oksana Melnyk');
  });
});
