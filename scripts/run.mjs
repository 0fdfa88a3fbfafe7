// `make run` and `make dev`: everything a run needs, side by side where it can, with a line per
// step saying when it ended (seconds since the start) and how long it took:
//   tools     FerretDB, MinIO and Mailpit built from their Go modules when missing (not the one
//             a MONGO_URL, S3_URL or SMTP_URL replaces), one after the other: they need nothing
//             of the platform's npm packages, so they build from the first second, beside
//             everything else (scripts/go-tools.cjs)
//   npm       `make install`: node_modules linked from the per-user cache, else npm ci
//   server    the services' JavaScript (scripts/transpile-server.mjs), beside
//   web app   the SPA's bundle (scripts/build-spa.mjs; not for make dev, whose Vite serves it)
//   start     once the tools are there: the infrastructure, the services and the gateway
//             (infra/dist/cli/run.js or dev.js), which say when everything is ready.
// What a step prints goes to RUN_DATA_DIR/logs/build/<step>.log; a step that fails prints the end
// of it. Plain JavaScript without dependencies: it runs before npm ci.
//   node scripts/run.mjs        make run
//   node scripts/run.mjs dev    make dev
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const goTools = createRequire(import.meta.url)('./go-tools.cjs');

const root = path.resolve(import.meta.dirname, '..');
const mode = process.argv[2] === 'dev' ? 'dev' : 'run';
const started = Date.now();
const runData = process.env.RUN_DATA_DIR
  ? path.resolve(process.env.RUN_DATA_DIR)
  : path.join(root, '.data', 'run');
const logDir = path.join(runData, 'logs', 'build');
/** a long step says that it is still going this often */
const HEARTBEAT_MS = 30_000;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const say = (line) =>
  process.stdout.write(`make ${mode} ${seconds(Date.now() - started).padStart(8)}  ${line}\n`);

/** processes of steps still running, stopped when the launcher stops early */
const running = new Set();

/** The processes below `pid` (its children, theirs …), from /proc. */
function descendants(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = [];
  const visit = (p) => {
    for (const [child, parent] of parents) {
      if (parent === p) {
        below.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return below;
}

/**
 * Stops the steps still running with everything they started (npm's and go's children). The
 * steps stay in this session, not groups of their own: in this session's scheduling group the
 * launcher's priorities hold (TOOLS_NICENESS), and Ctrl-C reaches them all.
 */
function stopSteps() {
  for (const child of running) {
    for (const pid of [child.pid, ...descendants(child.pid)]) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
  }
}

function fail(message) {
  say(`failed: ${message}`);
  stopSteps();
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopSteps();
    process.exit(130);
  });
}

/** The last `n` lines of a file. */
function tail(file, n = 30) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

/**
 * The Go builds use every core they are given; npm ci and the web app's build cannot (they wait
 * on the network, on one compiler): those go first, and the Go builds (nice 10) take every core
 * they leave, so no core idles while the run builds. All steps are in this session, so in one
 * scheduling group, where nice counts.
 */
const TOOLS_NICENESS = 10;

/**
 * Runs one step (`node <script>` or a command), its output into its log. Resolves with the log's
 * lines when it succeeded; a failed step ends the launcher with the end of its log.
 */
function step(name, what, command, args, env = {}) {
  fs.mkdirSync(logDir, { recursive: true });
  const log = path.join(logDir, `${name}.log`);
  const out = fs.openSync(log, 'w');
  const begun = Date.now();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  running.add(child);
  if (name.startsWith('tools')) {
    try {
      os.setPriority(child.pid, Math.min(19, os.getPriority() + TOOLS_NICENESS));
    } catch {
      // not allowed here: the builds only share the cores evenly
    }
  }
  const heartbeat = setInterval(
    () => say(`${what}: still going (${seconds(Date.now() - begun)})`),
    HEARTBEAT_MS,
  );
  let ended = false;
  return new Promise((resolve) => {
    const done = (code, error) => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      running.delete(child);
      if (code === 0) {
        resolve({ lines: tail(log, 200).split('\n'), took: Date.now() - begun });
        return;
      }
      process.stdout.write(`${tail(log)}\n`);
      fail(
        `${what} (${error ?? `exit code ${code}`}); its whole output: ${path.relative(root, log)}`,
      );
    };
    child.once('error', (err) => done(1, err.message));
    child.once('exit', (code, signal) => done(code ?? 1, signal ?? undefined));
  });
}

