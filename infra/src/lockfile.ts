/**
 * An offline check of package-lock.json against the package.json files: what `npm ci` would
 * refuse on some machine, found on this one without asking the registry.
 *
 * `npm ci` builds the tree from the lock file and refuses it when a dependency of the root, a
 * workspace or a locked package is missing from it or locked at a version outside its range.
 * On Linux, `npm ci` skips optional dependencies the registry cannot give it, so a lock file
 * without macOS or Windows binaries (of @swc/core, esbuild, rollup, …) can pass here and still be
 * refused on a Mac. This check treats every optional dependency as required: the lock file must
 * record every platform's binary.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

export interface LockedPackage {
  name?: string;
  version?: string;
  resolved?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  workspaces?: string[];
}

export interface LockFile {
  lockfileVersion?: number;
  packages?: Record<string, LockedPackage>;
}

export interface Manifest extends LockedPackage {
  overrides?: Record<string, unknown>;
}

/** The lock file and the manifests it must agree with: '' is the root, others workspace folders. */
export interface Project {
  lock: LockFile;
  manifests: Record<string, Manifest>;
}

export interface LockProblem {
  /** where in the lock file ('' = root) */
  location: string;
  kind: 'missing' | 'missing-platform-binary' | 'invalid' | 'stale' | 'workspace' | 'format';
  message: string;
}

const DEP_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

/** The workspace folders named by the root package.json ("dir/*" globs expanded). */
export function workspaceFolders(root: string, rootManifest: Manifest): string[] {
  const out: string[] = [];
  for (const pattern of rootManifest.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const dir = pattern.slice(0, -2);
      const abs = path.join(root, dir);
      if (!fs.existsSync(abs)) continue;
      for (const entry of fs
        .readdirSync(abs, { withFileTypes: true })
        .sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.isDirectory() && fs.existsSync(path.join(abs, entry.name, 'package.json')))
          out.push(`${dir}/${entry.name}`);
      }
    } else if (pattern.includes('*')) {
      throw new Error(`workspace pattern ${pattern} is not supported by the lock check`);
    } else {
      out.push(pattern.replace(/\/$/, ''));
    }
  }
  return out;
}

/** Reads package-lock.json and the root's and every workspace's package.json. */
export function readProject(root: string): Project {
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  const rootManifest = read<Manifest>(path.join(root, 'package.json'));
  const manifests: Record<string, Manifest> = { '': rootManifest };
  for (const ws of workspaceFolders(root, rootManifest))
    manifests[ws] = read<Manifest>(path.join(root, ws, 'package.json'));
  return { lock: read<LockFile>(path.join(root, 'package-lock.json')), manifests };
}

/** The folders Node looks in for `location`'s dependencies, nearest first. */
function lookupChain(location: string): string[] {
  const chain: string[] = [];
  let current = location;
  for (;;) {
    chain.push(current === '' ? 'node_modules' : `${current}/node_modules`);
    if (current === '') return chain;
    const i = current.lastIndexOf('/node_modules/');
    current = i >= 0 ? current.slice(0, i) : '';
  }
}

/** Where `name` resolves from `location`, or undefined when the lock file has no such entry. */
export function resolveIn(
  packages: Record<string, LockedPackage>,
  location: string,
  name: string,
): string | undefined {
  return lookupChain(location)
    .map((dir) => `${dir}/${name}`)
    .find((candidate) => packages[candidate] !== undefined);
}

/** A version range npm compares against, or undefined for specs it does not (URLs, tags, files). */
function rangeOf(spec: string): { name?: string; range: string } | undefined {
  let name: string | undefined;
  let range = spec.trim();
  const alias = /^npm:((?:@[^/]+\/)?[^@]+)(?:@(.*))?$/.exec(range);
  if (alias) {
    name = alias[1];
    range = alias[2] ?? '*';
  }
  if (range === '' || range === 'latest') range = '*';
  return semver.validRange(range) === null ? undefined : { name, range };
}

function overrideFor(root: Manifest, name: string): string | undefined {
  const value = root.overrides?.[name];
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('$')) {
    const ref = value.slice(1);
    return (
      root.dependencies?.[ref] ??
      root.devDependencies?.[ref] ??
      root.optionalDependencies?.[ref] ??
      root.peerDependencies?.[ref]
    );
  }
  return value;
}

function sameDeps(a: Record<string, string> = {}, b: Record<string, string> = {}): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** Whether a locked package is another platform's build (has os or cpu restrictions). */
function isPlatformSpecific(pkg: LockedPackage | undefined, name: string): boolean {
  if (pkg && (pkg.os || pkg.cpu)) return true;
  return /(darwin|linux|win32|windows|freebsd|openbsd|netbsd|android|sunos|aix|openharmony|wasm32)/i.test(
    name,
  );
}

