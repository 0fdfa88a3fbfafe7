import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';

/** A photo-like image: a smooth colour field with some noise, so encoders have work to do. */
export async function photoPixels(width: number, height: number, seed = 1): Promise<sharp.Sharp> {
  const w = Math.max(8, Math.round(width / 16));
  const h = Math.max(8, Math.round(height / 16));
  const small = Buffer.alloc(w * h * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < small.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    small[i] = (i % 3) * 60 + (x % 80);
  }
  const base = await sharp(small, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  return sharp(base, { raw: { width, height, channels: 3 } });
}

export async function jpeg(width: number, height: number, seed = 1): Promise<Buffer> {
  return (await photoPixels(width, height, seed)).jpeg({ quality: 85 }).toBuffer();
}

export async function png(width: number, height: number, withAlpha = false): Promise<Buffer> {
  const img = await photoPixels(width, height);
  return (withAlpha ? img.ensureAlpha(0.8) : img).png().toBuffer();
}

export async function webp(width: number, height: number): Promise<Buffer> {
  return (await photoPixels(width, height)).webp({ quality: 80 }).toBuffer();
}

/**
 * A 600x400 JPEG whose pixels are stored sideways with EXIF orientation 6 (display rotated 90°
 * clockwise), with GPS coordinates: left half red, right half blue as stored, so the correctly
 * oriented image is red on top and blue below, 400 wide and 600 high.
 */
export async function sidewaysJpegWithGps(): Promise<Buffer> {
  const width = 600;
  const height = 400;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (x < width / 2) raw[i] = 220;
      else raw[i + 2] = 220;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'PhonyPhone', Model: 'Spy 3000' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '52/1 31/1 12/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '13/1 24/1 36/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Tags of IFD0 of an EXIF block (the GPS IFD pointer is tag 0x8825). */
export function exifIfd0Tags(exif: Buffer): number[] {
  let b = exif;
  if (b.toString('latin1', 0, 6) === 'Exif\0\0') b = b.subarray(6);
  const le = b.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const ifd0 = u32(4);
  const tags: number[] = [];
  for (let i = 0; i < u16(ifd0); i++) tags.push(u16(ifd0 + 2 + i * 12));
  return tags;
}

/** Chunk ids of a WebP (RIFF) file: VP8/VP8L/VP8X/ALPH, and EXIF/XMP/ICCP when metadata is kept. */
export function webpChunks(data: Buffer): string[] {
  const chunks: string[] = [];
  let offset = 12;
  while (offset + 8 <= data.length) {
    chunks.push(data.toString('latin1', offset, offset + 4));
    const size = data.readUInt32LE(offset + 4);
    offset += 8 + size + (size % 2);
  }
  return chunks;
}

/** A JPEG cut off in the middle of its scan data. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await jpeg(1200, 900, 7);
  return full.subarray(0, Math.floor(full.length * 0.6));
}

/** `bytes` bytes that start like a JPEG (size is checked before anything else). */
export function oversizedJpegLike(bytes: number): Buffer {
  const data = randomBytes(bytes);
  data[0] = 0xff;
  data[1] = 0xd8;
  data[2] = 0xff;
  return data;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid grey PNG of width x height that is tiny on disk (every pixel black), built row by row
 * so the test process never holds the decoded image: the classic decompression bomb.
 */
export async function hugePng(width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(width + 1); // filter byte 0 + black pixels
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.concat(parts)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
