// Builds the pinned Go tools (FerretDB, MinIO, kustomize, cyclonus) into the per-user tool cache
// (paths.ts toolsDir: ~/.cache/moebelbruecke/tools), shared by every clone of the repository.
//
// `go install pkg@version` does not work here (the module proxy answers 403 to the deprecation
// lookup it makes), so each tool is built from its module source:
//   go mod download -json <module>@<version>   -> "Dir" (read-only module cache copy)
//   go build -trimpath -o <cache>/bin/<tool>-<version>-r<recipe> <package>
// FerretDB refuses to start unless build/version/version.txt is embedded, so it is built from a
// writable copy of its source with that file written. The binary's name carries the pin, so clones
// of different versions keep their own binaries side by side; it appears (by rename) only once
// complete. A lock directory keeps two processes (make run and make test, or two clones) from
// building at the same time: the second one waits and then finds the binary built.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { displayPath, toolsDir } from './paths';
import { errorMessage, noLog, type Log } from './util';

export type ToolName = 'ferretdb' | 'minio' | 'kustomize' | 'cyclonus';

interface ToolSpec {
  module: string;
  version: string;
  /** Package to build, relative to the module root. */
  pkg: string;
  /** Environment variable that points at a ready binary (skips building). */
  binEnv: string;
  /** Rough duration of a build with a cold Go cache, shown while building. */
  coldBuild: string;
  /** Needs a writable copy of the module source (see prepareFerretSource). */
  writableSource?: (srcDir: string, spec: ToolSpec) => void;
}

/** Bump when the build steps change so existing binaries get rebuilt. */
const RECIPE = 2;

