// A per-user cache of built folder trees ($XDG_CACHE_HOME/moebelbruecke/<name>, else ~/.cache/…),
// one entry per key (a hash of everything the trees were built from): `<key>/` holds the trees
// and a `complete` mark whose time is the entry's last use. Trees go in and out as hard links
// (a copy across file systems), so a hit takes seconds. Used by install.mjs (node_modules) and
// build-spa.mjs (frontend/dist).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** entries kept per cache: the most recently used */
const KEEP = 3;

export function cacheDir(name) {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'moebelbruecke', name);
}

/** Hard links (same file system) else a copy, one folder tree to another. */
export function linkTree(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  let r = spawnSync('cp', ['-al', from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) {
    fs.rmSync(to, { recursive: true, force: true });
    r = spawnSync('cp', ['-a', from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
  }
  if (r.status !== 0) throw new Error(`cp ${from} ${to}: ${String(r.stderr).trim()}`);
}

/** The key's entry folder when it is complete (marked as used now), else null. */
export function usedEntry(cache, key) {
  const mark = path.join(cache, key, 'complete');
  if (!fs.existsSync(mark)) return null;
  const now = new Date();
  fs.utimesSync(mark, now, now);
  return path.join(cache, key);
}

/**
 * Stores the trees ([folder, name in the entry]; missing folders are left out) as the key's
 * entry, whole or not at all, then drops all but the KEEP most recently used entries.
 */
export function storeEntry(cache, key, trees, log) {
  const entry = path.join(cache, key);
  const tmp = `${entry}.tmp-${process.pid}`;
  try {
    fs.mkdirSync(tmp, { recursive: true });
    for (const [from, name] of trees) if (fs.existsSync(from)) linkTree(from, path.join(tmp, name));
    fs.writeFileSync(path.join(tmp, 'complete'), `${new Date().toISOString()}\n`);
    fs.renameSync(tmp, entry); // fails when another clone stored the same key meanwhile: fine
    log(`stored in ${entry}`);
  } catch (err) {
    if (!fs.existsSync(path.join(entry, 'complete'))) log(`not cached: ${err.message}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const entries = fs
    .readdirSync(cache)
    .filter((name) => name !== key && fs.existsSync(path.join(cache, name, 'complete')))
    .map((name) => ({ name, at: fs.statSync(path.join(cache, name, 'complete')).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of entries.slice(KEEP - 1))
    fs.rmSync(path.join(cache, name), { recursive: true, force: true });
}
