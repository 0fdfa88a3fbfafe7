// Writes a Brotli (.br) and a gzip (.gz) copy next to every text file of the build that is worth
// compressing, at the highest levels (too slow to do per request). The gateway serves them to
// browsers that accept them (gateway/src/middleware/spa.ts); index.html stays as it is (it
// changes with every build and is small).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const TEXT = /\.(js|css|json|svg|txt)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (TEXT.test(entry.name) && statSync(file).size >= MIN_BYTES) yield file;
  }
}

let count = 0;
for (const file of files(dist)) {
  // the manifest is for the build scripts, the source maps are rarely asked for
  if (file.includes(`${path.sep}.vite${path.sep}`)) continue;
  const raw = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  count++;
}
console.log(`compress: Brotli and gzip copies of ${count} files`);
