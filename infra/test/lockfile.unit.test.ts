// The lock file must be one `npm ci` accepts on every platform: checked offline against every
// package.json (infra/src/lockfile.ts), and once by npm itself.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkLock, readProject, workspaceFolders, type Project } from '../src/lockfile';
import { REPO_ROOT } from '../src/paths';

const run = promisify(execFile);

/** A deep copy to break on purpose. */
const copy = (project: Project): Project => JSON.parse(JSON.stringify(project)) as Project;

test('when the committed lock file is checked against every package.json, then npm ci would accept it on every platform', () => {
  expect(checkLock(readProject(REPO_ROOT)).map((p) => p.message)).toEqual([]);
});

test('when the committed lock file is read, then it holds macOS, Windows and Linux binaries of the native tools', () => {
  const { packages = {} } = readProject(REPO_ROOT).lock;
  const names = Object.keys(packages);
  for (const binary of [
    '@swc/core-darwin-arm64',
    '@swc/core-win32-x64-msvc',
    '@swc/core-linux-x64-gnu',
    '@esbuild/darwin-arm64',
    '@esbuild/win32-x64',
    '@rolldown/binding-darwin-arm64',
    '@rolldown/binding-win32-x64-msvc',
    'lightningcss-darwin-arm64',
    '@tailwindcss/oxide-darwin-arm64',
    '@tailwindcss/oxide-win32-x64-msvc',
    '@unrs/resolver-binding-darwin-arm64',
    '@unrs/resolver-binding-win32-x64-msvc',
  ]) {
    expect(names.some((n) => n.endsWith(`node_modules/${binary}`))).toBe(true);
  }
});

test("when another platform's binary is missing from the lock file, then the check names it", () => {
  const project = copy(readProject(REPO_ROOT));
  delete project.lock.packages!['node_modules/@swc/core-darwin-arm64'];
  const problems = checkLock(project);
  expect(problems).toEqual([
    expect.objectContaining({
      location: 'node_modules/@swc/core',
      kind: 'missing-platform-binary',
      message: expect.stringContaining('@swc/core-darwin-arm64'),
    }),
  ]);
});

test('when a package.json asks for a dependency the lock file lacks, then the check refuses the lock file', () => {
  const project = copy(readProject(REPO_ROOT));
  project.manifests.gateway!.dependencies = {
    ...project.manifests.gateway!.dependencies,
    'left-pad-never-installed': '^1.3.0',
  };
  const kinds = checkLock(project).map((p) => [p.location, p.kind]);
  expect(kinds).toEqual(
    expect.arrayContaining([
      ['gateway', 'stale'],
      ['gateway', 'missing'],
    ]),
  );
});

test('when a package.json range excludes the locked version, then the check refuses the lock file', () => {
  const project = copy(readProject(REPO_ROOT));
  const locked = project.lock.packages!['node_modules/typescript']!.version!;
  project.manifests['']!.devDependencies!.typescript = `>${locked}`;
  const problems = checkLock(project);
  expect(problems.map((p) => p.kind)).toEqual(expect.arrayContaining(['stale', 'invalid']));
  expect(problems.find((p) => p.kind === 'invalid')?.message).toContain(`typescript@>${locked}`);
});

test('when a locked package needs a version the lock file does not hold, then the check refuses it', () => {
  const project = copy(readProject(REPO_ROOT));
  const express = project.lock.packages!['node_modules/express']!;
  express.dependencies = { ...express.dependencies, 'body-parser': '^99.0.0' };
  expect(checkLock(project)).toEqual([
    expect.objectContaining({ location: 'node_modules/express', kind: 'invalid' }),
  ]);
});

test('when a workspace is missing from the lock file, then the check refuses it', () => {
  const project = copy(readProject(REPO_ROOT));
  project.manifests['tests/new-workspace'] = { name: '@furniture/new-workspace', version: '0.1.0' };
  expect(checkLock(project).map((p) => p.kind)).toContain('workspace');
});

test('when npm ci --dry-run reads the committed lock file and package.json files, then it accepts them', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-check-'));
  try {
    const rootManifest = readProject(REPO_ROOT).manifests['']!;
    for (const file of [
      'package.json',
      'package-lock.json',
      ...workspaceFolders(REPO_ROOT, rootManifest).map((ws) => `${ws}/package.json`),
    ]) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(dir, file));
    }
    // prefer-offline: the packuments npm needs (a "latest" tag) come from the cache of the install
    const { stderr } = await run(
      'npm',
      ['ci', '--dry-run', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      { cwd: dir, timeout: 90000, maxBuffer: 16 * 1024 * 1024 },
    ).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`npm ci --dry-run refused the lock file:\n${err.stderr ?? err.message}`);
    });
    expect(stderr).not.toMatch(/npm error/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('when the Makefile and the Dockerfile install packages, then they use npm ci with every deployed workspace', () => {
  const makefile = fs.readFileSync(path.join(REPO_ROOT, 'Makefile'), 'utf8');
  const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'infra/docker/Dockerfile'), 'utf8');
  const recipes = (text: string) =>
    text
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
  // make install runs scripts/install.mjs: npm ci, or the node_modules an earlier npm ci of the
  // same lock file (and package.json files) left in the per-user cache
  expect(recipes(makefile)).toMatch(/^\tnode scripts\/install\.mjs\b/m);
  expect(recipes(makefile)).not.toMatch(/npm (install|i)\b/);
  const installer = fs.readFileSync(path.join(REPO_ROOT, 'scripts/install.mjs'), 'utf8');
  expect(installer).toMatch(/run\('npm', \['ci'/);
  expect(installer).not.toMatch(/'install'|npm (install|i)\b/);
  expect(installer).toMatch(/'package-lock\.json'/);
  expect(recipes(dockerfile)).toMatch(/RUN npm ci\b/);
  expect(recipes(dockerfile)).not.toMatch(/npm (install|i)\b/);
  // npm ci in the image installs the dependencies of every service, the gateway and the SPA
  const rootManifest = readProject(REPO_ROOT).manifests['']!;
  const deployed = workspaceFolders(REPO_ROOT, rootManifest).filter((ws) =>
    /^(services\/|gateway$|frontend$)/.test(ws),
  );
  expect(deployed.length).toBeGreaterThanOrEqual(9);
  for (const ws of deployed) expect(dockerfile).toContain(`COPY ${ws}/package.json ${ws}/`);
});
