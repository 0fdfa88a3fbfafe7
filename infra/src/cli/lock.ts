/**
 * `npm run lock`: brings package-lock.json in line with the package.json files and makes sure it
 * records every platform's optional binaries, so that `npm ci` accepts it on Linux, macOS and
 * Windows. `npm run lock -- --check` only checks (what the test in `make test` does).
 *
 * 1. `npm install --package-lock-only` (resolves added, removed or changed dependencies and git
 *    merge conflict markers in the lock file; node_modules is not touched);
 * 2. the offline check of infra/src/lockfile.ts;
 * 3. when other platforms' binaries are missing (npm leaves them out in some situations), the
 *    packages that want them are dropped from the lock file and resolved once more, which
 *    records all of their binaries; what is still missing then is not in the registry.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { checkLock, describeProblems, readProject, resolveIn, type LockFile } from '../lockfile';
import { REPO_ROOT } from '../paths';

const LOCK = path.join(REPO_ROOT, 'package-lock.json');

function lockOnlyInstall(): void {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) {
    console.error('npm install --package-lock-only failed');
    process.exit(result.status ?? 1);
  }
}

/**
 * Drops the packages at `locations` from the lock file, with what is nested below them and every
 * package that depends on them up to the root's or a workspace's own dependency: npm resolves
 * such a dependency afresh, with all its optional binaries, while it leaves a locked package
 * deeper in the tree as it is.
 */
function forget(locations: string[], manifests: Set<string>): void {
  const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8')) as LockFile;
  const packages = lock.packages ?? {};
  const doomed = new Set<string>();
  const queue = [...locations];
  while (queue.length > 0) {
    const loc = queue.pop()!;
    if (doomed.has(loc) || manifests.has(loc) || !packages[loc]) continue;
    doomed.add(loc);
    for (const [key, entry] of Object.entries(packages)) {
      if (doomed.has(key) || entry.link) continue;
      const names = [
        ...Object.keys(entry.dependencies ?? {}),
        ...Object.keys(entry.optionalDependencies ?? {}),
        ...Object.keys(entry.peerDependencies ?? {}),
      ];
      if (!manifests.has(key) && names.some((name) => resolveIn(packages, key, name) === loc))
        queue.push(key);
    }
  }
  for (const key of Object.keys(packages)) {
    if ([...doomed].some((loc) => key === loc || key.startsWith(`${loc}/`))) delete packages[key];
  }
  fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
}

/** The registry npm installs from. */
function registryUrl(): string {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = spawnSync(npm, ['config', 'get', 'registry'], { encoding: 'utf8' }).stdout.trim();
  return (out || 'https://registry.npmjs.org/').replace(/\/?$/, '/');
}

async function packument(registry: string, name: string) {
  const res = await fetch(registry + name.replace('/', '%2f'), {
    headers: { accept: 'application/vnd.npm.install-v1+json' },
  });
  if (!res.ok)
    return { versions: {} as Record<string, { optionalDependencies?: Record<string, string> }> };
  return (await res.json()) as {
    versions: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
}

/**
 * For a package whose binaries the registry lacks: the newest version of it whose every optional
 * dependency the registry has (what to pin it to), or undefined.
 */
async function newestComplete(name: string): Promise<string | undefined> {
  const registry = registryUrl();
  const doc = await packument(registry, name);
  const known = new Map<string, Set<string>>();
  const versions = Object.keys(doc.versions)
    .filter((v) => semver.valid(v) && !semver.prerelease(v))
    .sort(semver.rcompare)
    .slice(0, 30);
  for (const version of versions) {
    let complete = true;
    for (const [dep, spec] of Object.entries(doc.versions[version]!.optionalDependencies ?? {})) {
      if (!known.has(dep))
        known.set(dep, new Set(Object.keys((await packument(registry, dep)).versions)));
      if (!known.get(dep)!.has(spec)) {
        complete = false;
        break;
      }
    }
    if (complete) return version;
  }
  return undefined;
}

async function main(): Promise<void> {
  const checkOnly = process.argv.includes('--check');
  if (!checkOnly) lockOnlyInstall();
  let problems = checkLock(readProject(REPO_ROOT));

  const repairable = problems.filter((p) =>
    ['missing', 'missing-platform-binary', 'invalid'].includes(p.kind),
  );
  if (!checkOnly && repairable.length > 0) {
    const manifests = new Set(Object.keys(readProject(REPO_ROOT).manifests));
    const parents = [...new Set(repairable.map((p) => p.location))].filter(
      (loc) => !manifests.has(loc),
    );
    console.log(`resolving again what npm left incomplete: ${parents.join(', ')}`);
    forget(parents, manifests);
    lockOnlyInstall();
    problems = checkLock(readProject(REPO_ROOT));
  }

  if (problems.length > 0) {
    console.error(describeProblems(problems));
    const lacking = problems.filter((p) => p.kind === 'missing-platform-binary');
    if (!checkOnly && lacking.length > 0) {
      const packages = readProject(REPO_ROOT).lock.packages ?? {};
      const names = [
        ...new Set(
          lacking.map(
            (p) => packages[p.location]?.name ?? p.location.replace(/^.*node_modules\//, ''),
          ),
        ),
      ];
      for (const name of names) {
        const version = await newestComplete(name);
        console.error(
          version
            ? `  ${name}: ${version} is the newest version whose binaries the registry has all of`
            : `  ${name}: no recent version has all of its binaries in the registry`,
        );
      }
    }
    process.exit(1);
  }
  const count = Object.keys(readProject(REPO_ROOT).lock.packages ?? {}).length;
  console.log(
    `package-lock.json agrees with every package.json and records every platform's binaries (${count} entries)` +
      (checkOnly ? '' : '; run `make install` (npm ci) to bring node_modules in line'),
  );
}

void main();
