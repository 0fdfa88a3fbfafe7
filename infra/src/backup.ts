// `make backup` and `make restore`: the database and S3 of make run's data folder. When make run
// is running, its FerretDB and MinIO are read as they are (nothing is stopped, no request
// refused); when it is not, they are started here on free ports for the time of the call and
// stopped again. MONGO_URL and S3_URL point elsewhere, as for make run.
import fs from 'node:fs';
import path from 'node:path';
import { startFerret } from './ferretdb';
import { DEFAULT_MINIO_PASSWORD, DEFAULT_MINIO_USER, startMinio } from './minio';
import { chooseFerretBackend, DATABASE_MARKER } from './postgres';
import { liveChild } from './process';
import { displayPath } from './paths';
import { ensureTool } from './tools';
import type { Log } from './util';

export interface RunStorage {
  mongoUrl: string;
  s3Url: string;
  /** make run is using this data folder right now */
  running: boolean;
  /** stops what was started here */
  stop(): Promise<void>;
}

/** "--listen-addr=127.0.0.1:27018" or "--address", "127.0.0.1:9000" → the address. */
function addressIn(cmdline: string[], flag: string): string | undefined {
  for (let i = 0; i < cmdline.length; i++) {
    const arg = cmdline[i]!;
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
    if (arg === flag) return cmdline[i + 1];
  }
  return undefined;
}

/** make run's FerretDB and MinIO on this data folder, when they run (see liveChild). */
export function runningServers(dataDir: string): {
  mongoUrl?: string;
  s3Url?: string;
} {
  const ferret = liveChild(path.join(dataDir, 'pids', 'ferretdb.pid'), 'ferretdb');
  const minio = liveChild(path.join(dataDir, 'pids', 'minio.pid'), 'minio');
  const mongoAddress = ferret && addressIn(ferret.cmdline, '--listen-addr');
  const s3Address = minio && addressIn(minio.cmdline, '--address');
  const user = encodeURIComponent(minio?.environ.MINIO_ROOT_USER || DEFAULT_MINIO_USER);
  const password = encodeURIComponent(minio?.environ.MINIO_ROOT_PASSWORD || DEFAULT_MINIO_PASSWORD);
  return {
    mongoUrl: mongoAddress ? `mongodb://${mongoAddress}/` : undefined,
    s3Url: s3Address ? `http://${user}:${password}@${s3Address}` : undefined,
  };
}

/** Whether a data folder holds anything a backup could keep. */
export function hasData(dataDir: string): boolean {
  return (
    fs.existsSync(path.join(dataDir, DATABASE_MARKER)) ||
    fs.existsSync(path.join(dataDir, 'ferretdb')) ||
    fs.existsSync(path.join(dataDir, 'minio'))
  );
}

/**
 * The database and S3 of a data folder: MONGO_URL / S3_URL when set, make run's servers when it
 * is running, else FerretDB and MinIO started here (on free ports, console off).
 */
export async function openRunStorage(dataDir: string, log: Log): Promise<RunStorage> {
  const running = runningServers(dataDir);
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stoppers.splice(0).reverse()) await s();
  };
  try {
    let mongoUrl = process.env.MONGO_URL?.trim() || running.mongoUrl;
    if (!mongoUrl) {
      const backend = await chooseFerretBackend({ dataDir, fresh: false, log });
      const ferret = await startFerret({
        binary: await ensureTool('ferretdb', log),
        dataDir,
        backend,
        port: 0,
        log,
      });
      stoppers.push(() => ferret.stop());
      mongoUrl = ferret.url;
    }
    let s3Url = process.env.S3_URL?.trim() || running.s3Url;
    if (!s3Url) {
      const minio = await startMinio({
        binary: await ensureTool('minio', log),
        dataDir,
        port: 0,
        consolePort: 0,
        log,
      });
      stoppers.push(() => minio.stop());
      const { accessKey, secretKey, url } = minio.s3;
      s3Url = url.replace(
        '://',
        `://${encodeURIComponent(accessKey)}:${encodeURIComponent(secretKey)}@`,
      );
    }
    return {
      mongoUrl,
      s3Url,
      running: Boolean(running.mongoUrl || running.s3Url),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** Refuses a restore while make run uses the folder (it would write under running services). */
export function assertStopped(dataDir: string): void {
  const running = runningServers(dataDir);
  if (running.mongoUrl || running.s3Url)
    throw new Error(
      `make run is using ${displayPath(dataDir)}: stop it first (Ctrl-C), then restore`,
    );
}