export const TOOLS: Record<ToolName, ToolSpec> = {
  ferretdb: {
    module: 'github.com/FerretDB/FerretDB',
    version: 'v1.24.2',
    pkg: './cmd/ferretdb',
    binEnv: 'FERRETDB_BIN',
    coldBuild: 'about 2 minutes',
    writableSource: prepareFerretSource,
  },
  minio: {
    module: 'github.com/minio/minio',
    version: 'v0.0.0-20260212201848-7aac2a2c5b7c',
    pkg: '.',
    binEnv: 'MINIO_BIN',
    coldBuild: 'about 5 minutes',
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

const LOCK_STALE_MS = 60 * 60 * 1000;
const LOCK_WAIT_MS = 30 * 60 * 1000;

function binPath(name: ToolName): string {
  return path.join(toolsDir(), 'bin', `${name}-${TOOLS[name].version}-r${RECIPE}`);
}

function isUpToDate(name: ToolName): boolean {
  try {
    fs.accessSync(binPath(name), fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Path of a ready-to-run binary for `name`, building it first when missing or outdated. */
export async function ensureTool(name: ToolName, log: Log = noLog): Promise<string> {
  const override = process.env[TOOLS[name].binEnv];
  if (override) return override;
  if (isUpToDate(name)) return binPath(name);
  await withBuildLock(log, async () => {
    if (!isUpToDate(name)) await buildTool(name, log); // another process may have built it meanwhile
  });
  return binPath(name);
}

/** Makes sure both tools are built (one after the other: each build uses every CPU). */
export async function ensureTools(log: Log = noLog): Promise<{ ferretdb: string; minio: string }> {
  const ferretdb = await ensureTool('ferretdb', log);
  const minio = await ensureTool('minio', log);
  return { ferretdb, minio };
}

async function withBuildLock(log: Log, fn: () => Promise<void>): Promise<void> {
  const lockDir = path.join(toolsDir(), 'build.lock');
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
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readLockOwner(ownerFile);
    if (owner.stale) {
      log(`removing stale tool build lock ${displayPath(lockDir)} (${owner.reason})`);
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new Error(
        `gave up waiting for the tool build lock ${displayPath(lockDir)} (held by ${owner.reason})`,
      );
    }
    if (Date.now() - lastNotice > 15_000) {
      log(`waiting for another process (${owner.reason}) that is building tools…`);
      lastNotice = Date.now();
    }
    await sleep(1000);
  }
  try {
    await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function readLockOwner(ownerFile: string): { stale: boolean; reason: string } {
  let pid: number;
  let mtime: number;
  try {
    pid = Number.parseInt(fs.readFileSync(ownerFile, 'utf8'), 10);
    mtime = fs.statSync(ownerFile).mtimeMs;
  } catch {
    // The owner creates the directory and then writes the file: give it a moment.
    const dirAge = (() => {
      try {
        return Date.now() - fs.statSync(path.dirname(ownerFile)).mtimeMs;
      } catch {
        return 0;
      }
    })();
    return { stale: dirAge > 10_000, reason: 'a lock without owner' };
  }
  if (Date.now() - mtime > LOCK_STALE_MS)
    return { stale: true, reason: `pid ${pid}, older than an hour` };
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH')
      return { stale: true, reason: `pid ${pid} is gone` };
  }
  return { stale: false, reason: `pid ${pid}` };
}

async function buildTool(name: ToolName, log: Log): Promise<void> {
  const spec = TOOLS[name];
  const started = Date.now();
  const logFile = path.join(toolsDir(), 'logs', `build-${name}.log`);
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
  if (spec.writableSource) {
    fs.cpSync(info.Dir, workDir, { recursive: true });
    makeWritable(workDir);
    spec.writableSource(workDir, spec);
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
    // -s -w: no symbol table or DWARF (smaller binaries, a shorter link)
    await runGo(
      ['build', '-trimpath', '-ldflags=-s -w', '-o', tmpBin, spec.pkg],
      srcDir,
      logFile,
      log,
      true,
    );
    fs.renameSync(tmpBin, bin);
  } finally {
    clearInterval(heartbeat);
    fs.rmSync(tmpBin, { force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(workDir), { recursive: true, force: true }); // build/ holds nothing else
  }
  log(`built ${displayPath(bin)} in ${Math.round((Date.now() - started) / 1000)}s`);
}

interface DownloadInfo {
  Dir: string;
  Error?: string;
}

function parseDownload(stdout: string, spec: ToolSpec): DownloadInfo {
  let parsed: Partial<DownloadInfo>;
  try {
    parsed = JSON.parse(stdout) as Partial<DownloadInfo>;
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
function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(p);
    else if (entry.isFile()) fs.chmodSync(p, fs.statSync(p).mode | 0o200);
  }
}

/** FerretDB's build/version package panics at start-up unless version.txt is embedded. */
function prepareFerretSource(srcDir: string, spec: ToolSpec): void {
  const versionDir = path.join(srcDir, 'build', 'version');
  fs.writeFileSync(path.join(versionDir, 'version.txt'), `${spec.version}\n`);
  fs.writeFileSync(path.join(versionDir, 'package.txt'), 'furniture-local\n');
}

/**
 * Runs `go`, returns stdout. Every stderr line (and stdout when `streamStdout`) goes to the
 * build log and through `log`.
 */
function runGo(
  args: string[],
  cwd: string,
  logFile: string,
  log: Log,
  streamStdout: boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    fs.appendFileSync(logFile, `$ go ${args.join(' ')}   (in ${cwd})\n`);
    const child = spawn('go', args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const echo = (line: string): void => {
      fs.appendFileSync(logFile, `${line}\n`);
      log(`  go: ${line}`);
    };
    readline.createInterface({ input: child.stderr }).on('line', echo);
    if (streamStdout) readline.createInterface({ input: child.stdout }).on('line', echo);
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.once('error', (err) => {
      const hint =
        (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? ' (is the Go toolchain installed and on PATH?)'
          : '';
      reject(new Error(`could not run go${hint}: ${errorMessage(err)}`));
    });
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else {
        // `go mod download -json` reports errors inside its JSON on stdout.
        const detail = stdout.trim() ? `: ${stdout.trim().slice(0, 1000)}` : '';
        reject(
          new Error(
            `go ${args.join(' ')} failed with exit code ${String(code)}${detail}; see ${displayPath(logFile)}`,
          ),
        );
      }
    });
  });
}
