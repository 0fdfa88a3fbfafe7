// The pinned Go tools (FerretDB, MinIO, Mailpit, kustomize, cyclonus …) built from their Go modules into
// the per-user tool cache ($XDG_CACHE_HOME/moebelbruecke/tools, else ~/.cache/…;
// FURNITURE_TOOLS_DIR moves it), shared by every clone of the repository. Plain JavaScript with no dependency, so that
// `make run` (scripts/run.mjs) starts these builds before `npm ci` has installed anything;
// infra/src/tools.ts gives the same to the TypeScript code (startInfra, the tests).
//
//   node scripts/go-tools.cjs [--quiet] [tool …]    builds the named tools (default: ferretdb
//                                                    minio mailpit) when missing, one after the
//                                                    other
//
// `go install pkg@version` does not work here (the module proxy answers 403 to the deprecation
// lookup it makes), so each tool is built from its module source:
//   go mod download -json <module>@<version>   -> "Dir" (read-only module cache copy)
//   go build -trimpath -o <cache>/bin/<tool>-<version>-r<recipe> <package>
// A tool whose build needs files in its source (FerretDB's embedded version) is built from a
// writable copy with them written. The binary's name carries the pin, so clones of different
// versions keep their own binaries side by side; it appears (by rename) only once complete. A
// lock directory per tool keeps two processes (make run and make test, or two clones) from
// building the same tool at once: the second one waits and then finds the binary built. The CLI
// builds one tool after the other: each build alone keeps both cores busy, and the second reuses
// the standard library the first compiled (side by side both compile it: FerretDB and MinIO took
// 296 CPU-seconds instead of 277 for the same 172-175 s, docs/benchmarks.md).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const REPO_ROOT = path.resolve(__dirname, '..');

/**
 * One entry per tool: its module and version, the package to build (relative to the module
 * root), the environment variable that points at a ready binary instead (skips building), the
 * rough duration of a build with a cold Go cache (shown while building) and, where the build
 * needs them, files written into a writable copy of the source ({version} is the pin), commands
 * run in that copy before go build (`prepare`) and linker flags (`ldflags`).
 */
const TOOLS = {
  ferretdb: {
    module: 'github.com/FerretDB/FerretDB',
    version: 'v1.24.2',
    pkg: './cmd/ferretdb',
    binEnv: 'FERRETDB_BIN',
    coldBuild: 'about 2 minutes',
    // FerretDB's build/version package panics at start-up unless version.txt is embedded
    files: {
      'build/version/version.txt': '{version}\n',
      'build/version/package.txt': 'furniture-local\n',
    },
  },
  minio: {
    module: 'github.com/minio/minio',
    version: 'v0.0.0-20260212201848-7aac2a2c5b7c',
    pkg: '.',
    binEnv: 'MINIO_BIN',
    coldBuild: 'about 4 minutes',
  },
  /**
   * the local mail catcher (SMTP, its web UI and API, chaos triggers for the SMTP fault tests).
   * Its web UI (Vue, bundled by esbuild) is not in the Go module: it is built from the module's
   * server/ui-src with the module's own locked npm packages (no install scripts run) before
   * go build embeds it.
   */
  mailpit: {
    module: 'github.com/axllent/mailpit',
    version: 'v1.27.11',
    pkg: '.',
    binEnv: 'MAILPIT_BIN',
    coldBuild: 'about 2 minutes',
    prepare: [
      ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      ['npm', 'run', 'package'],
    ],
    ldflags: '-X github.com/axllent/mailpit/config.Version={version}',
  },
  /** renders k8s/ overlays in the manifest test (not needed to run the platform) */
  kustomize: {
    module: 'sigs.k8s.io/kustomize/kustomize/v5',
    version: 'v5.7.1',
    pkg: '.',
    binEnv: 'KUSTOMIZE_BIN',
    coldBuild: 'about 2 minutes',
  },
  /** the NetworkPolicy simulator of the policy truth table test (not needed to run the platform) */
  cyclonus: {
    module: 'github.com/mattfenwick/cyclonus',
    version: 'v0.5.6',
    pkg: './cmd/cyclonus',
    binEnv: 'CYCLONUS_BIN',
    coldBuild: 'about 2 minutes',
  },
};

/** Bump when the build steps change so existing binaries get rebuilt. */
const RECIPE = 2;

const LOCK_STALE_MS = 60 * 60 * 1000;
const LOCK_WAIT_MS = 30 * 60 * 1000;

const noLog = () => undefined;

