// Test photos: simple drawings of furniture as JPEGs (the media service wants at least 300x300).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

export type Kind = 'sofa' | 'table' | 'bed' | 'wardrobe';

const SHAPES: Record<Kind, (hue: number) => string> = {
  sofa: (h) => `<rect x="150" y="330" width="900" height="260" rx="40" fill="hsl(${h},45%,45%)"/>
    <rect x="210" y="220" width="780" height="170" rx="40" fill="hsl(${h},45%,55%)"/>`,
  table: (h) => `<rect x="200" y="300" width="800" height="50" rx="10" fill="hsl(${h},40%,40%)"/>
    <rect x="250" y="350" width="40" height="330" fill="hsl(${h},40%,32%)"/>
    <rect x="910" y="350" width="40" height="330" fill="hsl(${h},40%,32%)"/>`,
  bed: (h) => `<rect x="150" y="380" width="900" height="200" rx="20" fill="hsl(${h},35%,55%)"/>
    <rect x="150" y="220" width="60" height="440" fill="hsl(${h},30%,35%)"/>`,
  wardrobe: (
    h,
  ) => `<rect x="330" y="120" width="540" height="560" rx="10" fill="hsl(${h},35%,45%)"/>
    <line x1="600" y1="130" x2="600" y2="670" stroke="#3f3f46" stroke-width="8"/>`,
};

/**
 * A JPEG of a piece of furniture in the given hue, 1200x800 unless another size is asked for (a
 * phone's 4000x3000 photo, to be shrunk in the browser before its upload).
 */
export function furnitureJpeg(
  kind: Kind,
  hue: number,
  size: { width: number; height: number } = { width: 1200, height: 800 },
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 1200 800" preserveAspectRatio="none">
    <rect width="1200" height="800" fill="hsl(${hue},30%,92%)"/>
    <rect y="660" width="1200" height="140" fill="hsl(${hue},15%,80%)"/>${SHAPES[kind](hue)}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Writes JPEGs into a fresh temporary folder (for the file picker); answers their paths. */
export async function writeJpegs(
  files: { name: string; kind: Kind; hue: number; size?: { width: number; height: number } }[],
): Promise<{ dir: string; paths: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moebel-e2e-'));
  const paths: string[] = [];
  for (const file of files) {
    const target = path.join(dir, file.name);
    fs.writeFileSync(target, await furnitureJpeg(file.kind, file.hue, file.size));
    paths.push(target);
  }
  return { dir, paths };
}
