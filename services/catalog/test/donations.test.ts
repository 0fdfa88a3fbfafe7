import { randomUUID } from 'node:crypto';
import { Events, Limits, type Actor, type DonationStoredPhoto } from '@furniture/contracts';
import { DependencyUnavailableError, localDay } from '@furniture/platform';
import { api, eventually } from '@furniture/platform/testing';
import type { LotPhotoCopies } from '../src/domain/donation-lots';
import {
  VOLUNTEER,
  adminToken,
  donationBody,
  startCatalog,
  testClock,
  volunteerToken,
  type CatalogHarness,
} from './harness';

/** The office's time zone: an available-until day is a day there. */
const TZ = 'Europe/Berlin';

/** The media service's photo copies as a stand-in: records the calls, may be made to fail. */
function photoCopiesStub() {
  const calls: { lotId: number; actor: Actor; photos: DonationStoredPhoto[] }[] = [];
  let away = false;
  const copies: LotPhotoCopies = {
    async adopt(lotId, actor, photos) {
      calls.push({ lotId, actor, photos });
      if (away) throw new DependencyUnavailableError('media');
      return photos.map((p, i) => ({
        photo_id: lotId * 100 + i,
        urls: {
          thumbnail: `/media/lots/${lotId}/${p.id}-thumbnail.webp`,
          medium: `/media/lots/${lotId}/${p.id}-medium.webp`,
          large: `/media/lots/${lotId}/${p.id}-large.webp`,
        },
      }));
    },
  };
  return { copies, calls, setAway: (v: boolean) => (away = v) };
}

let svc: CatalogHarness;
const clock = testClock();
const media = photoCopiesStub();
const admin = adminToken();
const volunteer = volunteerToken();

beforeAll(async () => {
  svc = await startCatalog(
    { PUBLIC_WRITES_PER_IP: '1000' },
    { now: clock.now, photoCopies: media.copies },
  );
});
afterAll(async () => {
  await svc?.stop();
});

let phones = 0;
/** A phone number no other test of this file uses (three offers per number and ten minutes). */
const freshPhone = () => `0176 55${String(100000 + ++phones)}`;
const e164Of = (phone: string) => `+49${phone.replace(/\D/g, '').slice(1)}`;

async function submit(overrides: Record<string, unknown> = {}, lang = 'de') {
  const res = await svc.http.post(
    '/api/v1/donations/',
    donationBody({ donor_phone: freshPhone(), ...overrides }),
    { headers: { 'accept-language': lang } },
  );
  return res;
}
async function submitted(overrides: Record<string, unknown> = {}) {
  const res = await submit(overrides);
  expect(res.status).toBe(201);
  return res.body as { id: number; items: { id: number }[]; upload_token: string };
}
const storedDonations = () => svc.conn.collection('donations').countDocuments();

async function setStatus(id: number, body: Record<string, unknown>, token = admin) {
  return svc.http.patch(`/api/v1/donations/${id}/status`, body, { token });
}
/** An accepted donation whose first item got `photos` photos while it was open. */
async function accepted(overrides: Record<string, unknown> = {}, photos = 0) {
  const d = await submitted(overrides);
  const photoIds = await withPhotos(d.id, 1, d.upload_token, photos);
  expect((await setStatus(d.id, { status: 'accepted' })).status).toBe(200);
  return { ...d, photoIds };
}

/** The media service's calls around a donor's photo (internal, never routed by the gateway). */
const asMedia = () => api(svc.url, { caller: 'media' });
const claims = (id: number, itemId: number) =>
  `/internal/donations/${id}/items/${itemId}/photo-claims`;
const claim = (id: number, itemId: number, token: string, photoId = randomUUID()) =>
  asMedia().post(claims(id, itemId), { token, photo_id: photoId });
