import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { parseS3Url } from '@furniture/infra';
import { Events, type DonationStoredPhoto } from '@furniture/contracts';
import { DependencyUnavailableError } from '@furniture/platform';
import { api, testUrls } from '@furniture/platform/testing';
import sharp from 'sharp';
import type { DonationClaims } from '../src/domain/donation-photos-service';
import {
  admin,
  download,
  startMedia,
  tokenOf,
  upload,
  uploadDonorPhoto,
  type MediaUnderTest,
} from './harness';
import { jpeg, png, sidewaysJpegWithGps, webpChunks } from './images';

/**
 * The catalog's side of a donor's photo as a stand-in (its own tests cover the real one): a
 * donation with its token and items, five places per item, the claims and the stored photos.
 */
function catalogClaims() {
  const tokens = new Map<number, string>();
  const photos = new Map<string, DonationStoredPhoto[]>();
  const claims = new Map<string, Set<string>>();
  const released: string[] = [];
  let away = false;
  let gone = false;
  const key = (d: number, i: number) => `${d}:${i}`;
  const down = () => {
    if (away) throw new DependencyUnavailableError('catalog');
  };
  const stub: DonationClaims = {
    async claim(d, i, token, photoId) {
      down();
      if (tokens.get(d) !== token) return { outcome: 'token_invalid', max: 5 };
      if (!photos.has(key(d, i))) return { outcome: 'not_found', max: 5 };
      const held = claims.get(key(d, i))!;
      if (photos.get(key(d, i))!.length + held.size >= 5) return { outcome: 'full', max: 5 };
      held.add(photoId);
      return { outcome: 'claimed', max: 5 };
    },
    async finish(d, i, photo) {
      down();
      if (gone || !claims.get(key(d, i))?.delete(photo.id)) return 'gone';
      photos.get(key(d, i))!.push(photo);
      return 'stored';
    },
    async release(d, i, photoId) {
      down();
      released.push(photoId);
      return {
        released: claims.get(key(d, i))?.delete(photoId) ?? false,
        stored: photos.get(key(d, i))?.some((p) => p.id === photoId) ?? false,
      };
    },
  };
  return {
    stub,
    released,
    open(donationId: number, token: string, items = [1]) {
      tokens.set(donationId, token);
      for (const i of items) {
        photos.set(key(donationId, i), []);
        claims.set(key(donationId, i), new Set());
      }
    },
    photosOf: (d: number, i: number) => photos.get(key(d, i)) ?? [],
    claimsOf: (d: number, i: number) => [...(claims.get(key(d, i)) ?? [])],
    setAway: (v: boolean) => (away = v),
    setGone: (v: boolean) => (gone = v),
  };
}

/** A TCP relay in front of the test run's MinIO that the test can take away and bring back. */
async function s3Relay() {
  const target = parseS3Url(testUrls().s3Url);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.endPoint);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await open();
  return {
    url: () => `http://${target.accessKey}:${target.secretKey}@127.0.0.1:${port}`,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server!.close(() => resolve());
      }),
  };
}

let svc: MediaUnderTest;
let relay: Awaited<ReturnType<typeof s3Relay>>;
const catalog = catalogClaims();
let photo: Buffer;
let nextDonation = 100;

beforeAll(async () => {
  relay = await s3Relay();
  svc = await startMedia({ S3_URL: relay.url() }, { options: { donationClaims: catalog.stub } });
  photo = await jpeg(1200, 900);
});
afterAll(async () => {
  await svc?.stop();
  await relay?.close();
});

/** A donation the stand-in knows, with its token. */
function donation(items = [1]) {
  const id = ++nextDonation;
  const token = `token-${id}`;
  catalog.open(id, token, items);
  return { id, token };
}
const uploadsLeft = () => svc.conn.collection('donation_uploads').countDocuments();

