import http from 'node:http';
import { Events } from '@furniture/contracts';
import { eventually } from '@furniture/platform/testing';
import {
  NO_CATALOG,
  admin,
  download,
  lotSnapshot,
  startMedia,
  tokenOf,
  upload,
  volunteer,
  type MediaUnderTest,
} from './harness';
import { jpeg } from './images';

let svc: MediaUnderTest;
let image: Buffer;

beforeAll(async () => {
  svc = await startMedia();
  image = await jpeg(900, 700);
});
afterAll(async () => {
  await svc?.stop();
});

async function uploaded(lotId: number) {
  const res = await upload(svc.url, lotId, image);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; urls: Record<'thumbnail' | 'medium' | 'large', string> };
}

describe('serving /media', () => {
  test('when a stored photo is fetched anonymously, then the WebP bytes come with type, ETag and a one-year immutable cache', async () => {
    const lotId = await svc.createLot();
    const photo = await uploaded(lotId);
    const res = await download(svc.url, photo.urls.medium);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f-]+"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(res.headers.get('content-length'))).toBe(res.data.length);
    expect(res.data.toString('latin1', 8, 12)).toBe('WEBP');
  });

  test('when the browser asks again with If-None-Match, then 304 without a body', async () => {
    const lotId = await svc.createLot();
    const photo = await uploaded(lotId);
    const first = await download(svc.url, photo.urls.large);
    const again = await download(svc.url, photo.urls.large, {
      'if-none-match': first.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(again.data.length).toBe(0);
    expect(again.headers.get('cache-control')).toContain('immutable');
  });

  test('when the object does not exist, then 404 PHOTO_NOT_FOUND', async () => {
    const missing = await download(
      svc.url,
      '/media/lots/1/00000000-0000-4000-8000-000000000000-large.webp',
    );
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.data.toString()).code).toBe('PHOTO_NOT_FOUND');
    expect(missing.headers.get('cache-control') ?? '').not.toContain('immutable');
  });

  test('when the path is not one of our keys, then 404 without touching the bucket', async () => {
    for (const path of ['/media/../../etc/passwd', '/media/lots/1/x.webp', '/media/']) {
      expect((await download(svc.url, path)).status).toBe(404);
    }
  });
});

