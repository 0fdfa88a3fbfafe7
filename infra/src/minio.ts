// MinIO (S3 API) storing objects under <dataDir>/minio.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'minio';
import { killStaleProcess, ManagedProcess } from './process';
import { choosePort, waitUntil, type Log } from './util';

/** Documented local-only defaults; override with MINIO_ROOT_USER / MINIO_ROOT_PASSWORD. */
export const DEFAULT_MINIO_USER = 'furniture';
export const DEFAULT_MINIO_PASSWORD = 'furniture-local-secret';

export interface S3Settings {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  /** http://host:port */
  url: string;
}

export interface MinioOptions {
  binary: string;
  dataDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** 0 or absent: a free port and the web console switched off. */
  consolePort?: number;
  host?: string;
  log: Log;
  timeoutMs?: number;
}

export interface RunningMinio {
  s3: S3Settings;
  consoleUrl?: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export async function startMinio(opts: MinioOptions): Promise<RunningMinio> {
  const host = opts.host ?? '127.0.0.1';
  const pidFile = path.join(opts.dataDir, 'pids', 'minio.pid');
  await killStaleProcess(pidFile, opts.binary, opts.log);
  const port = await choosePort(
    opts.port,
    'MinIO',
    'set S3_PORT to use another port, or S3_URL to use a running server',
    host,
  );
  const consoleEnabled = Boolean(opts.consolePort);
  const consolePort = await choosePort(
    opts.consolePort,
    'MinIO console',
    'set S3_CONSOLE_PORT to use another port',
    host,
  );
  const storeDir = path.join(opts.dataDir, 'minio');
  fs.mkdirSync(storeDir, { recursive: true });
  const accessKey = process.env.MINIO_ROOT_USER || DEFAULT_MINIO_USER;
  const secretKey = process.env.MINIO_ROOT_PASSWORD || DEFAULT_MINIO_PASSWORD;

  const started = Date.now();
  const proc = new ManagedProcess({
    name: 'MinIO',
    command: opts.binary,
    args: [
      'server',
      storeDir,
      '--address',
      `${host}:${port}`,
      '--console-address',
      `${host}:${consolePort}`,
    ],
    env: {
      ...process.env,
      MINIO_ROOT_USER: accessKey,
      MINIO_ROOT_PASSWORD: secretKey,
      MINIO_BROWSER: consoleEnabled ? 'on' : 'off',
      MINIO_UPDATE: 'off',
    },
    logFile: path.join(opts.dataDir, 'logs', 'minio.log'),
    pidFile,
  });
  const s3: S3Settings = {
    endPoint: host,
    port,
    useSSL: false,
    accessKey,
    secretKey,
    url: `http://${host}:${port}`,
  };
  const waitOpts = {
    timeoutMs: opts.timeoutMs ?? 60_000,
    abort: proc.exitAsError(),
    hint: () => proc.logHint(),
  };
  try {
    await waitUntil(() => checkLive(s3.url), {
      ...waitOpts,
      what: `MinIO health check on ${host}:${port}`,
    });
    await waitUntil(() => listBuckets(s3), {
      ...waitOpts,
      what: `MinIO S3 API on ${host}:${port}`,
    });
  } catch (err) {
    await proc.stop();
    throw err;
  }
  opts.log(
    `MinIO ready on ${s3.url} (${Date.now() - started} ms)${consoleEnabled ? `, console http://${host}:${consolePort}` : ''}`,
  );
  return {
    s3,
    consoleUrl: consoleEnabled ? `http://${host}:${consolePort}` : undefined,
    process: proc,
    stop: () => proc.stop(),
  };
}

async function checkLive(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/minio/health/live`, { signal: AbortSignal.timeout(2000) });
  if (!res.ok) throw new Error(`health/live answered ${res.status}`);
}

/** A signed request that needs a working object layer and valid credentials. */
async function listBuckets(s3: S3Settings): Promise<void> {
  const client = new Client({
    endPoint: s3.endPoint,
    port: s3.port,
    useSSL: s3.useSSL,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
  });
  await client.listBuckets();
}

/** Parses S3_URL (http://ACCESS:SECRET@host:port). */
export function parseS3Url(raw: string): S3Settings {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`S3_URL is not a URL: ${raw.replace(/\/\/[^@]*@/, '//***@')}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error('S3_URL must start with http:// or https://');
  if (!u.username || !u.password)
    throw new Error('S3_URL must carry credentials: http://ACCESS_KEY:SECRET_KEY@host:port');
  const useSSL = u.protocol === 'https:';
  const port = u.port ? Number(u.port) : useSSL ? 443 : 80;
  return {
    endPoint: u.hostname,
    port,
    useSSL,
    accessKey: decodeURIComponent(u.username),
    secretKey: decodeURIComponent(u.password),
    url: `${u.protocol}//${u.host}`,
  };
}

/** The inverse of parseS3Url. */
export function formatS3Url(s3: S3Settings): string {
  const u = new URL(s3.url);
  return `${u.protocol}//${encodeURIComponent(s3.accessKey)}:${encodeURIComponent(s3.secretKey)}@${u.host}`;
}
