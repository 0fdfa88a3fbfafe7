// What `make run` and `make dev` share: the local infrastructure and its data (.data/run, the
// same ports), every service and the gateway, FerretDB's PostgreSQL indexes kept, and Ctrl-C or
// SIGTERM stopping it all (after the caller's own processes) with the data kept.
import { keepFerretIndexes } from '../ferret-pg-indexes';
import { portsFromEnv } from '../foreground';
import { displayPath, ERASURE_LEDGER_FILE, RUN_DATA_DIR } from '../paths';
import { wireToGateway } from '../messages/local';
import { startInfra, type Infra } from '../start-infra';
import { startPlatform, type Platform } from './platform';

/**
 * What the media process gets besides the common settings (bench:media measures it so too):
 * glibc's allocator with libvips' threads, two arenas instead of eight per core halve its peak
 * memory (services/media README, "Bounded work and memory"); k8s and compose set the same.
 */
export const MEDIA_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;

/** Documented local defaults of the single-machine run (README); override with env. */
const LOCAL_ADMIN = { email: 'admin@moebelbruecke.local', password: 'moebel-admin-2026' };

/** REPLICAS (make run REPLICAS=2): processes of every service, 1 by default. */
export function replicasFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.REPLICAS?.trim();
  if (!raw) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`REPLICAS must be a whole number from 1 to 8, got "${raw}"`);
  return n;
}

export const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/**
 * How long since `make run` / `make dev` started (scripts/run.mjs passes --started-at=<ms>), for
 * the line that says the platform is ready; '' when started otherwise.
 */
export function sinceLaunch(): string {
  const arg = process.argv.find((a) => a.startsWith('--started-at='));
  const at = Number(arg?.slice('--started-at='.length));
  if (!Number.isFinite(at) || at <= 0) return '';
  return ` (ready ${((Date.now() - at) / 1000).toFixed(1)} s after make started it)`;
}

export interface LocalPlatform {
  infra: Infra;
  platform: Platform;
  admin: { email: string; password: string };
}

export async function startLocalPlatform(opts: {
  gatewayPort: number;
  /** where mail links lead */
  publicUrl: string;
  /** services restarted when their code changes (make dev) */
  watch?: boolean;
  /** what else runs, named in the stop line (e.g. "Vite, ") */
  alsoStopping?: string;
  /** stops the caller's own processes first */
  beforeStop?: () => void;
}): Promise<LocalPlatform> {
  const started: { infra?: Infra; stopPlatform?: () => Promise<void> } = {};
  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    print(`\n${why}: stopping ${opts.alsoStopping ?? ''}the services and local infrastructure …`);
    opts.beforeStop?.();
    await started.stopPlatform?.();
    await started.infra?.stop();
    print(`stopped. Data is kept in ${displayPath(RUN_DATA_DIR)}.`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('Ctrl-C'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const infra = await startInfra({
    dataDir: RUN_DATA_DIR,
    ports: portsFromEnv(),
    log: (l) => print(`infra        ${l}`),
    // on a new machine the platform does not wait for Mailpit's build (scripts/run.mjs)
    mailLater: true,
  });
  started.infra = infra;
  const admin = {
    email: process.env.ADMIN_EMAIL ?? LOCAL_ADMIN.email,
    password: process.env.ADMIN_PASSWORD ?? LOCAL_ADMIN.password,
  };
  // the messages stand-in's webhooks go to the gateway; the notification service sends to it
  const notificationEnv = infra.messages
    ? wireToGateway(
        infra.messages.standIn,
        infra.messages.credentials,
        `http://127.0.0.1:${opts.gatewayPort}`,
      )
    : {};
  const platform = await startPlatform({
    // erasures are recorded beside the backups, where a restore cannot undo them
    infraEnv: { ...infra.env, ERASURE_LEDGER: ERASURE_LEDGER_FILE },
    dataDir: RUN_DATA_DIR,
    gatewayPort: opts.gatewayPort,
    // reachable from this machine only unless HOST says otherwise (the documented admin password)
    gatewayHost: process.env.HOST ?? '127.0.0.1',
    servicePortBase: Number(process.env.SERVICE_PORT_BASE ?? 4001),
    replicas: replicasFromEnv(),
    metricsPort: Number(process.env.METRICS_PORT ?? 9464),
    publicUrl: opts.publicUrl,
    admin,
    overrides: process.env, // anything set by hand wins
    serviceEnv: {
      notification: notificationEnv,
      media: { ...MEDIA_PROCESS_ENV },
    },
    print,
    watch: opts.watch,
    onStoppable: (stopPlatform) => {
      started.stopPlatform = stopPlatform;
    },
  });
  // FerretDB on PostgreSQL: the indexes its pushed-down filters can use (ferret-pg-indexes.ts)
  if (infra.ferretPostgresUrl)
    keepFerretIndexes(infra.ferretPostgresUrl, (l) => print(`infra        ${l}`));
  return { infra, platform, admin };
}
