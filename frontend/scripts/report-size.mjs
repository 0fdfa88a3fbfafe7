// Prints the gzipped size of the JavaScript the home page loads first (the entry chunk and
// everything it imports statically, from Vite's manifest) and fails above the budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 125;
const dist = path.resolve(import.meta.dirname, '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('report-size: no entry in dist/.vite/manifest.json');
  process.exit(1);
}

/** the entry and its static imports, each once */
const files = new Set();
const css = new Set();
(function walk(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
  for (const imported of chunk.imports ?? []) walk(imported);
})(entryKey);

const gzip = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes) => (bytes / 1000).toFixed(1);

let total = 0;
console.log('\nInitial JavaScript of the home page (gzip):');
for (const file of files) {
  const size = gzip(file);
  total += size;
  console.log(`  ${file.padEnd(48)} ${kb(size).padStart(7)} kB`);
}
const cssTotal = [...css].reduce((sum, file) => sum + gzip(file), 0);
console.log(`  ${'total'.padEnd(48)} ${kb(total).padStart(7)} kB  (budget ${BUDGET_KB} kB)`);
console.log(`  (CSS, not counted: ${kb(cssTotal)} kB gzip)\n`);

if (total > BUDGET_KB * 1000) {
  console.error(
    `report-size: the home page's initial JavaScript is ${kb(total)} kB gzip, over the ${BUDGET_KB} kB budget`,
  );
  process.exit(1);
}
