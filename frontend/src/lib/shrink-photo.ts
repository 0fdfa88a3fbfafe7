import { Limits } from '@furniture/contracts/limits';

/** A decoded image, ready to be drawn at another size. */
export interface DecodedImage {
  width: number;
  height: number;
  source: CanvasImageSource;
  close(): void;
}

/**
 * Decodes a photo (turned upright by its orientation tag, as browsers do by default); null
 * where the browser has no createImageBitmap or canvas. Rejects for a file that is no image.
 */
export async function decodeImage(file: Blob): Promise<DecodedImage | null> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return null;
  const bitmap = await createImageBitmap(file);
  return {
    width: bitmap.width,
    height: bitmap.height,
    source: bitmap,
    close: () => bitmap.close(),
  };
}

/**
 * Draws the image at width × height and encodes it as `type`; null where the browser cannot
 * (no 2D canvas, or it answered another type: Safari encodes no WebP and answers PNG).
 */
export async function encodeImage(
  image: DecodedImage,
  width: number,
  height: number,
  type: 'image/webp' | 'image/jpeg',
  quality = 0.9,
): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.imageSmoothingQuality = 'high';
  context.drawImage(image.source, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
  return blob && blob.type === type ? blob : null;
}

export type ShrinkPlan = { resize: false } | { resize: true; width: number; height: number };

/**
 * Whether a photo goes up as it is or drawn anew: a long side above `maxSide` is scaled down to
 * it (proportions kept); a photo within it but above `maxBytes` is encoded again at its size
 * (the server refuses it otherwise); anything else, a photo that is already small, goes as it
 * is, untouched.
 */
export function shrinkPlan(
  size: { width: number; height: number },
  bytes: number,
  limits: { maxSide: number; maxBytes: number } = {
    maxSide: Limits.photoUploadLongSide,
    maxBytes: Limits.photoMaxBytes,
  },
): ShrinkPlan {
  const long = Math.max(size.width, size.height);
  if (long > limits.maxSide) {
    const scale = limits.maxSide / long;
    return {
      resize: true,
      width: Math.max(1, Math.round(size.width * scale)),
      height: Math.max(1, Math.round(size.height * scale)),
    };
  }
  if (bytes > limits.maxBytes) return { resize: true, width: size.width, height: size.height };
  return { resize: false };
}

export interface ImageCodec {
  decode(file: Blob): Promise<DecodedImage | null>;
  encode: typeof encodeImage;
}

const browserCodec: ImageCodec = { decode: decodeImage, encode: encodeImage };

const EXTENSION = { 'image/webp': '.webp', 'image/jpeg': '.jpg' } as const;

/**
 * A photo as it should go up, a donor's (issue 28) or a lot's in the back-office (issue 46): a
 * phone's 12-megapixel photo is drawn anew at 2560 px on its long side at most (shrinkPlan) as
 * WebP, or JPEG where the browser encodes no WebP, so it travels in seconds on a mobile
 * connection and the server decodes a third of the pixels; a small photo goes as it is. Where
 * the browser cannot decode or encode, the original goes and the server decides. A drawn photo
 * is named by `nameOf` (its extension given), else after the original.
 */
export async function shrinkForUpload(
  file: File,
  codec: ImageCodec = browserCodec,
  nameOf: (extension: string) => string = (extension) =>
    `${file.name.replace(/\.[^.]*$/, '') || 'photo'}${extension}`,
): Promise<File> {
  let image: DecodedImage | null;
  try {
    image = await codec.decode(file);
  } catch {
    return file;
  }
  if (!image) return file;
  try {
    const plan = shrinkPlan(image, file.size);
    if (!plan.resize) return file;
    for (const type of ['image/webp', 'image/jpeg'] as const) {
      const blob = await codec.encode(image, plan.width, plan.height, type, 0.88);
      if (blob) return new File([blob], nameOf(EXTENSION[type]), { type });
    }
    return file;
  } catch {
    return file;
  } finally {
    image.close();
  }
}
