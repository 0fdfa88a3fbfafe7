// make run's launcher (scripts/run.mjs) and the Go tools' builder (scripts/go-tools.cjs) in a
// copy of the repository whose steps are stand-ins that only note when they ran: a `go` on PATH
// that "builds" in ten seconds, a `make install` that "installs" in five (seconds apart: the
// order is checked on a loaded machine too, where starting the builder alone can take two). What is checked
// is the order: the Go builds beside npm and the web app, nothing built that the run does not
// need, a line per step with its time, one build per tool however many processes want it.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../src/paths';

const run = promisify(execFile);

/** A script that appends "<name> start|end <ms>" (and its niceness) to the events file around `body`. */
const noting = (name: string, body: string) => `#!/bin/sh
echo "${name} start $(date +%s%3N) nice=$(nice)" >> "$EVENTS"
${body}
echo "${name} end $(date +%s%3N)" >> "$EVENTS"
`;

/**
 * A Go that answers `go mod download -json` and "builds" by writing the -o file after 10 s
 * (Mailpit after 15 s: the platform, which does not wait for it, starts well before its end).
 */
const FAKE_GO = `#!/bin/sh
if [ "$1" = mod ]; then
  mkdir -p "$FAKE_MODULES/src" && echo "{\\"Dir\\": \\"$FAKE_MODULES/src\\"}"
  exit 0
fi
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
tool=$(basename "$out" | cut -d- -f1)
echo "go-$tool start $(date +%s%3N) cgo=$CGO_ENABLED version=$(cat build/version/version.txt 2>/dev/null) nice=$(nice)" >> "$EVENTS"
if [ "$tool" = mailpit ]; then sleep 15; else sleep 10; fi
printf '#!/bin/sh\\n' > "$out" && chmod +x "$out"
echo "go-$tool end $(date +%s%3N)" >> "$EVENTS"
`;

interface Sandbox {
  root: string;
  env: NodeJS.ProcessEnv;
  events: () => { name: string; what: string; at: number; rest: string }[];
}

function sandbox(): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-'));
  made.push(root);
  const bin = path.join(root, 'fake-bin');
  const write = (rel: string, text: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text, { mode });
  };
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const file of ['run.mjs', 'go-tools.cjs']) {
    fs.copyFileSync(path.join(REPO_ROOT, 'scripts', file), path.join(root, 'scripts', file));
  }
  write('fake-bin/go', FAKE_GO, 0o755);
  // Mailpit's web UI steps (npm ci, npm run package), noted with the folder they ran in
  write(
    'fake-bin/npm',
    `#!/bin/sh\necho "ui-npm-$1 start $(date +%s%3N) in=$(basename "$PWD")" >> "$EVENTS"\n`,
    0o755,
  );
  write('fake-bin/make', noting('npm', 'sleep 5; echo "install: node_modules linked"'), 0o755);
  const node = (name: string, ms: number, line: string) =>
    `const fs = process.getBuiltinModule('node:fs');
fs.appendFileSync(process.env.EVENTS, '${name} start ' + Date.now() + '\\n');
setTimeout(() => {
  fs.appendFileSync(process.env.EVENTS, '${name} end ' + Date.now() + '\\n');
  console.log(${JSON.stringify(line)});
}, ${ms});
`;
  write(
    'scripts/transpile-server.mjs',
    node('server', 300, 'transpile: 3 of 3 server files written'),
  );
  write('scripts/build-spa.mjs', node('webapp', 800, 'spa: frontend/dist built'));
  // the platform runs until stopped: here until Mailpit's build after its start is done
  write(
    'infra/dist/cli/run.js',
    `const fs = process.getBuiltinModule('node:fs');
fs.appendFileSync(process.env.EVENTS, 'start start ' + Date.now() + '\\n');
console.log('started platform');
const bin = process.env.FURNITURE_TOOLS_DIR + '/bin';
const built = () => fs.existsSync(bin) && fs.readdirSync(bin).some((f) => f.startsWith('mailpit-'));
// (and a little longer: the launcher says the build ended once its step has ended)
const timer = setInterval(() => {
  if (!built()) return;
  clearInterval(timer);
  setTimeout(() => undefined, 2000);
}, 200);
`,
  );
  const events = path.join(root, 'events.txt');
  fs.writeFileSync(events, '');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    MAKE: path.join(bin, 'make'),
    EVENTS: events,
    FAKE_MODULES: path.join(root, 'modules'),
    FURNITURE_TOOLS_DIR: path.join(root, 'tools'),
    RUN_DATA_DIR: path.join(root, 'data'),
  };
  for (const name of [
    'MONGO_URL',
    'S3_URL',
    'SMTP_URL',
    'FERRETDB_BIN',
    'MINIO_BIN',
    'MAILPIT_BIN',
  ])
    delete env[name];
  return {
    root,
    env,
    events: () =>
      fs
        .readFileSync(events, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name = '', what = '', at = '0', ...rest] = line.split(' ');
          return { name, what, at: Number(at), rest: rest.join(' ') };
        }),
  };
}

