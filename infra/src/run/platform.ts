// Starts the built services and the gateway as separate processes against given infrastructure
// URLs and waits until the gateway reports every service ready. Used by `make run` (fixed ports,
// data kept) and by the browser tests (free ports, fresh data).
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../paths';
import { freePort, waitUntil } from '../util';
import { ensureInternalSecrets, ensureKeyPair, ensureLinkSecret, internalEnv } from './keys';
import { Supervisor } from './supervisor';

export const SERVICE_NAMES = ['auth', 'catalog', 'applications', 'media', 'notification'] as const;

export interface PlatformOptions {
  /** MONGO_URL, AMQP_URL, S3_URL, SMTP_URL (and anything else every service should get) */
  infraEnv: Record<string, string>;
  /** keys/ and logs/ live here */
  dataDir: string;
  gatewayPort: number;
  /**
   * the five services listen on this port and the next four; their further processes (replicas)
   * ten and twenty … ports higher
   */
  servicePortBase: number;
  /**
   * processes of every service (make run REPLICAS=2), on one database, broker and S3; the
   * gateway spreads requests over them round robin, as a Kubernetes Service over pods
   */
  replicas?: number;
  gatewayHost?: string;
  /** the gateway's metrics port; a free one when not given */
  metricsPort?: number;
  publicUrl: string;
  admin: { email: string; password: string };
  /** env for every process, applied last (make run passes process.env: what is set by hand wins) */
  overrides?: NodeJS.ProcessEnv;
  /**
   * env for one service only (the notification service's provider settings of the messages
   * stand-in); `overrides` still win
   */
  serviceEnv?: Partial<Record<(typeof SERVICE_NAMES)[number], Record<string, string>>>;
  print: (line: string) => void;
  /**
   * make dev: every process runs under `node --watch` and restarts when a file it loaded changes
   * (scripts/transpile-server.mjs --watch rewrites dist/ as the sources change)
   */
  watch?: boolean;
  /** how long to wait for every service to be ready */
  readyTimeoutMs?: number;
  /**
   * The services' databases are furniture_<service><suffix> instead of furniture_<service>: two
   * platforms on one database server (the two browser test files run side by side).
   */
  databaseSuffix?: string;
  /**
   * Called at once with the function that stops every started process, so that a stop asked for
   * while the platform is still starting (Ctrl-C, SIGTERM) leaves no service behind.
   */
  onStoppable?: (stop: () => Promise<void>) => void;
}

export interface Platform {
  gatewayUrl: string;
  /** each service's own URL (http://127.0.0.1:port): its first process */
  serviceUrls: Record<(typeof SERVICE_NAMES)[number], string>;
  /** every process of each service: its name in the supervisor and its URL (first one first) */
  instances: Record<(typeof SERVICE_NAMES)[number], { name: string; url: string }[]>;
  keys: { privateKeyFile: string; publicKeyFile: string; created: boolean };
  /** services whose build is missing (not started) */
  missing: string[];
  /** the processes, for fault tests (signal, pid, exited) */
  supervisor: Supervisor;
  stop(): Promise<void>;
}

/** How far apart the ports of a service's processes are: its replica r listens r × 10 above. */
const REPLICA_PORT_STEP = 10;

/** How many ports from `servicePortBase` on the services of a platform of `replicas` use. */
export const servicePortSpan = (replicas: number): number =>
  SERVICE_NAMES.length + REPLICA_PORT_STEP * (Math.max(1, replicas) - 1);

