/**
 * Donations across the catalog, the media service and the gateway (issue 28): a donor offers
 * furniture and uploads photos with the upload token, staff accept the offer and make a lot of an
 * item, and the lot is on the public site with the donor's photos, which staff list and delete
 * like their own. The bad inputs of the issue through the gateway: each a 4xx in the donor's
 * language, and nothing half-stored (no object without its item, no sixth photo, also in
 * parallel).
 */
import { Events } from '@furniture/contracts';
import { jpeg, listKeys, png, testS3 } from '@furniture/media/testing';
import { adminToken, eventually } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';

let s: System;
let at = Date.now();
beforeAll(async () => {
  s = await startSystem({ full: true, catalogOptions: { now: () => new Date(at) } });
});
afterAll(async () => {
  await s?.stop();
});

const staff = () => ({ token: adminToken() });
const s3 = testS3();
const objectsOf = (donationId: number) => listKeys(s3, s.bucket, `donations/${donationId}/`);

let phones = 0;
const freshPhone = () => `0157 44${String(100000 + ++phones)}`;

async function offer(overrides: Record<string, unknown> = {}) {
  const res = await s.http.post('/api/v1/donations/', {
    donor_name: 'Mykola Shevchuk',
    donor_phone: freshPhone(),
    language: 'uk',
    city: 'Leipzig',
    address: 'Eisenbahnstraße 5',
    available_until: '2099-06-30',
    items: [
      { category_id: 2, description: 'Дитяче ліжко з матрацом, 70 x 140 см', condition: 'good' },
      { category_id: 3, description: 'Письмовий стіл білий з шухлядою' },
    ],
    consent: true,
    ...overrides,
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; items: { id: number }[]; upload_token: string };
}

/** A donor's photo upload through the gateway. */
async function photo(
  donationId: number,
  itemId: number,
  data: Buffer,
  opts: { token?: string | null; name?: string; type?: string; lang?: string } = {},
) {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(data)], { type: opts.type ?? 'image/jpeg' }),
    opts.name ?? 'foto.jpg',
  );
  const headers: Record<string, string> = { 'accept-language': opts.lang ?? 'uk' };
  if (opts.token) headers['x-donation-token'] = opts.token;
  const res = await fetch(`${s.url}/api/v1/donations/${donationId}/items/${itemId}/photos`, {
    method: 'POST',
    body: form,
    headers,
  });
  return { status: res.status, body: (await res.json()) as Record<string, never> };
}

let picture: Buffer;
beforeAll(async () => {
  picture = await jpeg(1600, 1200);
});

test('when a donor offers furniture with photos and staff accept it and make a lot of an item, then the lot is public with the donor’s photos, which staff list and delete like their own', async () => {
  const d = await offer();
  for (let i = 0; i < 2; i++) {
    const up = await photo(d.id, 1, picture, { token: d.upload_token });
    expect(up.status).toBe(201);
  }
  expect((await photo(d.id, 2, picture, { token: d.upload_token })).status).toBe(201);

  // the donor sees the offer with its photos
  const detail = await s.http.get(`/api/v1/donations/${d.id}`, staff());
  const lookup = await s.http.post('/api/v1/donations/lookup', { phone: detail.body.donor_phone });
  expect(lookup.body.donations[0].items[0].photos).toHaveLength(2);

  expect(
    (await s.http.patch(`/api/v1/donations/${d.id}/status`, { status: 'accepted' }, staff()))
      .status,
  ).toBe(200);
  const made = await s.http.post(`/api/v1/donations/${d.id}/items/1/lot`, {}, staff());
  expect(made.status).toBe(201);
  const lot = made.body;
  expect(lot.photos).toHaveLength(2);
  for (const url of [...lot.photos, ...lot.gallery_photos])
    expect(url).toMatch(new RegExp(`^/media/lots/${lot.id}/`));
  expect(lot).toMatchObject({ donor: 'anonym', location: 'Leipzig', category_id: 2 });

  // public: the lot and its photos
  const pub = await s.http.get(`/api/v1/lots/${lot.id}`);
  expect(pub.status).toBe(200);
  expect(pub.body.photos).toEqual(lot.photos);
  const image = await fetch(`${s.url}${lot.gallery_photos[0]}`);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/webp');

  // the lot form's gallery: the photos have their ids, and deleting one works as for staff's
  const listed = await eventually(
    async () => {
      const res = await s.http.get(`/api/v1/lots/${lot.id}/photos`, staff());
      return res.status === 200 && res.body.data.length === 2 ? res.body.data : undefined;
    },
    { what: 'the lot’s photos in the media service' },
  );
  expect(listed.map((p: { urls: { medium: string } }) => p.urls.medium)).toEqual(lot.photos);
  const removed = await s.http.delete(`/api/v1/lots/${lot.id}/photos/${listed[0].id}`, staff());
  expect(removed.status).toBe(200);
  await eventually(
    async () => {
      const now = await s.http.get(`/api/v1/lots/${lot.id}`);
      return now.body.photos.length === 1 && now.body.photos[0] === lot.photos[1];
    },
    { what: 'the deleted photo gone from the lot' },
  );
  // the donor's own photos stay with the donation
  expect(await objectsOf(d.id)).toHaveLength(9);
  await s.recorder.waitFor(Events.DonationItemLotCreated, (e) => e.payload.lot_id === lot.id);
});