const finish = (id: number, itemId: number, photoId: string) =>
  asMedia().post(`${claims(id, itemId)}/${photoId}`, {
    urls: {
      thumbnail: `/media/donations/${id}/${itemId}/${photoId}-thumbnail.webp`,
      medium: `/media/donations/${id}/${itemId}/${photoId}-medium.webp`,
      large: `/media/donations/${id}/${itemId}/${photoId}-large.webp`,
    },
    width: 1200,
    height: 900,
    bytes: 250000,
  });
async function withPhotos(id: number, itemId: number, token: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const photoId = randomUUID();
    expect((await claim(id, itemId, token, photoId)).body.outcome).toBe('claimed');
    expect((await finish(id, itemId, photoId)).body.outcome).toBe('stored');
    ids.push(photoId);
  }
  return ids;
}

describe('offering furniture', () => {
  test('when a donor offers two items, then 201 with the number, the item ids and an upload token, and donation.submitted names the donor and the categories', async () => {
    const phone = freshPhone();
    const res = await svc.http.post(
      '/api/v1/donations/',
      donationBody({
        donor_phone: phone,
        language: 'uk',
        items: [
          { category_id: 1, description: 'Диван сірий, у доброму стані' },
          {
            category_id: 3,
            description: 'Стіл дерев’яний з чотирма стільцями',
            can_disassemble: true,
          },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      status: 'submitted',
      created_at: expect.any(String),
      items: [{ id: 1 }, { id: 2 }],
      upload_token: expect.stringMatching(/^[\w-]{32}$/),
    });
    const event = await svc.recorder.waitFor(
      Events.DonationSubmitted,
      (e) => e.payload.donation_id === res.body.id,
    );
    expect(event.payload).toEqual({
      donation_id: res.body.id,
      donor_name: 'Sabine Gärtner',
      donor_email: 'sabine.gaertner@example.org',
      language: 'uk',
      // where the donor's WhatsApp/SMS messages go (issue 30)
      donor_phone: e164Of(phone),
      item_count: 2,
      category_ids: [1, 3],
      available_until: '2099-12-31',
    });
    expect(event.actor).toBeNull();

    const detail = await svc.http.get(`/api/v1/donations/${res.body.id}`, { token: volunteer });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: res.body.id,
      status: 'submitted',
      donor_name: 'Sabine Gärtner',
      donor_phone: e164Of(phone),
      donor_phone_raw: phone,
      donor_email: 'sabine.gaertner@example.org',
      donor_name_public: false,
      city: 'Berlin',
      address: 'Sonnenallee 12',
      floor: 3,
      has_elevator: false,
      erased: false,
      items: [
        { id: 1, category_id: 1, photos: [], lot_id: null, condition: null, dimensions: null },
        { id: 2, category_id: 3, can_disassemble: true, photos: [], lot_id: null },
      ],
      history: [{ from: null, to: 'submitted', cause: 'donor', by: null }],
    });
    // the token is stored only as its digest
    const stored = await svc.conn.collection('donations').findOne({ id: res.body.id });
    expect(JSON.stringify(stored)).not.toContain(res.body.upload_token);
  });

  test.each([
    [
      'no phone',
      { donor_phone: undefined },
      ['body', 'donor_phone'],
      { de: 'Dieses Feld ist erforderlich', uk: "Це поле обов'язкове" },
    ],
    [
      'a phone that is no number',
      { donor_phone: '123' },
      ['body', 'donor_phone'],
      { de: 'Ungültige Telefonnummer', uk: 'Неправильний формат номера телефону' },
    ],
    [
      'an available-until day in the past',
      { available_until: '2020-01-01' },
      ['body', 'available_until'],
      {
        de: 'Das Datum darf nicht in der Vergangenheit liegen',
        uk: 'Дата не може бути в минулому',
      },
    ],
    [
      'eleven items',
      {
        items: Array.from({ length: 11 }, () => ({
          category_id: 1,
          description: 'Ein Stuhl aus Holz',
        })),
      },
      ['body', 'items'],
      { de: 'Höchstens 10 Einträge', uk: 'Не більше 10 елементів' },
    ],
    [
      'no item',
      { items: [] },
      ['body', 'items'],
      { de: 'Dieses Feld ist erforderlich', uk: "Це поле обов'язкове" },
    ],
    [
      'a description of 9 characters',
      { items: [{ category_id: 1, description: 'Ein Sofa!' }] },
      ['body', 'items', 0, 'description'],
      { de: 'Mindestens 10 Zeichen', uk: 'Щонайменше 10 символів' },
    ],
    [
      'a category that does not exist',
      { items: [{ category_id: 999, description: 'Ein schöner Stuhl' }] },
      ['body', 'items', 0, 'category_id'],
      { de: 'Unbekannte Kategorie', uk: 'Невідома категорія' },
    ],
    [
      'no consent',
      { consent: false },
      ['body', 'consent'],
      {
        de: 'Bitte stimmen Sie den Datenschutzhinweisen zu',
        uk: 'Будь ласка, погодьтеся з умовами захисту даних',
      },
    ],
  ])(
    'when an offer has %s, then 422 names the field in the donor’s language and nothing is stored',
    async (_what, overrides, loc, msg) => {
      const before = await storedDonations();
      for (const lang of ['de', 'uk'] as const) {
        const res = await submit(overrides, lang);
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.detail).toEqual(
          expect.arrayContaining([expect.objectContaining({ loc, msg: msg[lang] })]),
        );
      }
      expect(await storedDonations()).toBe(before);
    },
  );

  test('when a fourth offer comes from one number within ten minutes, then 429 in the donor’s language, nothing is stored, and other numbers still offer', async () => {
    const phone = freshPhone();
    for (let i = 0; i < 3; i++) await submitted({ donor_phone: phone });
    const before = await storedDonations();
    // the same number written another way is the same donor
    const fourth = await svc.http.post(
      '/api/v1/donations/',
      donationBody({ donor_phone: e164Of(phone) }),
      { headers: { 'accept-language': 'uk' } },
    );
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('PHONE_RATE_LIMITED');
    expect(fourth.body.message).toMatch(/З цього номера телефону щойно надіслано забагато запитів/);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await storedDonations()).toBe(before);
    expect((await submit()).status).toBe(201);
  });
});

