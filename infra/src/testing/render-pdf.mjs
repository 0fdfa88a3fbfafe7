// Renders every page of a PDF (read from stdin) with MuPDF's WebAssembly build and prints, as
// JSON, each page's size, its RGB pixels (base64) and its text. A process of its own: the mupdf
// package is an ES module with top-level await, which jest's CommonJS tests cannot load.
import * as mupdf from 'mupdf';

const dpi = Number(process.argv[2] ?? 150);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const doc = mupdf.Document.openDocument(Buffer.concat(chunks), 'application/pdf');
const pages = [];
for (let i = 0; i < doc.countPages(); i++) {
  const page = doc.loadPage(i);
  const pixmap = page.toPixmap(
    mupdf.Matrix.scale(dpi / 72, dpi / 72),
    mupdf.ColorSpace.DeviceRGB,
    false,
    true,
  );
  pages.push({
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    rgb: Buffer.from(pixmap.getPixels()).toString('base64'),
    text: page.toStructuredText().asText(),
  });
}
process.stdout.write(JSON.stringify(pages));