const at = (s: Sandbox, name: string, what: 'start' | 'end') =>
  s.events().find((e) => e.name === name && e.what === what)?.at ?? NaN;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

test('when make run starts on a machine without the tools, then FerretDB and MinIO build beside npm and the web app, the platform starts after them while Mailpit builds, and each step says its time', async () => {
  const s = sandbox();
  const { stdout } = await run(process.execPath, [path.join(s.root, 'scripts/run.mjs')], {
    cwd: s.root,
    env: s.env,
  });
  // the Go builds ran while npm installed and the web app was built, one after the other (the
  // second reuses what the first compiled)
  expect(at(s, 'go-ferretdb', 'start')).toBeLessThan(at(s, 'npm', 'end'));
  expect(at(s, 'npm', 'start')).toBeLessThan(at(s, 'go-ferretdb', 'end'));
  expect(at(s, 'webapp', 'start')).toBeLessThan(at(s, 'go-ferretdb', 'end'));
  expect(at(s, 'go-minio', 'start')).toBeGreaterThanOrEqual(at(s, 'go-ferretdb', 'end'));
  expect(at(s, 'go-mailpit', 'start')).toBeGreaterThanOrEqual(at(s, 'go-minio', 'end'));
  // Mailpit's web UI is installed and bundled in its source copy before go build embeds it
  const ui = s.events().filter((e) => e.name.startsWith('ui-npm-'));
  expect(ui.map((e) => `${e.name} ${e.rest}`)).toEqual([
    'ui-npm-ci in=mailpit-v1.27.11',
    'ui-npm-run in=mailpit-v1.27.11',
  ]);
  expect(at(s, 'ui-npm-run', 'start')).toBeLessThanOrEqual(at(s, 'go-mailpit', 'start'));
  // the server code and the web app after npm, side by side
  expect(at(s, 'server', 'start')).toBeGreaterThanOrEqual(at(s, 'npm', 'end'));
  expect(at(s, 'webapp', 'start')).toBeLessThan(at(s, 'server', 'end'));
  // npm goes first; the Go builds take the cores it leaves
  const niceness = os.getPriority();
  expect(s.events().find((e) => e.name === 'npm' && e.what === 'start')?.rest).toBe(
    `nice=${niceness}`,
  );
  // the platform once FerretDB and MinIO are there, not waiting for Mailpit (mails wait for it)
  expect(at(s, 'start', 'start')).toBeGreaterThanOrEqual(at(s, 'go-ferretdb', 'end'));
  expect(at(s, 'start', 'start')).toBeGreaterThanOrEqual(at(s, 'go-minio', 'end'));
  expect(at(s, 'start', 'start')).toBeLessThan(at(s, 'go-mailpit', 'end'));
  // the builds: without cgo, FerretDB with its version file written into its source copy
  const builds = s.events().filter((e) => e.name.startsWith('go-') && e.what === 'start');
  expect(builds.map((e) => `${e.name} ${e.rest}`).sort()).toEqual([
    `go-ferretdb cgo=0 version=v1.24.2 nice=${Math.min(19, niceness + 10)}`,
    `go-mailpit cgo=0 version= nice=${Math.min(19, niceness + 10)}`,
    `go-minio cgo=0 version= nice=${Math.min(19, niceness + 10)}`,
  ]);
  // a line per step, each with the seconds since the start and the step's own time
  const lines = stdout.trim().split('\n');
  for (const pattern of [
    /^make run +\d+\.\d s {2}tools: building ferretdb, then minio with Go beside the rest/,
    /^make run +\d+\.\d s {2}tools: mailpit builds after the rest, while the platform starts/,
    /^make run +\d+\.\d s {2}npm packages: node_modules linked \(\d+\.\d s\)$/,
    /^make run +\d+\.\d s {2}server code: 3 of 3 server files written \(\d+\.\d s\)$/,
    /^make run +\d+\.\d s {2}web app: frontend\/dist built \(\d+\.\d s\)$/,
    /^make run +\d+\.\d s {2}tools: ferretdb built in \d+ s, minio built in \d+ s \(\d+\.\d s in all\)$/,
    /^make run +\d+\.\d s {2}start: /,
    /^make run +\d+\.\d s {2}tools: mailpit built \(\d+\.\d s\)$/,
  ]) {
    expect([pattern.source, lines.some((l) => pattern.test(l))]).toEqual([pattern.source, true]);
  }
  expect(stdout).toContain('started platform');

  // the second run builds nothing: the tools are there
  fs.writeFileSync(s.env.EVENTS!, '');
  const again = await run(process.execPath, [path.join(s.root, 'scripts/run.mjs')], {
    cwd: s.root,
    env: s.env,
  });
  expect(s.events().filter((e) => e.name.startsWith('go-'))).toEqual([]);
  expect(again.stdout).toMatch(/tools: ferretdb, minio, mailpit built before/);
}, 90_000);

