import { startMedia, upload, type MediaUnderTest } from './harness';
import { hugePng } from './images';

let svc: MediaUnderTest;

beforeAll(async () => {
  svc = await startMedia();
});
afterAll(async () => {
  await svc?.stop();
});

/** Samples this process's resident memory (the service runs in it) while `work` runs. */
async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

test('when a small PNG decodes to 12000x12000 pixels, then it is refused from its header and memory stays bounded', async () => {
  const bomb = await hugePng(12000, 12000);
  expect(bomb.length).toBeLessThan(1024 * 1024); // under 1 MB on disk, 144 megapixels decoded
  const lotId = await svc.createLot();
  const baselineMb = process.memoryUsage().rss / 1024 / 1024;

  const { result: res, peakMb } = await peakRssDuring(() =>
    upload(svc.url, lotId, bomb, { name: 'bombe.png', type: 'image/png' }),
  );

  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({
    code: 'PHOTO_TOO_MANY_PIXELS',
    width: 12000,
    height: 12000,
    max_megapixels: 50,
  });
  // decoding it would take 144 MB as grey and 432 MB as RGB; refusing it costs next to nothing
  const growthMb = peakMb - baselineMb;
  process.stderr.write(
    `[memory] baseline ${baselineMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB, growth ${growthMb.toFixed(1)} MB\n`,
  );
  expect(growthMb).toBeLessThan(100);
  expect(await svc.keysOf(`lots/${lotId}/`)).toEqual([]);
  expect(await svc.conn.collection('photos').countDocuments({ lot_id: lotId })).toBe(0);
});
