// What tests need of printed labels (issue 45): a PDF rendered to images (MuPDF), the QR code on
// an image decoded (jsQR), and a label filmed for Chromium's fake camera (a Y4M video).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';

/** One rendered page: RGB pixels, and the text MuPDF extracts from it. */
export interface RenderedPage {
  width: number;
  height: number;
  /** 3 bytes a pixel, rows top to bottom */
  rgb: Buffer;
  text: string;
}

/** Renders every page of a PDF at `dpi` (in a process of its own: see render-pdf.mjs). */
export async function renderPdf(pdf: Buffer, dpi = 150): Promise<RenderedPage[]> {
  const script = path.join(__dirname, 'render-pdf.mjs');
  const run = promisify(execFile);
  const child = run(process.execPath, [script, String(dpi)], {
    maxBuffer: 512 * 1024 * 1024,
    encoding: 'utf8',
  });
  child.child.stdin!.end(pdf);
  const { stdout } = await child;
  const pages = JSON.parse(stdout) as (Omit<RenderedPage, 'rgb'> & { rgb: string })[];
  return pages.map((p) => ({ ...p, rgb: Buffer.from(p.rgb, 'base64') }));
}

/** A part of a page (x, y, width, height in pixels). */
export function crop(
  page: RenderedPage,
  box: { x: number; y: number; width: number; height: number },
): RenderedPage {
  const rgb = Buffer.alloc(box.width * box.height * 3);
  for (let row = 0; row < box.height; row++) {
    const from = ((box.y + row) * page.width + box.x) * 3;
    page.rgb.copy(rgb, row * box.width * 3, from, from + box.width * 3);
  }
  return { width: box.width, height: box.height, rgb, text: '' };
}

/** The content of the (one) QR code on the image, or null when there is none. */
export function decodeQr(page: RenderedPage): string | null {
  const rgba = new Uint8ClampedArray(page.width * page.height * 4);
  for (let i = 0, j = 0; i < page.rgb.length; i += 3, j += 4) {
    rgba[j] = page.rgb[i]!;
    rgba[j + 1] = page.rgb[i + 1]!;
    rgba[j + 2] = page.rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  return jsQR(rgba, page.width, page.height)?.data ?? null;
}

/**
 * A Y4M video (4:2:0) of the image held before a camera: the image scaled to fit a
 * `width` × `height` frame on a grey background, the same frame `frames` times. Chromium plays it
 * as its fake camera (--use-file-for-fake-video-capture) and loops it.
 */
export function y4mOf(
  image: RenderedPage,
  opts: { width?: number; height?: number; frames?: number; fps?: number } = {},
): Buffer {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const scale = Math.min((width * 0.9) / image.width, (height * 0.9) / image.height);
  const w = Math.floor(image.width * scale);
  const h = Math.floor(image.height * scale);
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  const y = Buffer.alloc(width * height, 128);
  const rgbAt = (fx: number, fy: number) => {
    const sx = Math.min(image.width - 1, Math.floor((fx - left) / scale));
    const sy = Math.min(image.height - 1, Math.floor((fy - top) / scale));
    const i = (sy * image.width + sx) * 3;
    return [image.rgb[i]!, image.rgb[i + 1]!, image.rgb[i + 2]!] as const;
  };
  const inside = (fx: number, fy: number) =>
    fx >= left && fx < left + w && fy >= top && fy < top + h;
  for (let fy = 0; fy < height; fy++)
    for (let fx = 0; fx < width; fx++) {
      if (!inside(fx, fy)) continue;
      const [r, g, b] = rgbAt(fx, fy);
      y[fy * width + fx] = Math.round(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256);
    }
  // grey has no colour: both chroma planes stay neutral (128), which a black-on-white label needs
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  const header = Buffer.from(
    `YUV4MPEG2 W${width} H${height} F${opts.fps ?? 10}:1 Ip A1:1 C420jpeg\n`,
  );
  return Buffer.concat([header, ...Array.from({ length: opts.frames ?? 10 }, () => frame)]);
}
