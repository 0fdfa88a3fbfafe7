/**
 * The demo's photos: a piece of furniture as a flat coloured silhouette in front of a soft wall,
 * drawn as SVG and encoded as JPEG by sharp (the media service's image library). Nothing is
 * downloaded and nothing is kept in the repository; the same spec gives the same bytes.
 */
import sharp from 'sharp';
import type { Shape } from './data';

export interface PhotoSpec {
  shape: Shape;
  /** the piece's colour */
  colour: string;
  /** the wall behind it */
  wall: string;
  /** a second view: the piece a little smaller and to one side */
  variant: 0 | 1;
}

const W = 1200;
const H = 900;
const FLOOR = 700;

/** A colour lighter (factor > 1) or darker (< 1). */
function shade(hex: string, factor: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (v: number) =>
    Math.max(0, Math.min(255, Math.round(factor > 1 ? v + (255 - v) * (factor - 1) : v * factor)));
  const r = channel((n >> 16) & 255);
  const g = channel((n >> 8) & 255);
  const b = channel(n & 255);
  return `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;
}

const rect = (x: number, y: number, w: number, h: number, fill: string, r = 8) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}"/>`;
const circle = (cx: number, cy: number, r: number, fill: string) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`;
const line = (x1: number, y1: number, x2: number, y2: number, stroke: string, width: number) =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round"/>`;

/** Legs from the piece's underside (y) down to the floor. */
function legs(xs: number[], y: number, colour: string, width = 14): string {
  return xs.map((x) => rect(x - width / 2, y, width, FLOOR - y, colour, 3)).join('');
}

/** The piece, standing on the floor, centred on x = 600. */
function piece(shape: Shape, c: string): string {
  const dark = shade(c, 0.72);
  const light = shade(c, 1.25);
  const wood = '#5a4030';
  switch (shape) {
    case 'sofa':
      return [
        rect(300, 360, 600, 200, dark, 30),
        rect(270, 470, 660, 150, c, 26),
        rect(250, 420, 90, 210, dark, 30),
        rect(860, 420, 90, 210, dark, 30),
        rect(350, 450, 240, 50, light, 18),
        rect(610, 450, 240, 50, light, 18),
        legs([290, 910], 630, wood),
      ].join('');
    case 'armchair':
      return [
        rect(440, 300, 320, 260, dark, 40),
        rect(420, 480, 360, 140, c, 26),
        rect(400, 420, 70, 210, dark, 28),
        rect(730, 420, 70, 210, dark, 28),
        rect(470, 460, 260, 40, light, 16),
        legs([430, 770], 630, wood),
      ].join('');
    case 'bed':
      return [
        rect(260, 330, 60, 330, dark, 10),
        rect(300, 520, 640, 110, dark, 10),
        rect(310, 470, 620, 70, '#f7f5f0', 18),
        rect(330, 440, 150, 50, '#ffffff', 20),
        rect(500, 455, 430, 85, c, 16),
        legs([330, 920], 630, dark),
      ].join('');
    case 'bunk':
      return [
        rect(330, 200, 30, 480, dark, 6),
        rect(840, 200, 30, 480, dark, 6),
        rect(360, 330, 480, 40, c, 8),
        rect(360, 300, 480, 30, '#f7f5f0', 10),
        rect(360, 580, 480, 40, c, 8),
        rect(360, 550, 480, 30, '#f7f5f0', 10),
        rect(360, 230, 480, 18, dark, 6),
        line(780, 370, 780, 560, dark, 8),
        line(740, 420, 780, 420, dark, 6),
        line(740, 480, 780, 480, dark, 6),
        line(740, 370, 740, 560, dark, 8),
      ].join('');
    case 'mattress':
      return [
        rect(280, 560, 640, 100, c, 24),
        line(300, 610, 900, 610, light, 6),
        rect(300, 530, 600, 40, light, 20),
      ].join('');
    case 'table':
      return [
        rect(300, 420, 600, 34, c, 8),
        rect(320, 454, 560, 20, dark, 4),
        legs([340, 860], 474, dark, 22),
        rect(170, 380, 20, 170, dark, 6),
        rect(170, 520, 140, 22, c, 6),
        legs([185, 295], 542, dark),
        rect(1010, 380, 20, 170, dark, 6),
        rect(890, 520, 140, 22, c, 6),
        legs([905, 1015], 542, dark),
      ].join('');
    case 'chairs':
      return [0, 1, 2]
        .map((i) => {
          const x = 280 + i * 230;
          return [
            rect(x, 330, 24, 230, dark, 6),
            rect(x, 340, 150, 80, c, 10),
            rect(x, 530, 170, 26, c, 6),
            legs([x + 12, x + 160], 556, dark),
          ].join('');
        })
        .join('');
    case 'wardrobe':
      return [
        rect(380, 160, 440, 520, c, 10),
        line(600, 180, 600, 660, dark, 5),
        rect(570, 380, 10, 70, dark, 4),
        rect(620, 380, 10, 70, dark, 4),
        rect(370, 150, 460, 24, dark, 6),
        rect(390, 670, 420, 20, dark, 4),
      ].join('');
    case 'chest':
      return [
        rect(400, 380, 400, 290, c, 10),
        ...[0, 1, 2, 3].map((i) => line(415, 450 + i * 60, 785, 450 + i * 60, dark, 5)),
        ...[0, 1, 2, 3].map((i) => rect(575, 412 + i * 60, 50, 10, dark, 4)),
        legs([425, 775], 670, dark),
      ].join('');
    case 'shelf':
      return [
        rect(420, 200, 24, 480, dark, 4),
        rect(756, 200, 24, 480, dark, 4),
        ...[0, 1, 2, 3, 4].map((i) => rect(420, 200 + i * 115, 360, 20, c, 4)),
        rect(470, 250, 30, 65, '#b85c4b', 3),
        rect(505, 260, 26, 55, '#4b7bb8', 3),
        rect(540, 245, 34, 70, '#e0b04a', 3),
        rect(650, 380, 80, 50, '#88a878', 6),
        circle(520, 535, 30, '#e6d3b3'),
      ].join('');
    case 'kitchen':
      return [
        rect(260, 180, 680, 170, c, 8),
        line(486, 190, 486, 340, dark, 5),
        line(712, 190, 712, 340, dark, 5),
        rect(250, 480, 700, 26, '#d9d4cc', 4),
        rect(260, 506, 680, 174, c, 6),
        line(486, 516, 486, 670, dark, 5),
        line(712, 516, 712, 670, dark, 5),
        rect(330, 530, 80, 10, dark, 4),
        rect(560, 530, 80, 10, dark, 4),
        rect(790, 530, 80, 10, dark, 4),
        rect(540, 440, 120, 40, '#bfc5cb', 10),
      ].join('');
    case 'crib':
      return [
        rect(330, 300, 30, 380, c, 8),
        rect(840, 300, 30, 380, c, 8),
        rect(360, 300, 480, 22, c, 6),
        rect(360, 560, 480, 26, c, 6),
        rect(365, 530, 470, 30, '#f7f5f0', 10),
        ...Array.from({ length: 11 }, (_, i) => rect(385 + i * 42, 322, 12, 238, light, 5)),
      ].join('');
    case 'highchair':
      return [
        line(480, 680, 560, 380, dark, 18),
        line(720, 680, 640, 380, dark, 18),
        rect(500, 240, 200, 160, c, 20),
        rect(490, 380, 220, 40, c, 12),
        rect(470, 330, 260, 24, light, 10),
        line(500, 560, 700, 560, dark, 10),
      ].join('');
    case 'desk':
      return [
        rect(280, 420, 640, 30, c, 6),
        rect(720, 450, 180, 230, dark, 6),
        line(735, 520, 885, 520, c, 4),
        line(735, 600, 885, 600, c, 4),
        legs([310], 450, dark, 22),
        rect(450, 270, 220, 140, '#2d3238', 10),
        rect(460, 280, 200, 115, '#7fa7c9', 6),
        rect(545, 400, 30, 20, '#2d3238', 2),
        rect(330, 360, 18, 60, '#e0b04a', 4),
        circle(339, 352, 22, '#f3d27a'),
      ].join('');
    case 'officechair':
      return [
        rect(500, 220, 200, 230, c, 40),
        rect(470, 470, 260, 60, c, 24),
        rect(450, 430, 30, 80, dark, 10),
        rect(720, 430, 30, 80, dark, 10),
        rect(590, 530, 20, 100, '#4a4f55', 4),
        line(480, 660, 720, 660, '#4a4f55', 16),
        circle(480, 672, 14, '#2d3238'),
        circle(720, 672, 14, '#2d3238'),
        circle(600, 672, 14, '#2d3238'),
      ].join('');
    case 'lamp':
      return [
        `<path d="M520 220 L680 220 L730 360 L470 360 Z" fill="${c}"/>`,
        rect(592, 360, 16, 300, '#4a4f55', 4),
        rect(530, 660, 140, 20, '#4a4f55', 8),
        `<ellipse cx="600" cy="380" rx="150" ry="24" fill="#fff6d6" opacity="0.7"/>`,
        rect(820, 300, 150, 110, shade(c, 1.5), 4),
        rect(832, 312, 126, 86, '#ffffff', 2),
      ].join('');
    case 'mirror':
      return [
        rect(470, 180, 260, 480, c, 130),
        rect(495, 205, 210, 430, '#dfe9ef', 110),
        `<path d="M540 300 L620 240 M540 360 L660 270" stroke="#ffffff" stroke-width="10" stroke-linecap="round" opacity="0.8"/>`,
      ].join('');
    case 'rug':
      return [
        `<path d="M260 690 L380 520 L820 520 L940 690 Z" fill="${c}"/>`,
        `<path d="M320 670 L410 545 L790 545 L880 670 Z" fill="none" stroke="${light}" stroke-width="10"/>`,
        `<ellipse cx="600" cy="605" rx="110" ry="35" fill="${dark}"/>`,
      ].join('');
  }
}

export function photoSvg(spec: PhotoSpec): string {
  const floor = shade(spec.wall, 0.86);
  const scale = spec.variant === 0 ? 1 : 0.82;
  const dx = spec.variant === 0 ? 0 : 160;
  const transform = `translate(${600 + dx} ${FLOOR}) scale(${scale}) translate(-600 -${FLOOR})`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<rect width="${W}" height="${FLOOR}" fill="${spec.wall}"/>`,
    `<rect y="${FLOOR}" width="${W}" height="${H - FLOOR}" fill="${floor}"/>`,
    line(0, FLOOR, W, FLOOR, shade(spec.wall, 0.75), 6),
    `<g transform="${transform}">`,
    `<ellipse cx="600" cy="${FLOOR + 8}" rx="380" ry="26" fill="#000000" opacity="0.12"/>`,
    piece(spec.shape, spec.colour),
    '</g>',
    '</svg>',
  ].join('');
}

/** The photo as a JPEG (1200 × 900). */
export async function renderPhoto(spec: PhotoSpec): Promise<Buffer> {
  return sharp(Buffer.from(photoSvg(spec)))
    .jpeg({ quality: 86 })
    .toBuffer();
}
