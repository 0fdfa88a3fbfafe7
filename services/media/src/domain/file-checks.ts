import { AppError } from '@furniture/platform/domain';

/** The formats a photo may arrive in (back-office §5). */
export type PhotoFormat = 'jpeg' | 'png' | 'webp';

const FORMAT_LABEL: Record<string, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  gif: 'GIF',
  bmp: 'BMP',
  tiff: 'TIFF',
  heif: 'HEIC/HEIF',
  avif: 'AVIF',
};

const EXTENSIONS: Record<string, PhotoFormat> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.webp': 'webp',
};

// image/jpg and image/pjpeg are what some older phones and browsers declare for JPEG
const MIME_TYPES: Record<string, PhotoFormat> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

export function formatOfFileName(name: string | undefined): PhotoFormat | undefined {
  const match = /\.[^./\\]+$/.exec(name ?? '');
  return match ? EXTENSIONS[match[0].toLowerCase()] : undefined;
}

export function formatOfMimeType(type: string | undefined): PhotoFormat | undefined {
  const bare = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return MIME_TYPES[bare];
}

const startsWith = (data: Buffer, bytes: number[], offset = 0): boolean =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
const ascii = (data: Buffer, text: string, offset = 0): boolean =>
  data.length >= offset + text.length &&
  data.toString('latin1', offset, offset + text.length) === text;

/**
 * What the bytes are (magic numbers): one of our formats, another image format we name in the
 * refusal, or undefined for anything else (text, documents, garbage).
 */
export function sniffFormat(data: Buffer): PhotoFormat | string | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(data, 'RIFF') && ascii(data, 'WEBP', 8)) return 'webp';
  if (ascii(data, 'GIF87a') || ascii(data, 'GIF89a')) return 'gif';
  if (ascii(data, 'BM') && data.length > 26) return 'bmp';
  if (startsWith(data, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  if (ascii(data, 'ftyp', 4)) {
    const brand = data.toString('latin1', 8, 12);
    if (brand.startsWith('avi')) return 'avif';
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'heif';
  }
  return undefined;
}

/** Checks made as soon as the part's headers arrive, before its bytes are read. */
export function checkDeclared(file: { name?: string; type?: string }): void {
  if (!formatOfFileName(file.name)) throw new AppError('PHOTO_INVALID_EXTENSION');
  if (!formatOfMimeType(file.type)) throw new AppError('PHOTO_INVALID_TYPE');
}

/**
 * Extension, declared type and content must all name the same allowed format; answers it.
 */
export function checkContent(file: { name?: string; type?: string; data: Buffer }): PhotoFormat {
  checkDeclared(file);
  const sniffed = sniffFormat(file.data);
  if (sniffed === undefined) throw new AppError('PHOTO_CORRUPT');
  if (sniffed !== 'jpeg' && sniffed !== 'png' && sniffed !== 'webp') {
    throw new AppError('PHOTO_INVALID_TYPE', { extra: { detected: FORMAT_LABEL[sniffed] } });
  }
  if (formatOfFileName(file.name) !== sniffed || formatOfMimeType(file.type) !== sniffed) {
    throw new AppError('PHOTO_TYPE_MISMATCH', {
      params: { detected: FORMAT_LABEL[sniffed] ?? sniffed },
      extra: { detected: FORMAT_LABEL[sniffed] },
    });
  }
  return sniffed;
}
