// .env.example names every setting: each key a configuration parser declares (services, gateway)
// and each variable the code reads from the environment (platform, launcher, admin command line,
// the SPA's build, compose) has its line there.
import fs from 'node:fs';
import path from 'node:path';
import { ServiceNames } from '@furniture/contracts';
import { REPO_ROOT } from '../src/paths';

/** The machine's, not the platform's. */
const NOT_SETTINGS = new Set(['XDG_CACHE_HOME', 'HOME', 'PATH', 'CI']);

const READS = [
  /process\.env\.([A-Z][A-Z0-9_]+)/g,
  /process\.env\[['"]([A-Z][A-Z0-9_]+)/g,
  /\benv\.([A-Z][A-Z0-9_]+)/g,
  /\benv\[['"]([A-Z][A-Z0-9_]+)/g,
  // the launcher's own helpers: envUrl('MONGO_URL'), binEnv: 'FERRETDB_BIN', number('RUN_LOG_KEEP', …), ports
  /(?:envUrl\(|binEnv: |number\()'([A-Z][A-Z0-9_]+)'/g,
  /: '([A-Z][A-Z0-9_]*_PORT)'/g,
  // the SPA's build settings: text('VITE_…'), wholeNumber('VITE_…')
  /\('(VITE_[A-Z0-9_]+)'/g,
];
/** A configuration parser's keys: `  KEY: z…` or `  KEY: envInt(…)` in a config.ts. */
const DECLARED = /^\s+([A-Z][A-Z0-9_]+): /gm;

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'test', '__tests__', 'bench'].includes(entry.name))
        sources(full, out);
    } else if (/\.(ts|mjs|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

function settingsReadInCode(): Set<string> {
  const found = new Set<string>();
  const files = [
    ...fs
      .readdirSync(path.join(REPO_ROOT, 'services'))
      .filter((d) => d !== 'libs')
      .flatMap((d) => sources(path.join(REPO_ROOT, 'services', d, 'src'))),
    ...sources(path.join(REPO_ROOT, 'services/libs/platform/src')),
    ...sources(path.join(REPO_ROOT, 'gateway/src')),
    ...sources(path.join(REPO_ROOT, 'infra/src')),
    // the Go tools' builder, plain JavaScript run before npm ci
    path.join(REPO_ROOT, 'scripts/go-tools.cjs'),
    path.join(REPO_ROOT, 'frontend/src/config/env.ts'),
    path.join(REPO_ROOT, 'frontend/vite.config.ts'),
    path.join(REPO_ROOT, 'jest.config.js'),
  ];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const re of READS) for (const m of text.matchAll(re)) found.add(m[1]!);
    if (path.basename(file) === 'config.ts')
      for (const m of text.matchAll(DECLARED)) found.add(m[1]!);
  }
  const compose = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
  for (const m of compose.matchAll(/\$\{([A-Z][A-Z0-9_]+)[:}]/g)) found.add(m[1]!);
  // the admin command line's database of each service (read as `${SERVICE}_MONGO_DB`)
  for (const service of ServiceNames) found.add(`${service.toUpperCase()}_MONGO_DB`);
  for (const name of NOT_SETTINGS) found.delete(name);
  return found;
}

const named = new Set(
  [
    ...fs
      .readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8')
      .matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm),
  ].map((m) => m[1]!),
);

test('when the code reads a setting, then .env.example names it with its default', () => {
  const read = settingsReadInCode();
  // the scan finds what it should: keys of parsers, of the launcher, of the SPA's build
  for (const known of ['SESSION_IDLE_SECONDS', 'RUN_LOG_KEEP', 'MONGO_PORT', 'VITE_CONTACT_CITY'])
    expect([known, read.has(known)]).toEqual([known, true]);
  const missing = [...read].filter((key) => !named.has(key)).sort();
  expect(missing).toEqual([]);
});

test('when .env.example names a setting, then it is one the code or compose reads', () => {
  const read = settingsReadInCode();
  // make's own variables are read by the Makefile
  const makefile = fs.readFileSync(path.join(REPO_ROOT, 'Makefile'), 'utf8');
  const stale = [...named].filter((key) => !read.has(key) && !makefile.includes(key)).sort();
  expect(stale).toEqual([]);
});
