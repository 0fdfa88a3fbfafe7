import { File as NodeFile } from 'node:buffer';
import { Limits } from '@furniture/contracts/limits';
import { shrinkForUpload, shrinkPlan, type ImageCodec } from '../shrink-photo';

const MB = 1024 * 1024;

const photo = (name: string, bytes: number, type = 'image/jpeg') =>
  new NodeFile([new Uint8Array(bytes)], name, { type }) as unknown as File;

/** A codec that decodes to the given size and encodes the types it is told it can. */
function fakeCodec(size: { width: number; height: number }, encodes: string[]) {
  const drawn: { width: number; height: number; type: string }[] = [];
  let closed = 0;
  const codec: ImageCodec = {
    decode: async () => ({ ...size, source: {} as CanvasImageSource, close: () => void closed++ }),
    encode: async (_image, width, height, type) => {
      drawn.push({ width, height, type });
      return encodes.includes(type) ? new Blob([new Uint8Array(1000)], { type }) : null;
    },
  };
  return { codec, drawn, closed: () => closed };
}

describe('shrinking a donor photo before the upload', () => {
  test('when the long side is above 2560 px, then it is scaled to 2560 px with its proportions kept', () => {
    expect(Limits.photoUploadLongSide).toBe(2560);
    expect(shrinkPlan({ width: 4000, height: 3000 }, 4 * MB)).toEqual({
      resize: true,
      width: 2560,
      height: 1920,
    });
    // upright phone photos: the height is the long side
    expect(shrinkPlan({ width: 3024, height: 4032 }, 3 * MB)).toEqual({
      resize: true,
      width: 1920,
      height: 2560,
    });
  });

  test('when the photo is already small, then it goes as it is', () => {
    expect(shrinkPlan({ width: 2560, height: 1440 }, 2 * MB)).toEqual({ resize: false });
    expect(shrinkPlan({ width: 800, height: 600 }, 200_000)).toEqual({ resize: false });
  });

  test('when a photo within 2560 px is above 10 MB, then it is encoded again at its size', () => {
    expect(shrinkPlan({ width: 2000, height: 1500 }, 11 * MB)).toEqual({
      resize: true,
      width: 2000,
      height: 1500,
    });
  });

  test('when a 12-megapixel JPEG is shrunk in a browser that encodes WebP, then a 2560 px WebP goes up', async () => {
    const { codec, drawn, closed } = fakeCodec({ width: 4000, height: 3000 }, ['image/webp']);
    const out = await shrinkForUpload(photo('IMG_0001.JPG', 5 * MB), codec);
    expect(drawn).toEqual([{ width: 2560, height: 1920, type: 'image/webp' }]);
    expect(out.name).toBe('IMG_0001.webp');
    expect(out.type).toBe('image/webp');
    expect(closed()).toBe(1);
  });

  test('when the browser encodes no WebP (Safari), then the photo goes up as JPEG', async () => {
    const { codec, drawn } = fakeCodec({ width: 4032, height: 3024 }, ['image/jpeg']);
    const out = await shrinkForUpload(photo('sofa.png', 5 * MB, 'image/png'), codec);
    expect(drawn.map((d) => d.type)).toEqual(['image/webp', 'image/jpeg']);
    expect(out).toMatchObject({ name: 'sofa.jpg', type: 'image/jpeg' });
  });

  test('when the photo is small, then the very same file goes up and nothing is drawn', async () => {
    const { codec, drawn, closed } = fakeCodec({ width: 1200, height: 800 }, ['image/webp']);
    const original = photo('klein.jpg', 300_000);
    expect(await shrinkForUpload(original, codec)).toBe(original);
    expect(drawn).toEqual([]);
    expect(closed()).toBe(1);
  });

  test('when the browser cannot decode or encode the photo, then the original goes and the server decides', async () => {
    const original = photo('kaputt.jpg', 5 * MB);
    const broken: ImageCodec = {
      decode: () => Promise.reject(new Error('not an image')),
      encode: async () => null,
    };
    expect(await shrinkForUpload(original, broken)).toBe(original);
    const { codec } = fakeCodec({ width: 5000, height: 4000 }, []);
    expect(await shrinkForUpload(original, codec)).toBe(original);
  });
});