describe('deleting one photo', () => {
  test('when staff delete a photo, then its three objects and its record go, photo.deleted names the actor, the slot is free again', async () => {
    const lotId = await svc.createLot();
    const keep = await uploaded(lotId);
    const gone = await uploaded(lotId);
    const res = await svc.http.delete(`/api/v1/lots/${lotId}/photos/${gone.id}`, {
      token: tokenOf(admin),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Foto gelöscht.' });
    for (const url of Object.values(gone.urls)) {
      expect((await download(svc.url, url)).status).toBe(404);
    }
    expect((await download(svc.url, keep.urls.large)).status).toBe(200);
    const list = await svc.http.get(`/api/v1/lots/${lotId}/photos`, { token: tokenOf(admin) });
    expect(list.body.data.map((p: { id: number }) => p.id)).toEqual([keep.id]);
    const event = await svc.recorder.waitFor(
      Events.PhotoDeleted,
      (e) => e.payload.photo_id === gone.id,
    );
    expect(event.payload).toEqual({ photo_id: gone.id, lot_id: lotId, urls: gone.urls });
    expect(event.actor).toMatchObject({ id: admin.id, role: 'admin' });
    // the tombstone disappears once its event is out
    await eventually(
      async () => (await svc.conn.collection('photos').countDocuments({ id: gone.id })) === 0,
    );
    const again = await upload(svc.url, lotId, image);
    expect(again.body.data.position).toBe(1);
  });

  test('when a volunteer deletes a photo, then that is allowed', async () => {
    const lotId = await svc.createLot();
    const photo = await uploaded(lotId);
    const res = await svc.http.delete(`/api/v1/lots/${lotId}/photos/${photo.id}`, {
      token: tokenOf(volunteer),
    });
    expect(res.status).toBe(200);
  });

  test('when the photo is unknown, already deleted or belongs to another lot, then 404 PHOTO_NOT_FOUND', async () => {
    const lotId = await svc.createLot();
    const otherLot = await svc.createLot();
    const photo = await uploaded(lotId);
    const token = tokenOf(admin);
    const wrongLot = await svc.http.delete(`/api/v1/lots/${otherLot}/photos/${photo.id}`, {
      token,
    });
    expect(wrongLot.status).toBe(404);
    expect(wrongLot.body.code).toBe('PHOTO_NOT_FOUND');
    expect((await download(svc.url, photo.urls.large)).status).toBe(200);
    expect(
      (await svc.http.delete(`/api/v1/lots/${lotId}/photos/${photo.id}`, { token })).status,
    ).toBe(200);
    expect(
      (await svc.http.delete(`/api/v1/lots/${lotId}/photos/${photo.id}`, { token })).status,
    ).toBe(404);
    expect((await svc.http.delete(`/api/v1/lots/${lotId}/photos/999999`, { token })).status).toBe(
      404,
    );
  });

  test('when the ids in the path are not numbers, then 422', async () => {
    const res = await svc.http.delete('/api/v1/lots/abc/photos/x', { token: tokenOf(admin) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('lot events', () => {
  test('when the catalog deletes a lot, then every photo of it leaves the bucket and further uploads get 404', async () => {
    const lotId = await svc.createLot();
    const neighbour = await svc.createLot();
    const photos = [await uploaded(lotId), await uploaded(lotId), await uploaded(lotId)];
    const kept = await uploaded(neighbour);
    // a stray object of the lot (e.g. from an upload that crashed) goes too
    await svc.s3.putObject(svc.bucket, `lots/${lotId}/stray.webp`, Buffer.from('x'));
    expect(await svc.keysOf(`lots/${lotId}/`)).toHaveLength(10);

    await svc.publishLot(Events.LotDeleted, lotSnapshot(lotId, { version: 2 }));
    await eventually(async () => (await svc.keysOf(`lots/${lotId}/`)).length === 0, {
      what: 'objects of the deleted lot removed',
    });
    await eventually(
      async () => (await svc.conn.collection('photos').countDocuments({ lot_id: lotId })) === 0,
    );
    for (const p of photos) expect((await download(svc.url, p.urls.thumbnail)).status).toBe(404);
    expect((await download(svc.url, kept.urls.large)).status).toBe(200);

    const late = await upload(svc.url, lotId, image);
    expect(late.status).toBe(404);
    expect(late.body.code).toBe('LOT_NOT_FOUND');
    // an older lot.updated arriving late does not bring the lot back
    await svc.publishLot(Events.LotUpdated, lotSnapshot(lotId, { version: 3 }));
    await svc.publishLot(Events.LotCreated, lotSnapshot(lotId + 1000));
    await eventually(
      async () => (await svc.conn.collection('lots').findOne({ id: lotId + 1000 })) ?? undefined,
    );
    expect((await upload(svc.url, lotId, image)).status).toBe(404);
  });

  test('when the lot is deleted while a photo of it arrives, then 404 once its image work has ended, and nothing is kept', async () => {
    const lotId = await svc.createLot();
    const big = await jpeg(4000, 3000);
    const boundary = '----furniture-late-lot';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const req = http.request(`${svc.url}/api/v1/lots/${lotId}/photos`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(volunteer)}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + big.length + tail.length),
      },
    });
    // the answer, and what was still in processing when it came
    const answered = new Promise<{ status: number; body: string; processing: number }>(
      (resolve, reject) => {
        req.on('response', (res) => {
          const processing = svc.media.processing.stats.active;
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, processing }));
        });
        req.on('error', reject);
      },
    );
    // the room is checked and the body is arriving; then the catalog deletes the lot
    req.write(head);
    req.write(big.subarray(0, 1024));
    await eventually(() => svc.media.admission.current === 1, { what: 'upload admitted' });
    await svc.publishLot(Events.LotDeleted, lotSnapshot(lotId, { version: 2 }));
    await eventually(
      async () => (await svc.conn.collection('lots').findOne({ id: lotId }))?.deleted === true,
      { what: 'lot deleted in the read model' },
    );
    req.end(Buffer.concat([big.subarray(1024), tail]));

    const res = await answered;
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).code).toBe('LOT_NOT_FOUND');
    // the image was made while the slot was claimed; the refusal waited for it to end
    expect(res.processing).toBe(0);
    expect(await svc.keysOf(`lots/${lotId}/`)).toEqual([]);
    expect(await svc.conn.collection('photos').countDocuments({ lot_id: lotId })).toBe(0);
    expect(await svc.conn.collection('photo_slots').countDocuments({ lot_id: lotId })).toBe(0);
  });

  test('when lot.deleted is delivered twice, then both deliveries succeed and the second changes nothing', async () => {
    const lotId = await svc.createLot();
    await uploaded(lotId);
    const deletion = lotSnapshot(lotId, { version: 2 });
    const first = await svc.publishLot(Events.LotDeleted, deletion);
    const second = await svc.publishLot(Events.LotDeleted, deletion);
    // a handler that failed would not record its event as processed
    await eventually(
      async () =>
        (await svc.conn.collection('processed_events').countDocuments({
          _id: { $in: [first.eventId, second.eventId] },
          state: { $ne: 'claimed' },
        } as never)) === 2,
      { what: 'both deliveries handled' },
    );
    expect(await svc.keysOf(`lots/${lotId}/`)).toEqual([]);
    expect(await svc.conn.collection('lots').findOne({ id: lotId })).toMatchObject({
      deleted: true,
    });
  });

  test('when lot events arrive out of order, then the newer version wins', async () => {
    const lotId = 5000;
    await svc.publishLot(Events.LotUpdated, lotSnapshot(lotId, { version: 3, status: 'reserved' }));
    await eventually(
      async () => (await svc.conn.collection('lots').findOne({ id: lotId })) ?? undefined,
    );
    await svc.publishLot(Events.LotCreated, lotSnapshot(lotId, { version: 1 }));
    await svc.publishLot(
      Events.LotUpdated,
      lotSnapshot(lotId, { version: 4, status: 'taken', updated_at: new Date().toISOString() }),
    );
    await eventually(
      async () => (await svc.conn.collection('lots').findOne({ id: lotId }))?.version === 4,
    );
    const doc = await svc.conn.collection('lots').findOne({ id: lotId });
    expect(doc).toMatchObject({ version: 4, status: 'taken', deleted: false });
  });

  test('when an upload names a lot whose lot.created has not arrived yet, then media asks the catalog and accepts it', async () => {
    const lotId = 7000;
    svc.catalog.lots.set(lotId, lotSnapshot(lotId));
    const res = await upload(svc.url, lotId, image);
    expect(res.status).toBe(201);
    expect(await svc.conn.collection('lots').findOne({ id: lotId })).toMatchObject({
      id: lotId,
      deleted: false,
    });
  });
});