describe('a donor looking up their offers', () => {
  test('when a donor asks with their number in another form, then their offers come with items and photos, and nothing of other donors or about them', async () => {
    const phone = freshPhone();
    const first = await submitted({ donor_phone: phone });
    const second = await submitted({ donor_phone: phone });
    await submitted();
    const [photoId] = await withPhotos(first.id, 1, first.upload_token, 1);
    const res = await svc.http.post('/api/v1/donations/lookup', { phone: e164Of(phone) });
    expect(res.status).toBe(200);
    expect(res.body.donations.map((d: { id: number }) => d.id)).toEqual([second.id, first.id]);
    expect(res.body.donations[1]).toEqual({
      id: first.id,
      status: 'submitted',
      created_at: expect.any(String),
      available_until: '2099-12-31',
      items: [
        {
          id: 1,
          description: 'Dreisitzer-Sofa, grau, kaum benutzt',
          photos: [expect.objectContaining({ medium: expect.stringContaining(photoId!) })],
        },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/Sabine|Sonnenallee|example\.org/);
  });

  test('when a number is looked up too often from one address, then 429 like the status check', async () => {
    const limited = await startCatalog({ PHONE_LOOKUPS_PER_IP: '2' });
    try {
      for (let i = 0; i < 2; i++)
        expect(
          (await limited.http.post('/api/v1/donations/lookup', { phone: freshPhone() })).status,
        ).toBe(200);
      const third = await limited.http.post(
        '/api/v1/donations/lookup',
        { phone: freshPhone() },
        { headers: { 'accept-language': 'uk' } },
      );
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('RATE_LIMITED');
      expect(third.body.message).toMatch(/Забагато запитів/);
    } finally {
      await limited.stop();
    }
  });
});

describe('the places among an item’s photos (the media service’s claims)', () => {
  test('when the media service claims with the upload token, then five photos fit an item, a sixth is refused, and the stored ones show in the donation', async () => {
    const d = await submitted();
    const ids = await withPhotos(d.id, 1, d.upload_token, Limits.donationPhotosPerItem);
    const sixth = await claim(d.id, 1, d.upload_token);
    expect(sixth.body).toEqual({ outcome: 'full', max: 5 });
    const detail = await svc.http.get(`/api/v1/donations/${d.id}`, { token: admin });
    expect(detail.body.items[0].photos.map((p: { large: string }) => p.large)).toEqual(
      ids.map((id) => `/media/donations/${d.id}/1/${id}-large.webp`),
    );
  });

  test('when seven uploads claim at once for an item with four photos, then exactly one gets the place', async () => {
    const d = await submitted();
    await withPhotos(d.id, 1, d.upload_token, 4);
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => claim(d.id, 1, d.upload_token)),
    );
    const outcomes = answers.map((a) => a.body.outcome).sort();
    expect(outcomes).toEqual(['claimed', 'full', 'full', 'full', 'full', 'full', 'full']);
  });

  test('when a claim is given back, then its place is free again; a claim of an upload that died stops counting after ten minutes', async () => {
    const d = await submitted();
    await withPhotos(d.id, 1, d.upload_token, 3);
    const held = randomUUID();
    expect((await claim(d.id, 1, d.upload_token, held)).body.outcome).toBe('claimed');
    const dead = randomUUID();
    expect((await claim(d.id, 1, d.upload_token, dead)).body.outcome).toBe('claimed');
    expect((await claim(d.id, 1, d.upload_token)).body.outcome).toBe('full');
    const release = (photoId: string) => asMedia().delete(`${claims(d.id, 1)}/${photoId}`);
    expect((await release(held)).body).toEqual({ released: true, stored: false });
    expect((await release(held)).body).toEqual({ released: false, stored: false });
    const again = randomUUID();
    expect((await claim(d.id, 1, d.upload_token, again)).body.outcome).toBe('claimed');
    expect((await finish(d.id, 1, again)).body.outcome).toBe('stored');
    // a photo that was stored keeps its objects, whoever gives its claim back later
    expect((await release(again)).body).toEqual({ released: false, stored: true });
    expect((await claim(d.id, 1, d.upload_token)).body.outcome).toBe('full');
    clock.advance(11 * 60 * 1000);
    try {
      expect((await claim(d.id, 1, d.upload_token)).body.outcome).toBe('claimed');
      // the dead upload's claim went with it: it cannot become a photo any more
      expect((await finish(d.id, 1, dead)).body.outcome).toBe('gone');
    } finally {
      clock.advance(-11 * 60 * 1000);
    }
  });

  test('when the token is wrong, expired, or the donation is decided, or the item does not exist, then no place', async () => {
    const d = await submitted();
    expect((await claim(d.id, 1, 'not-the-token')).body.outcome).toBe('token_invalid');
    expect((await claim(d.id, 1, '')).body.outcome).toBe('token_invalid');
    expect((await claim(d.id, 7, d.upload_token)).body.outcome).toBe('not_found');
    expect((await claim(999999, 1, d.upload_token)).body.outcome).toBe('token_invalid');
    clock.advance(61 * 60 * 1000);
    try {
      expect((await claim(d.id, 1, d.upload_token)).body.outcome).toBe('token_invalid');
    } finally {
      clock.advance(-61 * 60 * 1000);
    }
    expect((await claim(d.id, 1, d.upload_token)).body.outcome).toBe('claimed');
    expect((await setStatus(d.id, { status: 'accepted' })).status).toBe(200);
    expect((await claim(d.id, 1, d.upload_token)).body.outcome).toBe('token_invalid');
  });
});

