import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Label, LabelPrinter } from '../domain/warehouse';

/*
 * Labels as PDF (issue 45) with pdfkit, the QR code drawn from qrcode's modules as vector
 * squares (sharp at any printer's resolution). One label is 105 × 74.25 mm, an eighth of A4: the
 * single label is a page of that size (a label printer, or A4 cut), the sheet two columns of four
 * on A4 (the common 105 × 74 mm label sheets). DejaVu Sans is embedded (subset), so German and
 * Ukrainian names print as typed.
 */

const MM = 72 / 25.4;
const LABEL_W = 105 * MM;
const LABEL_H = (297 / 4) * MM;
const A4: [number, number] = [210 * MM, 297 * MM];
const PAD = 22;
const QR_SIZE = 120;
const COLUMNS = 2;
const ROWS = 4;

const fontDir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
/** the two faces, read once (a label is made in milliseconds; reading 1.4 MB each time is not) */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
const fontsOnce = () =>
  (fonts ??= {
    regular: fs.readFileSync(path.join(fontDir, 'DejaVuSans.ttf')),
    bold: fs.readFileSync(path.join(fontDir, 'DejaVuSans-Bold.ttf')),
  });

function newDocument(size: [number, number]): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size,
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Möbelbrücke – Etiketten', Creator: 'Möbelbrücke' },
  });
  const { regular, bold } = fontsOnce();
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  return doc;
}

function finish(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** The QR code of `text` as filled squares, a row's dark run as one rectangle. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const m = size / n;
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      // a hair wider than the module: no white seams between neighbours in a viewer
      doc.rect(x + start * m, y + row * m, (col - start) * m + 0.05, m + 0.05);
    }
  }
  doc.fill('#000000');
}

/** One label with its top left corner at (x, y). */
function drawLabel(doc: PDFKit.PDFDocument, label: Label, x: number, y: number): void {
  doc.save();
  doc
    .lineWidth(0.5)
    .strokeColor('#bbbbbb')
    .rect(x + 2, y + 2, LABEL_W - 4, LABEL_H - 4)
    .stroke();
  doc.restore();
  drawQr(doc, label.url, x + PAD, y + PAD, QR_SIZE);

  const right = x + PAD + QR_SIZE + 12;
  const rightWidth = x + LABEL_W - PAD - right;
  doc.fillColor('#000000').font('regular').fontSize(13);
  doc.text(label.caption, right, y + PAD, { width: rightWidth, height: 18, ellipsis: true });
  const [first, second] = label.printed.split(' ');
  doc.font('bold').fontSize(36);
  doc.text(first ?? '', right, y + PAD + 24, { width: rightWidth, lineBreak: false });
  doc.text(second ?? '', right, y + PAD + 66, { width: rightWidth, lineBreak: false });

  const textWidth = LABEL_W - 2 * PAD;
  const below = y + PAD + QR_SIZE + 8;
  doc.font('bold').fontSize(11);
  doc.text(label.title, x + PAD, below, { width: textWidth, height: 28, ellipsis: true });
  if (label.subtitle) {
    doc.font('regular').fontSize(9);
    doc.text(label.subtitle, x + PAD, below + 29, { width: textWidth, height: 12, ellipsis: true });
  }
}

export const pdfLabelPrinter: LabelPrinter = {
  async single(label) {
    const doc = newDocument([LABEL_W, LABEL_H]);
    doc.addPage();
    drawLabel(doc, label, 0, 0);
    return finish(doc);
  },

  async sheet(labels) {
    const doc = newDocument(A4);
    labels.forEach((label, i) => {
      const slot = i % (COLUMNS * ROWS);
      if (slot === 0) doc.addPage();
      drawLabel(doc, label, (slot % COLUMNS) * LABEL_W, Math.floor(slot / COLUMNS) * LABEL_H);
    });
    return finish(doc);
  },
};
