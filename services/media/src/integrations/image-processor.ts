import sharp from 'sharp';
import { PhotoSizeNames, PhotoSizes, type PhotoSizeName } from '@furniture/contracts';
import { ImageDecodeError, ImagePixelLimitError, ImageTimeoutError } from '../domain/records';

export { ImageDecodeError, ImagePixelLimitError, ImageTimeoutError } from '../domain/records';

export interface ImageHeader {
  format: string;
  /** after applying the EXIF orientation */
  width: number;
  height: number;
}

export interface Rendition {
  size: PhotoSizeName;
  data: Buffer;
}

export interface ImageProcessor {
  /** Reads dimensions and format from the header only, without decoding pixels. */
  readHeader(data: Buffer): Promise<ImageHeader>;
  /** Decodes once, applies the EXIF orientation, drops all metadata, encodes every size as WebP. */
  render(data: Buffer): Promise<Rendition[]>;
}

function classify(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (/timeout/i.test(message)) return new ImageTimeoutError(message);
  if (/pixel limit/i.test(message)) return new ImagePixelLimitError(message);
  return new ImageDecodeError(message);
}

/**
 * sharp (libvips). Settings that bound the work of one image:
 * - `limitInputPixels`: images with more pixels are refused from their header before decoding;
 * - `failOn: 'error'`: truncated or broken pixel data is refused (harmless warnings are not);
 * - a timeout over the whole decode and encode (sharp stops the libvips work when it passes);
 * - `concurrency`: libvips threads per pipeline; the cache is off (every image is new).
 * The sizes and WebP qualities are PhotoSizes from the contracts.
 */
export function sharpImageProcessor(opts: {
  maxInputPixels: number;
  timeoutSeconds: number;
  concurrency: number;
  effort: number;
}): ImageProcessor {
  sharp.concurrency(opts.concurrency);
  sharp.cache(false);
  const largest = Math.max(...PhotoSizeNames.map((s) => PhotoSizes[s].maxSide));

  return {
    async readHeader(data) {
      try {
        const meta = await sharp(data, { limitInputPixels: false }).metadata();
        const width = meta.autoOrient?.width ?? meta.width;
        const height = meta.autoOrient?.height ?? meta.height;
        if (!meta.format || !width || !height) throw new Error('no dimensions in the header');
        return { format: meta.format, width, height };
      } catch (err) {
        throw new ImageDecodeError(err instanceof Error ? err.message : String(err));
      }
    },

    async render(data) {
      const deadline = Date.now() + opts.timeoutSeconds * 1000;
      const secondsLeft = () => {
        const left = Math.ceil((deadline - Date.now()) / 1000);
        if (left <= 0) throw new ImageTimeoutError('processing timeout');
        return left;
      };
      try {
        // one decode, oriented, converted to sRGB and shrunk to the largest size we keep
        const base = await sharp(data, {
          limitInputPixels: opts.maxInputPixels,
          failOn: 'error',
          autoOrient: true,
          sequentialRead: true,
        })
          .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
          .toColourspace('srgb')
          .raw({ depth: 'uchar' })
          .timeout({ seconds: secondsLeft() })
          .toBuffer({ resolveWithObject: true });
        const raw = {
          width: base.info.width,
          height: base.info.height,
          channels: base.info.channels as 1 | 2 | 3 | 4,
        };
        // the three sizes encoded at once, each on a thread of the libuv pool (thread-pool.ts):
        // one photo alone keeps both cores busy after its decode, and while fewer images than
        // cores are in processing the cores still have work
        const encoded = await Promise.allSettled(
          PhotoSizeNames.map(async (size): Promise<Rendition> => {
            const { maxSide, quality } = PhotoSizes[size];
            // raw pixels carry no metadata at all: EXIF (GPS), XMP, IPTC and ICC are gone
            const data = await sharp(base.data, { raw })
              .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
              .webp({ quality, effort: opts.effort })
              .timeout({ seconds: secondsLeft() })
              .toBuffer();
            return { size, data };
          }),
        );
        // every encode has ended before the image leaves processing, also when one failed
        const failed = encoded.find((e) => e.status === 'rejected');
        if (failed) throw failed.reason;
        return encoded.map((e) => (e as PromiseFulfilledResult<Rendition>).value);
      } catch (err) {
        if (err instanceof ImageTimeoutError) throw err;
        throw classify(err);
      }
    },
  };
}