/** The last line of a step's output that starts with `prefix`, without it. */
const lastLine = (lines, prefix) =>
  lines
    .filter((l) => l.startsWith(prefix))
    .at(-1)
    ?.slice(prefix.length)
    .trim();

const configured = (name) => Boolean(process.env[name]?.trim());

// tools: the ones this run starts itself, built from the first second when missing
const needed = [
  ...(configured('MONGO_URL') ? [] : ['ferretdb']),
  ...(configured('S3_URL') ? [] : ['minio']),
  ...(configured('SMTP_URL') ? [] : ['mailpit']),
];
const notBuilt = needed.filter((tool) => !goTools.isReady(tool));
// Mailpit is not waited for: the platform starts without it and the launcher starts it once it
// is built (start-infra.ts, mailLater; mails wait meanwhile as in an SMTP outage)
const later = notBuilt.filter((tool) => tool === 'mailpit');
const missing = notBuilt.filter((tool) => !later.includes(tool));
let tools = Promise.resolve();
let toolsDone = missing.length === 0;
if (needed.length === 0)
  say('tools: none needed (MONGO_URL, S3_URL and SMTP_URL name the servers)');
else if (notBuilt.length === 0) say(`tools: ${needed.join(', ')} built before`);
else if (missing.length === 0) tools = Promise.resolve();
else {
  const logs = path.relative(root, path.join(goTools.toolsDir(), 'logs'));
  say(
    `tools: building ${missing.join(', then ')} with Go beside the rest (once per machine; ${logs})`,
  );
  tools = step('tools', 'tools', process.execPath, [
    'scripts/go-tools.cjs',
    '--quiet',
    ...missing,
  ]).then(({ lines, took }) => {
    // "[tools] minio     built in 170 s: <path>"
    const built = missing.map(
      (tool) => `${tool} ${lastLine(lines, `[tools] ${tool}`)?.split(':')[0]}`,
    );
    say(`tools: ${built.join(', ')} (${seconds(took)} in all)`);
    toolsDone = true;
  });
}

// after the tools the start waits for: Mailpit's build, at the same low priority, not waited for
const laterTools = later.length === 0 ? [] : [later];
for (const names of laterTools) {
  const logs = path.relative(root, path.join(goTools.toolsDir(), 'logs'));
  say(`tools: ${names.join(', ')} builds after the rest, while the platform starts (${logs})`);
  void tools.then(() =>
    step('tools-later', names.join(', '), process.execPath, [
      'scripts/go-tools.cjs',
      '--quiet',
      ...names,
    ]).then(({ took }) => say(`tools: ${names.join(', ')} built (${seconds(took)})`)),
  );
}

// npm packages, then the server code and the web app side by side
const make = process.env.MAKE || 'make';
const npm = await step('npm', 'npm packages', make, ['--no-print-directory', 'install']);
say(`npm packages: ${lastLine(npm.lines, 'install:') ?? 'up to date'} (${seconds(npm.took)})`);
const builds = [
  step('server', 'server code', process.execPath, ['scripts/transpile-server.mjs']).then(
    ({ lines, took }) => say(`server code: ${lastLine(lines, 'transpile:')} (${seconds(took)})`),
  ),
];
if (mode === 'run') {
  builds.push(
    step('web-app', 'web app', process.execPath, ['scripts/build-spa.mjs']).then(
      ({ lines, took }) => say(`web app: ${lastLine(lines, 'spa:') ?? 'built'} (${seconds(took)})`),
    ),
  );
}
await Promise.all(builds);
if (!toolsDone) say('waiting for the tools …');
await tools;

// start: the launcher's own output from here; Ctrl-C reaches it directly (same terminal group)
say('start: the local infrastructure, the services and the gateway …');
for (const signal of ['SIGINT', 'SIGTERM']) process.removeAllListeners(signal);
process.on('SIGINT', () => undefined);
const platform = spawn(process.execPath, [`infra/dist/cli/${mode}.js`, `--started-at=${started}`], {
  cwd: root,
  stdio: 'inherit',
});
process.on('SIGTERM', () => platform.kill('SIGTERM'));
platform.once('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