test('when MONGO_URL names a database server, then make run builds no FerretDB, and make dev builds no web app', async () => {
  const s = sandbox();
  await run(process.execPath, [path.join(s.root, 'scripts/run.mjs')], {
    cwd: s.root,
    env: { ...s.env, MONGO_URL: 'mongodb://db.example.org:27017/' },
  });
  expect(s.events().filter((e) => e.name.startsWith('go-') && e.what === 'start')).toEqual([
    expect.objectContaining({ name: 'go-minio' }),
    expect.objectContaining({ name: 'go-mailpit' }),
  ]);

  fs.writeFileSync(s.env.EVENTS!, '');
  fs.writeFileSync(path.join(s.root, 'infra/dist/cli/dev.js'), 'console.log("dev platform up")\n');
  const dev = await run(process.execPath, [path.join(s.root, 'scripts/run.mjs'), 'dev'], {
    cwd: s.root,
    env: { ...s.env, MONGO_URL: 'mongodb://db.example.org:27017/' },
  });
  expect(s.events().map((e) => e.name)).not.toContain('webapp');
  expect(dev.stdout).toContain('dev platform up');
}, 60_000);

test('when a step fails, then make run ends with its output, stops the builds under way and starts nothing', async () => {
  const s = sandbox();
  fs.writeFileSync(
    path.join(s.root, 'scripts/build-spa.mjs'),
    'console.log("vite: [plugin] something went wrong"); process.exit(3);\n',
  );
  const failed = await run(process.execPath, [path.join(s.root, 'scripts/run.mjs')], {
    cwd: s.root,
    env: s.env,
  }).catch((err: { code: number; stdout: string }) => err);
  expect('code' in failed && failed.code).toBe(1);
  expect(failed.stdout).toContain('vite: [plugin] something went wrong');
  expect(failed.stdout).toMatch(
    /failed: web app \(exit code 3\); its whole output: .*web-app\.log/,
  );
  expect(s.events().map((e) => e.name)).not.toContain('start');
  // the Go builds still under way were stopped with it, nothing of them left running
  await new Promise((resolve) => setTimeout(resolve, 7000));
  expect(s.events().filter((e) => e.name.startsWith('go-') && e.what === 'end')).toEqual([]);
  const left = await run('pgrep', ['-f', s.root]).catch(() => ({ stdout: '' }));
  expect(left.stdout.trim()).toBe('');
}, 60_000);

test('when two processes want the same tool at once, then it is built once and both get it', async () => {
  const s = sandbox();
  const both = await Promise.all(
    [1, 2].map(
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [path.join(s.root, 'scripts/go-tools.cjs'), '--quiet', 'minio'],
            { env: s.env, stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(out))));
        }),
    ),
  );
  expect(s.events().filter((e) => e.name === 'go-minio' && e.what === 'start')).toHaveLength(1);
  const paths = both.map((out) => /: (\S+)$/m.exec(out.trim())?.[1]);
  expect(paths[0]).toMatch(/tools\/bin\/minio-v0\.0\.0-\d+-[0-9a-f]+-r\d+$/);
  expect(paths[1]).toBe(paths[0]);
}, 60_000);