describe('bad input through the gateway', () => {
  test('when an offer has no phone, a past day, eleven items or a 9-character description, then 422 in the donor’s language and nothing is stored', async () => {
    const before = await s.catalog.conn.collection('donations').countDocuments();
    const bodies = [
      { donor_phone: '' },
      { available_until: '2001-01-01' },
      {
        items: Array.from({ length: 11 }, () => ({
          category_id: 1,
          description: 'Ein Stuhl aus Holz',
        })),
      },
      { items: [{ category_id: 1, description: 'Ein Tisch' }] },
    ];
    for (const overrides of bodies) {
      const res = await s.http.post(
        '/api/v1/donations/',
        {
          donor_name: 'Mykola Shevchuk',
          donor_phone: freshPhone(),
          city: 'Leipzig',
          address: 'Eisenbahnstraße 5',
          available_until: '2099-06-30',
          items: [{ category_id: 1, description: 'Ein Stuhl aus Holz' }],
          consent: true,
          ...overrides,
        },
        { headers: { 'accept-language': 'uk' } },
      );
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Будь ласка, перевірте введені дані та спробуйте ще раз.');
    }
    expect(await s.catalog.conn.collection('donations').countDocuments()).toBe(before);
  });

  test('when a fourth offer comes from one number within ten minutes, then 429 in the donor’s language', async () => {
    const phone = freshPhone();
    for (let i = 0; i < 3; i++) await offer({ donor_phone: phone });
    const fourth = await s.http.post(
      '/api/v1/donations/',
      {
        donor_name: 'Mykola Shevchuk',
        donor_phone: phone,
        city: 'Leipzig',
        address: 'Eisenbahnstraße 5',
        available_until: '2099-06-30',
        items: [{ category_id: 1, description: 'Ein Stuhl aus Holz' }],
        consent: true,
      },
      { headers: { 'accept-language': 'uk' } },
    );
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('PHONE_RATE_LIMITED');
    expect(fourth.body.message).toMatch(/забагато запитів/);
  });

  test('when photos are a 12 MB file, a PDF named .jpg or a 200×200 image, then 413 or 422 in the donor’s language and no object is stored', async () => {
    const d = await offer();
    const big = Buffer.concat([picture, Buffer.alloc(12 * 1024 * 1024 - picture.length)]);
    const tooBig = await photo(d.id, 1, big, { token: d.upload_token });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('Запит завеликий.');
    const pdf = await photo(d.id, 1, Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), {
      token: d.upload_token,
      name: 'sofa.jpg',
    });
    expect(pdf.status).toBe(422);
    expect(pdf.body.code).toBe('PHOTO_CORRUPT');
    expect(pdf.body.message).toBe('Файл пошкоджений або не є зображенням.');
    const small = await photo(d.id, 1, await png(200, 200), {
      token: d.upload_token,
      name: 'klein.png',
      type: 'image/png',
      lang: 'de',
    });
    expect(small.status).toBe(422);
    expect(small.body.message).toBe('Das Bild ist zu klein (200x200 px). Mindestens 300x300 px.');
    expect(await objectsOf(d.id)).toEqual([]);
    const detail = await s.http.get(`/api/v1/donations/${d.id}`, staff());
    expect(detail.body.items[0].photos).toEqual([]);
  });

  test('when three photos arrive at once for an item that has four, then one is stored, the others are 422, and the item has five photos and their fifteen objects only', async () => {
    const d = await offer();
    for (let i = 0; i < 4; i++)
      expect((await photo(d.id, 1, picture, { token: d.upload_token })).status).toBe(201);
    const racing = await Promise.all(
      Array.from({ length: 3 }, () => photo(d.id, 1, picture, { token: d.upload_token })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    for (const refused of racing.filter((r) => r.status === 422)) {
      expect(refused.body.code).toBe('PHOTO_LIMIT_REACHED');
      expect(refused.body.message).toBe(
        'Буде перевищено максимальну кількість фото (5). Ви можете додати ще 0 фото.',
      );
    }
    const detail = await s.http.get(`/api/v1/donations/${d.id}`, staff());
    expect(detail.body.items[0].photos).toHaveLength(5);
    expect(await objectsOf(d.id)).toHaveLength(15);
  });

  test('when the upload token is wrong, missing, or an hour old, then 401 in the donor’s language and nothing is stored', async () => {
    const d = await offer();
    const wrong = await photo(d.id, 1, picture, { token: 'x'.repeat(32) });
    const missing = await photo(d.id, 1, picture, { token: null });
    at += 61 * 60 * 1000;
    let expired;
    try {
      expired = await photo(d.id, 1, picture, { token: d.upload_token });
    } finally {
      at -= 61 * 60 * 1000;
    }
    for (const res of [wrong, missing, expired]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('DONATION_TOKEN_INVALID');
      expect(res.body.message).toMatch(/^Посилання для завантаження фото недійсне або застаріло/);
    }
    expect(await objectsOf(d.id)).toEqual([]);
  });

  test('when nobody signed in asks for the staff calls, then 401', async () => {
    const d = await offer();
    for (const res of [
      await s.http.get('/api/v1/donations/'),
      await s.http.get(`/api/v1/donations/${d.id}`),
      await s.http.patch(`/api/v1/donations/${d.id}/status`, { status: 'accepted' }),
      await s.http.post(`/api/v1/donations/${d.id}/items/1/lot`, {}),
    ])
      expect(res.status).toBe(401);
  });
});