/** Every reason `npm ci` would refuse the lock file on one of the platforms (empty: fine). */
export function checkLock(project: Project): LockProblem[] {
  const { lock, manifests } = project;
  const problems: LockProblem[] = [];
  const packages = lock.packages;
  if (!packages || (lock.lockfileVersion ?? 0) < 2) {
    return [
      {
        location: '',
        kind: 'format',
        message: 'package-lock.json has no "packages" section (lockfileVersion 2 or 3 needed)',
      },
    ];
  }
  const rootManifest = manifests['']!;

  // the root's and the workspaces' dependencies as package.json declares them now
  for (const [location, manifest] of Object.entries(manifests)) {
    const locked = packages[location];
    if (!locked) {
      problems.push({
        location,
        kind: 'workspace',
        message: `workspace ${location} is not in the lock file`,
      });
      continue;
    }
    for (const field of DEP_FIELDS) {
      if (!sameDeps(manifest[field], locked[field])) {
        problems.push({
          location,
          kind: 'stale',
          message: `${location || 'package.json'}: ${field} differ from the lock file's record of them`,
        });
      }
    }
    if (location !== '' && manifest.name) {
      const link = packages[`node_modules/${manifest.name}`];
      if (!link?.link || link.resolved !== location) {
        problems.push({
          location,
          kind: 'workspace',
          message: `node_modules/${manifest.name} should link to the workspace ${location}`,
        });
      }
    }
  }

  for (const [location, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    // for the root and the workspaces, package.json is what counts (checked above)
    const isManifest = location in manifests;
    const source: LockedPackage = isManifest ? manifests[location]! : entry;
    const fields = isManifest
      ? DEP_FIELDS
      : (['dependencies', 'optionalDependencies', 'peerDependencies'] as const);
    const who = `${location || 'package.json'}${entry.version && !isManifest ? `@${entry.version}` : ''}`;
    for (const field of fields) {
      for (const [name, declared] of Object.entries(source[field] ?? {})) {
        const peerOptional =
          field === 'peerDependencies' && source.peerDependenciesMeta?.[name]?.optional === true;
        const spec = overrideFor(rootManifest, name) ?? declared;
        const at = resolveIn(packages, location, name);
        if (!at) {
          if (peerOptional) continue;
          if (field === 'optionalDependencies') {
            problems.push({
              location,
              kind: isPlatformSpecific(undefined, name) ? 'missing-platform-binary' : 'missing',
              message: `${who}: optional dependency ${name}@${spec} is not in the lock file (npm ci refuses the lock file where it would be installed)`,
            });
          } else {
            problems.push({
              location,
              kind: 'missing',
              message: `${who}: ${field} ${name}@${spec} is not in the lock file`,
            });
          }
          continue;
        }
        let target = packages[at]!;
        if (target.link && target.resolved) target = packages[target.resolved] ?? target;
        const range = rangeOf(spec);
        if (!range || !target.version) continue;
        if (range.name && target.name && target.name !== range.name) {
          problems.push({
            location,
            kind: 'invalid',
            message: `${who}: ${name} should be ${range.name} (${spec}), the lock file has ${target.name}`,
          });
          continue;
        }
        if (!semver.satisfies(target.version, range.range, { includePrerelease: true })) {
          // a peer range outside is a warning for npm, not a refusal
          if (field === 'peerDependencies') continue;
          problems.push({
            location,
            kind: 'invalid',
            message: `${who}: ${name}@${spec} is locked at ${target.version} (${at}), outside the range`,
          });
        }
      }
    }
  }
  return problems;
}

/** The problems as lines for a person: what is wrong and what to run. */
export function describeProblems(problems: LockProblem[]): string {
  const lines = problems.map((p) => `  - ${p.message}`);
  const platform = problems.some((p) => p.kind === 'missing-platform-binary');
  return [
    `package-lock.json would be refused by npm ci (${problems.length} problem${problems.length === 1 ? '' : 's'}):`,
    ...lines.slice(0, 40),
    ...(lines.length > 40 ? [`  … and ${lines.length - 40} more`] : []),
    '',
    'Regenerate it with `npm run lock` (README: "Adding a dependency").',
    ...(platform
      ? [
          'Another platform binary that npm run lock cannot record is one the registry does not',
          'have: pin the package that wants it to a version whose binaries are all published.',
        ]
      : []),
  ].join('\n');
}
