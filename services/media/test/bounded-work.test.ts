import http from 'node:http';
import { eventually } from '@furniture/platform/testing';
import { startMedia, tokenOf, upload, volunteer, type MediaUnderTest } from './harness';
import { jpeg } from './images';

/** An upload whose body stops halfway: the client holds the connection open. */
function heldUpload(baseUrl: string, lotId: number) {
  const boundary = '----furniture-held-upload';
  const req = http.request(`${baseUrl}/api/v1/lots/${lotId}/photos`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenOf(volunteer)}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(2 * 1024 * 1024),
    },
  });
  const closed = new Promise<void>((resolve) => {
    req.on('error', () => resolve());
    req.on('close', () => resolve());
  });
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n` +
      'Content-Type: image/jpeg\r\n\r\n',
  );
  req.write(Buffer.alloc(64 * 1024, 0xff));
  return { req, closed };
}

describe('with one image processed at a time and room for two uploads', () => {
  let svc: MediaUnderTest;
  beforeAll(async () => {
    svc = await startMedia({ MEDIA_MAX_PARALLEL: '1', MEDIA_MAX_UPLOADS_IN_FLIGHT: '6' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  test('when six uploads arrive together, then all succeed and they were processed one after another', async () => {
    const lotId = await svc.createLot();
    const images = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => jpeg(1200, 900, i)));
    const results = await Promise.all(images.map((img) => upload(svc.url, lotId, img)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(svc.media.processing.stats.peakActive).toBe(1);
    expect(svc.media.processing.stats.active).toBe(0);
  });
});

describe('admission of uploads', () => {
  let svc: MediaUnderTest;
  beforeAll(async () => {
    svc = await startMedia({ MEDIA_MAX_UPLOADS_IN_FLIGHT: '2' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  test('when more uploads are in flight than allowed, then the next is refused at once with 503 and Retry-After; slots return when clients give up', async () => {
    const lotId = await svc.createLot();
    const held = [heldUpload(svc.url, lotId), heldUpload(svc.url, lotId)];
    await eventually(() => svc.media.admission.current === 2, { what: 'two uploads admitted' });

    const refused = await upload(svc.url, lotId, await jpeg(400, 300));
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('PHOTO_UPLOADS_BUSY');
    expect(refused.headers.get('retry-after')).toBe('5');

    for (const h of held) h.req.destroy();
    await Promise.all(held.map((h) => h.closed));
    await eventually(() => svc.media.admission.current === 0, { what: 'slots released' });
    const ok = await upload(svc.url, lotId, await jpeg(400, 300));
    expect(ok.status).toBe(201);
    expect(await svc.keysOf(`lots/${lotId}/`)).toHaveLength(3);
  });
});

describe('an upload that never finishes', () => {
  let svc: MediaUnderTest;
  beforeAll(async () => {
    svc = await startMedia({ MEDIA_UPLOAD_TIMEOUT_SECONDS: '1' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  test('when the body stops arriving, then the connection is cut after MEDIA_UPLOAD_TIMEOUT_SECONDS and its slot is free', async () => {
    const lotId = await svc.createLot();
    const held = heldUpload(svc.url, lotId);
    await eventually(() => svc.media.admission.current === 1, { what: 'upload admitted' });
    await held.closed;
    await eventually(() => svc.media.admission.current === 0, { what: 'slot released' });
    expect(await svc.conn.collection('photos').countDocuments({ lot_id: lotId })).toBe(0);
  });
});