describe('lot read model at start', () => {
  test('when the read model is empty at start, then it is rebuilt page by page from the catalog snapshot', async () => {
    const other = await startMedia(
      { LOT_SNAPSHOT_PAGE_SIZE: '10' },
      {
        beforeStart: (catalog) => {
          for (let id = 1; id <= 23; id++) catalog.lots.set(id, lotSnapshot(id));
        },
      },
    );
    try {
      await eventually(
        async () => (await other.conn.collection('lots').countDocuments({})) === 23,
        { what: 'read model rebuilt' },
      );
      expect(other.catalog.calls()).toBe(3); // 10 + 10 + 3
      const res = await upload(other.url, 23, image);
      expect(res.status).toBe(201);
    } finally {
      await other.stop();
    }
  });

  test('when the catalog cannot be reached and the lot is unknown, then 503 SERVICE_UNAVAILABLE, not a wrong 404', async () => {
    const other = await startMedia({ CATALOG_URL: NO_CATALOG });
    try {
      const res = await upload(other.url, 42, image);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      // lots it heard of by event are served as usual
      const lotId = await other.createLot({ id: 43 });
      expect((await upload(other.url, lotId, image)).status).toBe(201);
    } finally {
      await other.stop();
    }
  });
});

describe('housekeeping', () => {
  test('when an upload died after claiming a slot, then housekeeping frees the slot and removes its objects', async () => {
    const lotId = await svc.createLot();
    // what a process killed mid-upload leaves: a processing claim on slot 0 and one stored object
    const keys = {
      thumbnail: `lots/${lotId}/11111111-1111-4111-8111-111111111111-thumbnail.webp`,
      medium: `lots/${lotId}/11111111-1111-4111-8111-111111111111-medium.webp`,
      large: `lots/${lotId}/11111111-1111-4111-8111-111111111111-large.webp`,
    };
    const longAgo = new Date(Date.now() - 3600 * 1000);
    await svc.conn.collection('photo_slots').insertOne({
      _id: `${lotId}:0`,
      lot_id: lotId,
      position: 0,
      photo_id: 900001,
      created_at: longAgo,
    } as never);
    await svc.conn.collection('photos').insertOne({
      _id: '900001',
      id: 900001,
      lot_id: lotId,
      position: 0,
      status: 'processing',
      keys,
      created_by_user_id: volunteer.id,
      created_at: longAgo,
      updated_at: longAgo,
    } as never);
    await svc.s3.putObject(svc.bucket, keys.large, Buffer.from('half an upload'));
    const before = await upload(svc.url, lotId, image);
    expect(before.body.data.position).toBe(1);

    expect(await svc.media.photos.cleanupStaleClaims(30 * 60 * 1000)).toBe(1);
    expect(await svc.conn.collection('photos').findOne({ id: 900001 })).toBeNull();
    expect(await svc.keysOf(keys.large)).toEqual([]);
    const after = await upload(svc.url, lotId, image);
    expect(after.body.data.position).toBe(0);
  });

  test('when a full lot holds slots whose photo records are gone, then the next upload frees them', async () => {
    const lotId = await svc.createLot();
    // what a process killed between taking a slot and writing its record leaves behind
    const longAgo = new Date(Date.now() - 3600 * 1000);
    await svc.conn.collection('photo_slots').insertMany(
      [...Array(10).keys()].map((p) => ({
        _id: `${lotId}:${p}`,
        lot_id: lotId,
        position: p,
        photo_id: 800000 + p,
        created_at: longAgo,
      })) as never[],
    );
    const res = await upload(svc.url, lotId, image);
    expect(res.status).toBe(201);
    expect(res.body.data.position).toBe(0);
    expect(await svc.conn.collection('photo_slots').countDocuments({ lot_id: lotId })).toBe(1);
  });
});