describe('a donor uploading photos', () => {
  test('when a donor uploads a photo with the token, then 201 with the three WebP urls under the donation, no metadata, and the catalog gets the photo', async () => {
    const d = donation();
    const res = await uploadDonorPhoto(svc.url, d.id, 1, await sidewaysJpegWithGps(), {
      token: d.token,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { urls: expect.any(Object) } });
    const { urls } = res.body.data;
    for (const size of ['thumbnail', 'medium', 'large'])
      expect(urls[size]).toMatch(
        new RegExp(`^/media/donations/${d.id}/1/[0-9a-f-]{36}-${size}\\.webp$`),
      );
    const large = await download(svc.url, urls.large);
    expect(large.status).toBe(200);
    expect(large.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(large.data).metadata();
    expect(meta).toMatchObject({ width: 400, height: 600 });
    expect(webpChunks(large.data).filter((c) => ['EXIF', 'XMP ', 'ICCP'].includes(c))).toEqual([]);
    expect(catalog.photosOf(d.id, 1)).toEqual([
      expect.objectContaining({ urls, width: 400, height: 600 }),
    ]);
    expect(await svc.keysOf(`donations/${d.id}/`)).toHaveLength(3);
    expect(await uploadsLeft()).toBe(0);
  });

  test.each([
    ['no token', null, 401, 'DONATION_TOKEN_INVALID'],
    ['a wrong token', 'token-wrong', 401, 'DONATION_TOKEN_INVALID'],
  ])(
    'when the upload has %s, then %i in the donor’s language and nothing is stored',
    async (_what, token, status, code) => {
      const d = donation();
      const res = await uploadDonorPhoto(svc.url, d.id, 1, photo, { token, lang: 'uk' });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(/Посилання для завантаження фото недійсне або застаріло/);
      expect(await svc.keysOf(`donations/${d.id}/`)).toEqual([]);
      expect(catalog.claimsOf(d.id, 1)).toEqual([]);
    },
  );

  test('when a file is no usable image (a PDF named .jpg, a 200×200 picture), then 422 in the donor’s language, the place is given back and nothing is stored', async () => {
    const d = donation();
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
    const refusals = [
      [pdf, 'rechnung.jpg', 'PHOTO_CORRUPT', /Файл пошкоджений або не є зображенням/],
      [await png(200, 200), 'klein.png', 'PHOTO_TOO_SMALL', /Зображення занадто мале \(200x200/],
    ] as const;
    for (const [data, name, code, message] of refusals) {
      const type = name.endsWith('.png') ? 'image/png' : 'image/jpeg';
      const res = await uploadDonorPhoto(svc.url, d.id, 1, data, {
        token: d.token,
        name,
        type,
        lang: 'uk',
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(message);
    }
    expect(catalog.claimsOf(d.id, 1)).toEqual([]);
    expect(await svc.keysOf(`donations/${d.id}/`)).toEqual([]);
    expect(await uploadsLeft()).toBe(0);
  });

  test('when the item has five photos, then a sixth is 422 with the limit in the donor’s language', async () => {
    const d = donation();
    for (let i = 0; i < 5; i++)
      expect((await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token })).status).toBe(
        201,
      );
    const sixth = await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token });
    expect(sixth.status).toBe(422);
    expect(sixth.body.code).toBe('PHOTO_LIMIT_REACHED');
    expect(sixth.body.message).toBe(
      'Maximale Anzahl von 5 Fotos würde überschritten. Sie können 0 weitere Fotos hinzufügen.',
    );
    expect(await svc.keysOf(`donations/${d.id}/`)).toHaveLength(15);
  });

  test('when the file is 12 MB, then 413 and nothing is stored', async () => {
    const d = donation();
    const big = Buffer.concat([photo, Buffer.alloc(12 * 1024 * 1024 - photo.length)]);
    const res = await uploadDonorPhoto(svc.url, d.id, 1, big, { token: d.token });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PHOTO_TOO_LARGE');
    expect(catalog.claimsOf(d.id, 1)).toEqual([]);
    expect(await svc.keysOf(`donations/${d.id}/`)).toEqual([]);
  });

  test('when the donation was erased while the photo was stored, then the objects are removed again', async () => {
    const d = donation();
    catalog.setGone(true);
    try {
      const res = await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token });
      expect(res.status).toBe(401);
    } finally {
      catalog.setGone(false);
    }
    expect(await svc.keysOf(`donations/${d.id}/`)).toEqual([]);
    expect(await uploadsLeft()).toBe(0);
  });

  test('when the catalog cannot be reached, then 503 and nothing is stored', async () => {
    const d = donation();
    catalog.setAway(true);
    try {
      const res = await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      catalog.setAway(false);
    }
    expect(await svc.keysOf(`donations/${d.id}/`)).toEqual([]);
  });
});

