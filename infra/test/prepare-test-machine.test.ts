// scripts/prepare-test-machine.sh (run by `make test` and `make e2e` first): installs Debian's
// chromium when it is missing and the user may install packages, else names the one command.
// apt-get, id and sudo are stubs here (the test must not install anything on the machine).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../src/paths';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'prepare-test-machine.sh');

interface Machine {
  uid: number;
  /** sudo -n works without a password */
  sudo: 'none' | 'passwordless' | 'asks-password';
  chromiumInstalled: boolean;
}

function runOn(machine: Machine) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'machine-'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const calls = path.join(dir, 'calls.log');
  const chromium = path.join(dir, 'usr-bin-chromium');
  for (const tool of ['bash', 'env', 'ls', 'sort', 'tail', 'chmod', 'cat', 'true']) {
    const found = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (found) fs.symlinkSync(found, path.join(bin, tool));
  }
  const stub = (name: string, body: string) =>
    fs.writeFileSync(path.join(bin, name), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
  stub('id', `[ "$1" = -u ] && echo ${machine.uid} || exec /usr/bin/id "$@"`);
  stub(
    'apt-get',
    [
      `echo "apt-get $* (uid $(id -u))" >> ${calls}`,
      `if [[ " $* " == *" install "* ]]; then printf '#!/bin/sh\\n' > ${chromium}; chmod +x ${chromium}; fi`,
    ].join('\n'),
  );
  if (machine.sudo !== 'none') {
    stub(
      'sudo',
      machine.sudo === 'passwordless'
        ? `[ "$1" = -n ] && shift; echo "sudo $*" >> ${calls}; export FAKE_ROOT=1; exec "$@"`
        : `echo "sudo: a password is required" >&2; exit 1`,
    );
    // under the passwordless sudo stub, id -u answers 0
    if (machine.sudo === 'passwordless')
      stub(
        'id',
        `[ "$1" = -u ] && { [ -n "$FAKE_ROOT" ] && echo 0 || echo ${machine.uid}; } || exec /usr/bin/id "$@"`,
      );
  }
  if (machine.chromiumInstalled) {
    fs.writeFileSync(chromium, '#!/bin/sh\n', { mode: 0o755 });
  }
  const env: NodeJS.ProcessEnv = {
    // only the stubs and the few tools the script uses: the machine's own sudo and apt-get are
    // out of reach
    PATH: bin,
    HOME: dir,
    DEBIAN_CHROMIUM: chromium,
    FERRETDB_BACKEND: 'sqlite', // leaves the machine's PostgreSQL alone
  };
  const result = spawnSync('bash', [SCRIPT], { env, encoding: 'utf8', timeout: 30000 });
  const log = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [];
  const installed = fs.existsSync(chromium);
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    calls: log,
    installed,
  };
}

test('when chromium is installed, then nothing is installed and the tests go on', () => {
  const run = runOn({ uid: 1000, sudo: 'none', chromiumInstalled: true });
  expect(run.status).toBe(0);
  expect(run.calls).toEqual([]);
});

test("when chromium is missing and the user is root, then Debian's chromium is installed with apt-get", () => {
  const run = runOn({ uid: 0, sudo: 'none', chromiumInstalled: false });
  expect(run.status).toBe(0);
  expect(run.calls).toEqual([
    expect.stringMatching(/^apt-get .*update \(uid 0\)$/),
    expect.stringMatching(/^apt-get .*install -y --no-install-recommends chromium \(uid 0\)$/),
  ]);
  expect(run.installed).toBe(true);
});

test('when chromium is missing and sudo needs no password, then it is installed through sudo', () => {
  const run = runOn({ uid: 1000, sudo: 'passwordless', chromiumInstalled: false });
  expect(run.status).toBe(0);
  expect(run.calls.filter((c) => c.startsWith('apt-get'))).toEqual([
    expect.stringMatching(/update \(uid 0\)$/),
    expect.stringMatching(/install -y --no-install-recommends chromium \(uid 0\)$/),
  ]);
  expect(run.calls.filter((c) => c.startsWith('sudo')).length).toBeGreaterThanOrEqual(2);
  expect(run.installed).toBe(true);
});

test.each(['none', 'asks-password'] as const)(
  'when chromium is missing and the user may not install packages (sudo: %s), then the run stops naming the one command',
  (sudo) => {
    const run = runOn({ uid: 1000, sudo, chromiumInstalled: false });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('sudo apt-get install -y chromium');
    expect(run.calls.filter((c) => c.startsWith('apt-get'))).toEqual([]);
    expect(run.installed).toBe(false);
  },
);

test('when make test or make e2e runs, then the machine is prepared before anything else', () => {
  const makefile = fs.readFileSync(path.join(REPO_ROOT, 'Makefile'), 'utf8');
  expect(makefile).toMatch(/^test: machine\b/m);
  expect(makefile).toMatch(/^e2e: machine\b/m);
  expect(makefile).toMatch(/^machine:\n\t@?bash scripts\/prepare-test-machine\.sh$/m);
});