/** The per-user tool cache: binaries in bin/, build logs in logs/, build locks. */
function toolsDir() {
  if (process.env.FURNITURE_TOOLS_DIR) return path.resolve(process.env.FURNITURE_TOOLS_DIR);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'moebelbruecke', 'tools');
}

/** Path relative to the repository root when it is inside it (shorter messages). */
function displayPath(p) {
  const rel = path.relative(REPO_ROOT, p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

function specOf(name) {
  const spec = TOOLS[name];
  if (!spec) throw new Error(`unknown tool ${name} (known: ${Object.keys(TOOLS).join(', ')})`);
  return spec;
}

function binPath(name) {
  return path.join(toolsDir(), 'bin', `${name}-${specOf(name).version}-r${RECIPE}`);
}

/** The build log of a tool (written while it builds). */
function buildLogOf(name) {
  return path.join(toolsDir(), 'logs', `build-${name}.log`);
}

function isBuilt(name) {
  try {
    fs.accessSync(binPath(name), fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `name` can be used without building (built before, or given by its variable). */
function isReady(name) {
  return Boolean(process.env[specOf(name).binEnv]) || isBuilt(name);
}

/** Path of a ready-to-run binary for `name`, building it first when missing or outdated. */
async function ensureTool(name, log = noLog) {
  const override = process.env[specOf(name).binEnv];
  if (override) return override;
  if (isBuilt(name)) return binPath(name);
  await withBuildLock(name, log, async () => {
    if (!isBuilt(name)) await buildTool(name, log); // another process may have built it meanwhile
  });
  return binPath(name);
}

async function withBuildLock(name, log, fn) {
  const lockDir = path.join(toolsDir(), `build-${name}.lock`);
  const ownerFile = path.join(lockDir, 'owner');
  fs.mkdirSync(toolsDir(), { recursive: true });
  const started = Date.now();
  let lastNotice = 0;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(ownerFile, `${process.pid}\n`);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const owner = readLockOwner(ownerFile);
    if (owner.stale) {
      log(`removing stale ${name} build lock ${displayPath(lockDir)} (${owner.reason})`);
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new Error(
        `gave up waiting for the ${name} build lock ${displayPath(lockDir)} (held by ${owner.reason})`,
      );
    }
    if (Date.now() - lastNotice > 15_000) {
      log(`waiting for another process (${owner.reason}) that is building ${name}…`);
      lastNotice = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  try {
    await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function readLockOwner(ownerFile) {
  let pid;
  let mtime;
  try {
    pid = Number.parseInt(fs.readFileSync(ownerFile, 'utf8'), 10);
    mtime = fs.statSync(ownerFile).mtimeMs;
  } catch {
    // The owner creates the directory and then writes the file: give it a moment.
    let dirAge = 0;
    try {
      dirAge = Date.now() - fs.statSync(path.dirname(ownerFile)).mtimeMs;
    } catch {
      // gone meanwhile
    }
    return { stale: dirAge > 10_000, reason: 'a lock without owner' };
  }
  if (Date.now() - mtime > LOCK_STALE_MS)
    return { stale: true, reason: `pid ${pid}, older than an hour` };
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err.code === 'ESRCH') return { stale: true, reason: `pid ${pid} is gone` };
  }
  return { stale: false, reason: `pid ${pid}` };
}

/**
 * The go build's settings: no cgo (a C compiler is not needed, and what it would link is not
 * used by these servers), no symbol table, DWARF neither made nor kept (less work per package).
 */
const BUILD_ARGS = ['build', '-trimpath', '-gcflags=all=-dwarf=false'];

async function buildTool(name, log) {
  const spec = specOf(name);
  const started = Date.now();
  const logFile = buildLogOf(name);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(
    logFile,
    `=== ${new Date().toISOString()} building ${spec.module}@${spec.version}\n`,
  );
  log(
    `building ${name} ${spec.version} from source with Go (cold Go cache: ${spec.coldBuild}; log: ${displayPath(logFile)})`,
  );

  const download = await runGo(
    ['mod', 'download', '-json', `${spec.module}@${spec.version}`],
    toolsDir(),
    logFile,
    log,
    false,
  );
  const info = parseDownload(download, spec);
  let srcDir = info.Dir;
  const workDir = path.join(toolsDir(), 'build', `${name}-${spec.version}`);
  fs.rmSync(workDir, { recursive: true, force: true });
  if (spec.files || spec.prepare) {
    fs.cpSync(info.Dir, workDir, { recursive: true });
    makeWritable(workDir);
    for (const [file, text] of Object.entries(spec.files ?? {})) {
      const target = path.join(workDir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text.replaceAll('{version}', spec.version));
    }
    srcDir = workDir;
  }
  const bin = binPath(name);
  const tmpBin = `${bin}.tmp-${process.pid}`;
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  const heartbeat = setInterval(
    () => log(`still building ${name} (${Math.round((Date.now() - started) / 1000)}s)…`),
    30_000,
  );
  try {
    for (const [command, ...args] of spec.prepare ?? []) {
      await run(command, args, srcDir, logFile, log, true);
    }
    const ldflags = ['-s', '-w', ...(spec.ldflags ? [spec.ldflags] : [])]
      .join(' ')
      .replaceAll('{version}', spec.version);
    const buildArgs = [...BUILD_ARGS, `-ldflags=${ldflags}`, '-o', tmpBin, spec.pkg];
    await runGo(buildArgs, srcDir, logFile, log, true, { CGO_ENABLED: '0' });
    fs.renameSync(tmpBin, bin);
  } finally {
    clearInterval(heartbeat);
    fs.rmSync(tmpBin, { force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
    // build/ holds nothing else once no other tool builds there
    try {
      fs.rmdirSync(path.dirname(workDir));
    } catch {
      // another tool is building beside it
    }
  }
  log(`built ${displayPath(bin)} in ${Math.round((Date.now() - started) / 1000)}s`);
}

function parseDownload(stdout, spec) {
  let parsed;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(
      `go mod download ${spec.module}@${spec.version} printed no JSON: ${stdout.slice(0, 500)}`,
    );
  }
  if (parsed.Error)
    throw new Error(`go mod download ${spec.module}@${spec.version} failed: ${parsed.Error}`);
  if (!parsed.Dir)
    throw new Error(
      `go mod download ${spec.module}@${spec.version} did not report a source directory`,
    );
  return { Dir: parsed.Dir };
}

/** Module cache copies are read-only; the build copy must be writable (and deletable). */
function makeWritable(dir) {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(p);
    else if (entry.isFile()) fs.chmodSync(p, fs.statSync(p).mode | 0o200);
  }
}

/** Runs `go` (run()). */
function runGo(args, cwd, logFile, log, streamStdout, env = {}) {
  return run('go', args, cwd, logFile, log, streamStdout, env);
}

/**
 * Runs `command`, answers its stdout. Every stderr line (and stdout when `streamStdout`) goes to
 * the build log and through `log`.
 */
function run(command, args, cwd, logFile, log, streamStdout, env = {}) {
  return new Promise((resolve, reject) => {
    fs.appendFileSync(logFile, `$ ${command} ${args.join(' ')}   (in ${cwd})\n`);
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const echo = (line) => {
      fs.appendFileSync(logFile, `${line}\n`);
      log(`  ${command}: ${line}`);
    };
    readline.createInterface({ input: child.stderr }).on('line', echo);
    if (streamStdout) readline.createInterface({ input: child.stdout }).on('line', echo);
    else child.stdout.on('data', (chunk) => (stdout += chunk.toString('utf8')));
    child.once('error', (err) => {
      const missing = command === 'go' ? 'the Go toolchain' : command;
      const hint = err.code === 'ENOENT' ? ` (is ${missing} installed and on PATH?)` : '';
      reject(new Error(`could not run ${command}${hint}: ${err.message}`));
    });
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else {
        // `go mod download -json` reports errors inside its JSON on stdout.
        const detail = stdout.trim() ? `: ${stdout.trim().slice(0, 1000)}` : '';
        reject(
          new Error(
            `${command} ${args.join(' ')} failed with exit code ${String(code)}${detail}; see ${displayPath(logFile)}`,
          ),
        );
      }
    });
  });
}

module.exports = { TOOLS, toolsDir, buildLogOf, isReady, ensureTool };

if (require.main === module) {
  const args = process.argv.slice(2);
  const quiet = args.includes('--quiet');
  const names = args.filter((a) => a !== '--quiet');
  const wanted = names.length > 0 ? names : ['ferretdb', 'minio', 'mailpit'];
  const out = (line) => process.stdout.write(`[tools] ${line}\n`);
  const log = quiet ? noLog : out;
  (async () => {
    for (const name of wanted) {
      const before = isReady(name);
      const started = Date.now();
      const bin = await ensureTool(name, log);
      const how = before ? 'ready' : `built in ${Math.round((Date.now() - started) / 1000)} s`;
      out(`${name.padEnd(10)}${how}: ${displayPath(bin)}`);
    }
  })().catch((err) => {
    process.stderr.write(`[tools] ${err.message}\n`);
    process.exitCode = 1;
  });
}