describe('when S3 is away for a while', () => {
  test('then a donor’s upload answers 503 with Retry-After in the donor’s language, as a staff upload does, keeps nothing, and once S3 is back the housekeeping clears what was left', async () => {
    const d = donation();
    const lotId = await svc.createLot();
    await relay.close();
    try {
      const donor = await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token, lang: 'uk' });
      const staff = await upload(svc.url, lotId, photo, { lang: 'uk' });
      for (const res of [donor, staff]) {
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
        expect(res.body.message).toBe(
          'Сервіс тимчасово недоступний. Будь ласка, спробуйте ще раз за хвилину.',
        );
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // the place among the item's photos is free again, no photo became the item's
      expect(catalog.claimsOf(d.id, 1)).toEqual([]);
      expect(catalog.photosOf(d.id, 1)).toEqual([]);
      expect(
        (await api(svc.url).get(`/api/v1/lots/${lotId}/photos`, { token: tokenOf(admin) })).body
          .data,
      ).toEqual([]);
    } finally {
      await relay.open();
    }
    // the objects could not be removed while S3 was away: the upload's record says what to remove
    expect(await uploadsLeft()).toBe(1);
    expect(await svc.media.donationPhotos.cleanupStale(0)).toBe(1);
    expect(await uploadsLeft()).toBe(0);
    expect(await svc.keysOf(`donations/${d.id}/`)).toEqual([]);
    const again = await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token });
    expect(again.status).toBe(201);
  });
});

describe('a lot made of a donated item', () => {
  test('when the catalog has a lot adopt the item’s photos, then they are copied under the lot, listed, announced as uploaded by the staff member, and a second call changes nothing', async () => {
    const d = donation();
    for (let i = 0; i < 2; i++)
      expect((await uploadDonorPhoto(svc.url, d.id, 1, photo, { token: d.token })).status).toBe(
        201,
      );
    const sources = catalog.photosOf(d.id, 1);
    const lotId = 9000 + d.id;
    const adopt = () =>
      api(svc.url, { caller: 'catalog' }).post(`/internal/lots/${lotId}/adopted-photos`, {
        actor: admin,
        photos: sources,
      });
    const res = await adopt();
    expect(res.status).toBe(200);
    expect(res.body.photos).toEqual(
      sources.map((s) => ({
        photo_id: expect.any(Number),
        urls: {
          thumbnail: `/media/lots/${lotId}/${s.id}-thumbnail.webp`,
          medium: `/media/lots/${lotId}/${s.id}-medium.webp`,
          large: `/media/lots/${lotId}/${s.id}-large.webp`,
        },
      })),
    );
    expect(await svc.keysOf(`lots/${lotId}/`)).toHaveLength(6);
    for (const p of res.body.photos as { photo_id: number; urls: Record<string, string> }[]) {
      const event = await svc.recorder.waitFor(
        Events.PhotoUploaded,
        (e) => e.payload.photo_id === p.photo_id,
      );
      expect(event.payload).toEqual({ photo_id: p.photo_id, lot_id: lotId, urls: p.urls });
      expect(event.actor).toMatchObject({ id: admin.id });
    }
    const again = await adopt();
    expect(again.body).toEqual(res.body);
    const uploaded = () =>
      svc.recorder.of(Events.PhotoUploaded).filter((e) => e.payload.lot_id === lotId).length;
    expect(uploaded()).toBe(2);

    // the lot's photos are the staff's to list and delete like any other
    await svc.createLot({ id: lotId });
    const list = await api(svc.url).get(`/api/v1/lots/${lotId}/photos`, { token: tokenOf(admin) });
    expect(list.body.data.map((p: { id: number }) => p.id)).toEqual(
      res.body.photos.map((p: { photo_id: number }) => p.photo_id),
    );
    const first = res.body.photos[0] as { photo_id: number };
    const deleted = await api(svc.url).delete(`/api/v1/lots/${lotId}/photos/${first.photo_id}`, {
      token: tokenOf(admin),
    });
    expect(deleted.status).toBe(200);
    expect(await svc.keysOf(`lots/${lotId}/`)).toHaveLength(3);
    // the donor's own objects stay with the donation
    expect(await svc.keysOf(`donations/${d.id}/`)).toHaveLength(6);
  });
});
