// `npm ci`, once per lock file and user: the installed node_modules folders (the root's and the
// workspaces') are kept in a per-user cache named by a hash of everything the install depends
// on (package-lock.json, every package.json, Node's ABI, platform). A clone whose hash is cached
// gets them as hard links in seconds; any other runs `npm ci` and stores the result. A changed
// lock file or package.json changes the hash, so it always installs exactly what the lock says.
// Cache: $XDG_CACHE_HOME/moebelbruecke/node_modules (else ~/.cache/…), FURNITURE_NODE_MODULES_CACHE
// moves it; NO_NODE_MODULES_CACHE=1 (or an unusable cache) falls back to a plain `npm ci`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, linkTree, storeEntry, usedEntry } from './tree-cache.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** Bump when what is stored, or how, changes: old entries are then left unused (and pruned). */
const RECIPE = '1';

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const workspaces = /** @type {string[]} */ (pkg.workspaces ?? []);
const nodeModulesDirs = ['node_modules', ...workspaces.map((w) => path.join(w, 'node_modules'))];

function cacheRoot() {
  if (process.env.FURNITURE_NODE_MODULES_CACHE)
    return path.resolve(process.env.FURNITURE_NODE_MODULES_CACHE);
  return cacheDir('node_modules');
}

function installKey() {
  const hash = createHash('sha256');
  hash.update(
    `recipe ${RECIPE}\n${process.platform} ${process.arch} abi ${process.versions.modules}\n`,
  );
  for (const file of [
    'package-lock.json',
    'package.json',
    ...workspaces.map((w) => `${w}/package.json`),
  ]) {
    hash.update(`${file}\n`);
    const full = path.join(root, file);
    hash.update(fs.existsSync(full) ? fs.readFileSync(full) : '(missing)');
  }
  return hash.digest('hex').slice(0, 24);
}

const log = (line) => process.stdout.write(`install: ${line}\n`);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

function removeInstalled() {
  for (const dir of nodeModulesDirs)
    fs.rmSync(path.join(root, dir), { recursive: true, force: true });
}

function restore(entry) {
  removeInstalled();
  for (const dir of nodeModulesDirs) {
    const from = path.join(entry, dir);
    if (fs.existsSync(from)) linkTree(from, path.join(root, dir));
  }
}

function store(cache, key) {
  // the Makefile's stamp is written after this script, by the clone that ran it
  fs.rmSync(path.join(root, 'node_modules', '.install-stamp'), { force: true });
  const trees = nodeModulesDirs.map((dir) => [path.join(root, dir), dir]);
  storeEntry(cache, key, trees, log);
}

function npmCi() {
  run('npm', ['ci', '--no-audit', '--no-fund']);
  if (!argon2Works()) run('npm', ['rebuild', 'argon2']);
}

/** argon2 must be compiled here (allowScripts); an older install may hold the crashing prebuild. */
function argon2Works() {
  const r = spawnSync(process.execPath, ['-e', "require('argon2').hash('x')"], {
    cwd: root,
    stdio: 'ignore',
  });
  return r.status === 0;
}

const started = Date.now();
const key = installKey();
const cache = cacheRoot();
const entry = process.env.NO_NODE_MODULES_CACHE === '1' ? null : usedEntry(cache, key);
if (process.env.NO_NODE_MODULES_CACHE === '1') {
  npmCi();
} else if (entry) {
  try {
    restore(entry);
    log(
      `node_modules ${key} linked from ${cache} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (!argon2Works()) run('npm', ['rebuild', 'argon2']);
  } catch (err) {
    log(`restoring from the cache failed (${err.message}): npm ci`);
    npmCi();
  }
} else {
  npmCi();
  store(cache, key);
}