export async function startPlatform(opts: PlatformOptions): Promise<Platform> {
  const supervisor = new Supervisor({
    logDir: path.join(opts.dataDir, 'logs'),
    print: opts.print,
    cwd: REPO_ROOT,
  });
  opts.onStoppable?.(() => supervisor.stop());
  const keys = ensureKeyPair(path.join(opts.dataDir, 'keys'));
  const internalSecrets = ensureInternalSecrets(path.join(opts.dataDir, 'keys'));
  const linkSecret = ensureLinkSecret(path.join(opts.dataDir, 'keys'));
  const replicas = Math.max(1, Math.floor(opts.replicas ?? 1));
  const instances = Object.fromEntries(
    SERVICE_NAMES.map((name, i) => [
      name,
      Array.from({ length: replicas }, (_, r) => ({
        // the first process keeps the service's name (logs, fault tests); the others are -2, -3 …
        name: r === 0 ? name : `${name}-${r + 1}`,
        url: `http://127.0.0.1:${opts.servicePortBase + i + REPLICA_PORT_STEP * r}`,
      })),
    ]),
  ) as Platform['instances'];
  const services = SERVICE_NAMES.flatMap((name) =>
    instances[name].map((instance) => ({
      name,
      process: instance.name,
      port: Number(new URL(instance.url).port),
    })),
  );
  // every process of each service, to the gateway and to the services that call it (on
  // Kubernetes one Service address stands for them all)
  const urls = Object.fromEntries(
    SERVICE_NAMES.map((name) => [
      `${name.toUpperCase()}_URL`,
      instances[name].map((i) => i.url).join(','),
    ]),
  );
  const common: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    // with several processes, one that is told to stop first reports not-ready for longer than
    // the gateway takes to notice (UPSTREAM_PROBE_MS, 1 s), then stops taking connections: a
    // rolling restart refuses nothing (as the pods' drain on Kubernetes)
    ...(replicas > 1 ? { DRAIN_DELAY_MS: '2500' } : {}),
    ...opts.infraEnv,
    JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    PUBLIC_BASE_URL: opts.publicUrl,
    ...urls,
    ...opts.overrides,
  };
  delete common.PORT;

  const nodeArgs = opts.watch ? ['--watch'] : [];
  const missing: string[] = [];
  for (const service of services) {
    const entry = path.join(REPO_ROOT, 'services', service.name, 'dist', 'start.js');
    if (!fs.existsSync(entry)) {
      if (!missing.includes(service.name)) missing.push(service.name);
      continue;
    }
    supervisor.start({
      name: service.process,
      entry,
      nodeArgs,
      env: {
        ...common,
        ...notOverridden(opts.serviceEnv?.[service.name], opts.overrides),
        ...internalEnv(internalSecrets, service.name),
        ...(service.name === 'applications' ? { LINK_SECRET: linkSecret } : {}),
        PORT: String(service.port),
        // each process's metrics on a port of their own, chosen by the system (several replicas)
        METRICS_PORT: '0',
        ...(opts.databaseSuffix
          ? { MONGO_DB: `furniture_${service.name}${opts.databaseSuffix}` }
          : {}),
        ...(service.name === 'auth'
          ? {
              JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
              ADMIN_EMAIL: opts.admin.email,
              ADMIN_PASSWORD: opts.admin.password,
              // reachable from this machine only: the README's admin password may be used
              LOCAL_RUN: String(isLoopback(opts.gatewayHost ?? '127.0.0.1')),
            }
          : {}),
      },
    });
  }
  // the gateway's metrics listener: `make run` asks for its fixed port (9464); tests and benches
  // take a free one, so that several platforms on one machine never fight over it
  common.METRICS_PORT = String(
    opts.metricsPort ?? (await freePort(opts.gatewayHost ?? '127.0.0.1')),
  );
  supervisor.start({
    name: 'gateway',
    entry: path.join(REPO_ROOT, 'gateway', 'dist', 'start.js'),
    nodeArgs,
    env: {
      ...common,
      PORT: String(opts.gatewayPort),
      HOST: opts.gatewayHost ?? '127.0.0.1',
      SPA_DIR: path.join(REPO_ROOT, 'frontend', 'dist'),
    },
  });

  const gatewayUrl = `http://127.0.0.1:${opts.gatewayPort}`;
  try {
    await waitUntil(
      async () => {
        const res = await fetch(`${gatewayUrl}/api/v1/health`);
        const body = (await res.json().catch(() => ({}))) as {
          services?: Record<string, { ready: boolean; instances?: number }>;
        };
        // every process of every service, not just one of each
        const waiting = Object.entries(body.services ?? {})
          .filter(([, s]) => !s.ready || (s.instances ?? 1) < replicas)
          .map(([name, s]) => (replicas > 1 ? `${name} (${s.instances ?? 0}/${replicas})` : name));
        if (!res.ok || waiting.length > 0)
          throw new Error(`not ready yet: ${waiting.join(', ') || 'gateway'}`);
      },
      {
        timeoutMs: opts.readyTimeoutMs ?? 120_000,
        intervalMs: 500,
        what: 'the gateway (every service ready)',
      },
    );
  } catch (err) {
    await supervisor.stop();
    throw err;
  }
  const serviceUrls = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, instances[name][0]!.url]),
  ) as Platform['serviceUrls'];
  return {
    gatewayUrl,
    serviceUrls,
    instances,
    keys,
    missing,
    supervisor,
    stop: () => supervisor.stop(),
  };
}

/** The entries of `env` that `overrides` does not set. */
function notOverridden(
  env: Record<string, string> | undefined,
  overrides: NodeJS.ProcessEnv | undefined,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env ?? {}).filter(([key]) => overrides?.[key] === undefined),
  );
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
