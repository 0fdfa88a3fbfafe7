// The SPA's production build (frontend/dist) for `make run`, kept in a per-user cache named by a
// hash of everything it is built from: frontend/ (without node_modules, dist and the browser
// tests), the contracts' sources it bundles, the lock file, the root package.json (its version),
// the VITE_* environment and Node's version. A clone whose hash is cached gets frontend/dist as
// hard links in a second; any other runs the steps of the frontend's `npm run build` but its type
// check (which is make typecheck's, as for the servers): vite build, size budget, compression, and
// stores the result. Cache: $XDG_CACHE_HOME/moebelbruecke/spa (else ~/.cache/…); NO_SPA_CACHE=1
// always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, linkTree, storeEntry, usedEntry } from './tree-cache.mjs';

const root = path.resolve(import.meta.dirname, '..');
const RECIPE = '1';
const dist = path.join(root, 'frontend', 'dist');
const cache = cacheDir('spa');
const log = (line) => process.stdout.write(`spa: ${line}\n`);

/** Files under dir (sorted, relative to the repository), without the skipped folders. */
function files(dir, skip = new Set()) {
  const found = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!skip.has(full) && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(full);
      } else if (e.isFile()) found.push(path.relative(root, full));
    }
  };
  walk(path.join(root, dir));
  return found.sort();
}

function buildKey() {
  const hash = createHash('sha256');
  hash.update(`recipe ${RECIPE}\nnode ${process.version}\n`);
  const vite = Object.entries(process.env)
    .filter(([k]) => k.startsWith('VITE_'))
    .sort(([a], [b]) => a.localeCompare(b));
  hash.update(`${JSON.stringify(vite)}\n`);
  const inputs = [
    'package-lock.json',
    // its version is shown in the back-office
    'package.json',
    'tsconfig.base.json',
    ...files('frontend', new Set(['dist', 'e2e'].map((d) => path.join(root, 'frontend', d)))),
    ...files('services/libs/contracts/src'),
  ];
  for (const file of inputs) {
    hash.update(`${file}\n`);
    hash.update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex').slice(0, 24);
}

function build() {
  const frontend = path.join(root, 'frontend');
  for (const args of [
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
    ['scripts/report-size.mjs'],
    ['scripts/compress.mjs'],
  ]) {
    const r = spawnSync(process.execPath, args, { cwd: frontend, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

const started = Date.now();
if (process.env.NO_SPA_CACHE === '1') {
  build();
  process.exit(0);
}
const key = buildKey();
const entry = usedEntry(cache, key);
if (entry) {
  fs.rmSync(dist, { recursive: true, force: true });
  linkTree(path.join(entry, 'dist'), dist);
  log(
    `frontend/dist ${key} linked from ${cache} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exit(0);
}
build();
storeEntry(cache, key, [[dist, 'dist']], log);