describe('staff reading donations', () => {
  test('when staff filter, search and page, then the matching donations come newest first with their total and the counts per status of the search', async () => {
    const city = `Teststadt-${randomUUID().slice(0, 8)}`;
    const phone = freshPhone();
    const a = await submitted({ city, donor_phone: phone, donor_name: 'Jürgen Albers' });
    const b = await submitted({ city, donor_name: 'Oksana Bondar' });
    const c = await submitted({ city, donor_name: 'Petra Claus' });
    expect((await setStatus(b.id, { status: 'accepted' })).status).toBe(200);

    const all = await svc.http.get(`/api/v1/donations/?search=${city}`, { token: volunteer });
    expect(all.status).toBe(200);
    expect(all.body.donations.map((d: { id: number }) => d.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body.total).toBe(3);
    expect(all.body.counts).toEqual({
      submitted: 2,
      accepted: 1,
      declined: 0,
      collected: 0,
      cancelled: 0,
      expired: 0,
    });

    const page = await svc.http.get(`/api/v1/donations/?search=${city}&limit=1&skip=1`, {
      token: admin,
    });
    expect(page.body.donations.map((d: { id: number }) => d.id)).toEqual([b.id]);
    expect(page.body.total).toBe(3);

    const open = await svc.http.get(`/api/v1/donations/?search=${city}&status=submitted`, {
      token: admin,
    });
    expect(open.body.donations.map((d: { id: number }) => d.id)).toEqual([c.id, a.id]);
    expect(open.body.total).toBe(2);
    expect(open.body.counts.accepted).toBe(1);

    const find = async (search: string) =>
      (
        await svc.http.get(`/api/v1/donations/?search=${encodeURIComponent(search)}`, {
          token: admin,
        })
      ).body.donations.map((d: { id: number }) => d.id);
    expect(await find('bondar')).toContain(b.id);
    expect(await find(phone.slice(0, 9))).toContain(a.id);
    expect(await find(`#${c.id}`)).toEqual([c.id]);

    const unfiltered = await svc.http.get('/api/v1/donations/', { token: admin });
    expect(unfiltered.body.total).toBe(
      Object.values(unfiltered.body.counts as Record<string, number>).reduce((s, n) => s + n, 0),
    );
  });

  test('when nobody or a token of nobody asks for staff calls, then 401; a bad query is 422; an unknown donation 404', async () => {
    const d = await submitted();
    const anonymous = [
      await svc.http.get('/api/v1/donations/'),
      await svc.http.get(`/api/v1/donations/${d.id}`),
      await setStatus(d.id, { status: 'accepted' }, ''),
      await svc.http.post(`/api/v1/donations/${d.id}/items/1/lot`, {}),
    ];
    for (const res of anonymous) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_REQUIRED');
    }
    expect((await svc.http.get('/api/v1/donations/?status=lost', { token: admin })).status).toBe(
      422,
    );
    const missing = await svc.http.get('/api/v1/donations/999999', {
      token: admin,
      headers: { 'accept-language': 'uk' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Пожертву не знайдено.');
  });
});

describe('deciding a donation', () => {
  test('when staff accept and later mark it collected, then each step is in the history and donation.status_changed carries the staff member', async () => {
    const d = await submitted();
    const res = await setStatus(
      d.id,
      { status: 'accepted', note: 'Abholung nächste Woche' },
      volunteer,
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('accepted');
    expect(res.body.history.at(-1)).toEqual({
      at: expect.any(String),
      from: 'submitted',
      to: 'accepted',
      cause: 'staff',
      by: { id: VOLUNTEER.id, name: VOLUNTEER.name, email: VOLUNTEER.email, role: 'volunteer' },
      note: 'Abholung nächste Woche',
      reason: null,
    });
    const event = await svc.recorder.waitFor(
      Events.DonationStatusChanged,
      (e) => e.payload.donation_id === d.id,
    );
    expect(event.payload).toMatchObject({
      old_status: 'submitted',
      new_status: 'accepted',
      cause: 'staff',
      note: 'Abholung nächste Woche',
      reason: null,
      item_count: 1,
      language: 'de',
    });
    expect(event.actor).toMatchObject({ id: VOLUNTEER.id });
    const collected = await setStatus(d.id, { status: 'collected' });
    expect(collected.body.history.map((h: { to: string }) => h.to)).toEqual([
      'submitted',
      'accepted',
      'collected',
    ]);
  });

  test('when staff decline without a reason, then 422 in their language; with one, the donor is told the reason', async () => {
    const d = await submitted();
    const refused = await svc.http.patch(
      `/api/v1/donations/${d.id}/status`,
      { status: 'declined', reason: '  ' },
      { token: admin, headers: { 'accept-language': 'uk' } },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'reason'],
        msg: 'Для відмови потрібно вказати причину',
      }),
    ]);
    const declined = await setStatus(d.id, { status: 'declined', reason: 'Zu stark beschädigt' });
    expect(declined.status).toBe(200);
    const event = await svc.recorder.waitFor(
      Events.DonationStatusChanged,
      (e) => e.payload.donation_id === d.id,
    );
    expect(event.payload.reason).toBe('Zu stark beschädigt');
  });

  test('when staff ask for a change the transitions do not allow, then 409 says which, in their language, and nothing changes', async () => {
    const d = await submitted();
    const res = await svc.http.patch(
      `/api/v1/donations/${d.id}/status`,
      { status: 'collected' },
      { token: admin },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('DONATION_TRANSITION_NOT_ALLOWED');
    expect(res.body.message).toBe(
      'Die Spende ist „eingegangen“ und kann nicht auf „abgeholt“ gesetzt werden.',
    );
    expect(res.body.allowed).toEqual(['accepted', 'declined']);
    expect((await setStatus(d.id, { status: 'declined', reason: 'Kein Platz' })).status).toBe(200);
    const again = await svc.http.patch(
      `/api/v1/donations/${d.id}/status`,
      { status: 'accepted' },
      { token: admin, headers: { 'accept-language': 'uk' } },
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Пожертва має статус «відхилено», її не можна змінити на «прийнято».',
    );
    expect((await svc.http.get(`/api/v1/donations/${d.id}`, { token: admin })).body.status).toBe(
      'declined',
    );
  });
});

describe('a lot made of a donated item', () => {
  test('when staff make a lot of an accepted item without sending fields, then the lot takes the item’s data, “anonym” as donor, the city as location, the photos, and is public', async () => {
    const d = await accepted(
      {
        language: 'uk',
        city: 'Potsdam',
        items: [
          {
            category_id: 3,
            description: 'Обідній стіл з дуба, розкладний, на шість осіб',
            dimensions: '160 x 90 cm',
            condition: 'good',
          },
        ],
      },
      2,
    );
    const { photoIds } = d;
    const res = await svc.http.post(
      `/api/v1/donations/${d.id}/items/1/lot`,
      {},
      { token: volunteer },
    );
    expect(res.status).toBe(201);
    const lot = res.body;
    expect(lot).toMatchObject({
      name: {
        de: 'Обідній стіл з дуба, розкладний, на шість осіб',
        uk: 'Обідній стіл з дуба, розкладний, на шість осіб',
      },
      description: { de: 'Обідній стіл з дуба, розкладний, на шість осіб' },
      status: 'available',
      category_id: 3,
      dimensions: '160 x 90 cm',
      condition: 'good',
      donor: 'anonym',
      location: 'Potsdam',
      created_by_user_id: VOLUNTEER.id,
      photos: photoIds.map((p) => `/media/lots/${lot.id}/${p}-medium.webp`),
      gallery_photos: photoIds.map((p) => `/media/lots/${lot.id}/${p}-large.webp`),
    });
    // the media service was asked to copy the item's photos into this lot, as the staff member
    expect(media.calls.at(-1)).toMatchObject({
      lotId: lot.id,
      actor: { id: VOLUNTEER.id, role: 'volunteer' },
      photos: photoIds.map((id) => expect.objectContaining({ id })),
    });
    const pub = await api(svc.url).get(`/api/v1/lots/${lot.id}`);
    expect(pub.status).toBe(200);
    expect(pub.body.photos).toEqual(lot.photos);
    const detail = await svc.http.get(`/api/v1/donations/${d.id}`, { token: admin });
    expect(detail.body.items[0].lot_id).toBe(lot.id);
    const made = await svc.recorder.waitFor(
      Events.DonationItemLotCreated,
      (e) => e.payload.donation_id === d.id,
    );
    expect(made.payload).toEqual({
      donation_id: d.id,
      item_id: 1,
      lot_id: lot.id,
      lot_name: lot.name,
      category_id: 3,
    });
    expect(made.actor).toMatchObject({ id: VOLUNTEER.id });
    await svc.recorder.waitFor(Events.LotCreated, (e) => e.payload.lot.id === lot.id);
  });

  test('when the donor agreed to be named and staff send some fields, then those win and the donor is named', async () => {
    const d = await accepted({ donor_name_public: true, donor_name: 'Familie Wójcik' });
    const res = await svc.http.post(
      `/api/v1/donations/${d.id}/items/1/lot`,
      { name: { de: 'Graues Sofa', uk: 'Сірий диван' }, category_id: 2, status: 'reserved' },
      { token: admin },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: { de: 'Graues Sofa', uk: 'Сірий диван' },
      description: { de: 'Dreisitzer-Sofa, grau, kaum benutzt', uk: '' },
      category_id: 2,
      status: 'reserved',
      donor: 'Familie Wójcik',
      location: 'Berlin',
      photos: [],
    });
  });

  test('when an item became a lot, then a second lot of it is 409, also when two staff members press at once', async () => {
    const d = await accepted({
      items: [
        { category_id: 1, description: 'Ein Sessel mit Hocker' },
        { category_id: 1, description: 'Ein zweiter Sessel ohne Hocker' },
      ],
    });
    const first = await svc.http.post(
      `/api/v1/donations/${d.id}/items/1/lot`,
      {},
      { token: admin },
    );
    expect(first.status).toBe(201);
    const second = await svc.http.post(
      `/api/v1/donations/${d.id}/items/1/lot`,
      {},
      { token: admin },
    );
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('DONATION_ITEM_HAS_LOT');
    expect(second.body.message).toBe(
      `Aus diesem Gegenstand wurde bereits Lot ${first.body.id} angelegt.`,
    );

    const both = await Promise.all(
      [admin, volunteer].map((token) =>
        svc.http.post(`/api/v1/donations/${d.id}/items/2/lot`, {}, { token }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const lots = await svc.conn
      .collection('lots')
      .countDocuments({ location: 'Berlin', 'description.de': 'Ein zweiter Sessel ohne Hocker' });
    expect(lots).toBe(1);
  });

  test('when the donation is not accepted, the item or donation does not exist, or the category is unknown, then 4xx and no lot', async () => {
    const before = await svc.conn.collection('lots').countDocuments();
    const open = await submitted();
    const notYet = await svc.http.post(
      `/api/v1/donations/${open.id}/items/1/lot`,
      {},
      { token: admin },
    );
    expect(notYet.status).toBe(409);
    expect(notYet.body.code).toBe('DONATION_NOT_ACCEPTED');
    const d = await accepted();
    expect(
      (await svc.http.post(`/api/v1/donations/${d.id}/items/9/lot`, {}, { token: admin })).body
        .code,
    ).toBe('DONATION_ITEM_NOT_FOUND');
    expect(
      (await svc.http.post('/api/v1/donations/999999/items/1/lot', {}, { token: admin })).body.code,
    ).toBe('DONATION_NOT_FOUND');
    const badCategory = await svc.http.post(
      `/api/v1/donations/${d.id}/items/1/lot`,
      { category_id: 999 },
      { token: admin },
    );
    expect(badCategory.status).toBe(422);
    expect(badCategory.body.code).toBe('LOT_CATEGORY_NOT_FOUND');
    expect(await svc.conn.collection('lots').countDocuments()).toBe(before);
  });

  test('when the media service is away while the photos are copied, then 503 and no lot; the next press makes the lot under the same id', async () => {
    const d = await accepted({}, 2);
    media.setAway(true);
    try {
      const away = await svc.http.post(
        `/api/v1/donations/${d.id}/items/1/lot`,
        {},
        { token: admin },
      );
      expect(away.status).toBe(503);
      expect(away.body.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      media.setAway(false);
    }
    const claimedId = (await svc.http.get(`/api/v1/donations/${d.id}`, { token: admin })).body
      .items[0].lot_id;
    expect(await svc.conn.collection('lots').countDocuments({ id: claimedId })).toBe(0);
    const again = await svc.http.post(
      `/api/v1/donations/${d.id}/items/1/lot`,
      {},
      { token: admin },
    );
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(claimedId);
    expect(again.body.photos).toHaveLength(2);
  });
});

describe('donations whose available-until day has passed', () => {
  const DAY = 24 * 3600 * 1000;
  const dayAfter = (days: number) => localDay(new Date(clock.now().getTime() + days * DAY), TZ);

  test('when the expiry job runs after the day, then submitted and accepted ones become expired with donation.status_changed (cause expired, no actor), the others stay, and a second pass changes nothing', async () => {
    const open = await submitted({ available_until: dayAfter(1) });
    const taken = await accepted({ available_until: dayAfter(1) });
    const later = await submitted({ available_until: dayAfter(3) });
    const declined = await submitted({ available_until: dayAfter(1) });
    expect(
      (await setStatus(declined.id, { status: 'declined', reason: 'Kein Bedarf' })).status,
    ).toBe(200);
    // on the last day itself the furniture is still there
    clock.advance(DAY);
    try {
      expect(await svc.catalog.donations.expireOverdue()).toBe(0);
      clock.advance(DAY);
      // a pass whose one-replica lease was lost moves nothing (the next holder does)
      expect(await svc.catalog.donations.expireOverdue(() => false)).toBe(0);
      expect(await svc.catalog.donations.expireOverdue()).toBe(2);
      expect(await svc.catalog.donations.expireOverdue()).toBe(0);
    } finally {
      clock.advance(-2 * DAY);
    }
    const statusOf = async (id: number) =>
      (await svc.http.get(`/api/v1/donations/${id}`, { token: admin })).body;
    expect((await statusOf(open.id)).status).toBe('expired');
    expect((await statusOf(taken.id)).history.at(-1)).toMatchObject({
      from: 'accepted',
      to: 'expired',
      cause: 'expired',
      by: null,
    });
    expect((await statusOf(later.id)).status).toBe('submitted');
    expect((await statusOf(declined.id)).status).toBe('declined');
    for (const [d, from] of [
      [open, 'submitted'],
      [taken, 'accepted'],
    ] as const) {
      const event = await svc.recorder.waitFor(
        Events.DonationStatusChanged,
        (e) => e.payload.donation_id === d.id && e.payload.new_status === 'expired',
      );
      expect(event.payload).toMatchObject({ old_status: from, cause: 'expired', reason: null });
      expect(event.actor).toBeNull();
    }
  });

  test('when the service runs, then its scheduled job marks them expired by itself', async () => {
    const own = testClock();
    const running = await startCatalog({ DONATION_EXPIRY_INTERVAL_MS: '1000' }, { now: own.now });
    try {
      const res = await running.http.post(
        '/api/v1/donations/',
        donationBody({ available_until: localDay(own.now(), TZ) }),
      );
      expect(res.status).toBe(201);
      own.advance(2 * DAY);
      await eventually(
        async () =>
          (await running.http.get(`/api/v1/donations/${res.body.id}`, { token: admin })).body
            .status === 'expired',
        { what: 'the donation expired by the job' },
      );
    } finally {
      await running.stop();
    }
  });
});
