// `make run`: the whole platform on this machine. Starts the local infrastructure (or uses the
// URLs given in the environment), every service and the gateway as separate processes, waits
// until the gateway reports every service ready, and prints where to go and how to log in.
// Data (database, photos, captured mail, signing keys) stays in .data/run between runs.
import fs from 'node:fs';
import path from 'node:path';
import { portsFromEnv } from '../foreground';
import { displayPath, REPO_ROOT, RUN_DATA_DIR } from '../paths';
import { ensureKeyPair } from '../run/keys';
import { Supervisor } from '../run/supervisor';
import { startInfra, type Infra } from '../start-infra';
import { errorMessage, waitUntil } from '../util';

/** Documented local defaults of the single-machine run (README); override with env. */
const LOCAL_ADMIN = { email: 'admin@moebelbruecke.local', password: 'moebel-admin-2026' };
/** Service ports: SERVICE_PORT_BASE (4001) and the next four, on 127.0.0.1. */
const PORT_BASE = Number(process.env.SERVICE_PORT_BASE ?? 4001);
const SERVICES = ['auth', 'catalog', 'applications', 'media', 'notification'].map((name, i) => ({
  name,
  port: PORT_BASE + i,
}));

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<void> {
  const gatewayPort = Number(process.env.PORT ?? process.env.GATEWAY_PORT ?? 8080);
  const publicUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${gatewayPort}`;
  const supervisor = new Supervisor({
    logDir: path.join(RUN_DATA_DIR, 'logs'),
    print,
    cwd: REPO_ROOT,
  });
  const started: { infra?: Infra } = {};
  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    print(`\n${why}: stopping services and local infrastructure …`);
    await supervisor.stop();
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
  });
  started.infra = infra;
  const keys = ensureKeyPair(path.join(RUN_DATA_DIR, 'keys'));
  if (keys.created)
    print(`infra        created the token signing key pair in ${displayPath(keys.privateKeyFile)}`);

  const urls = Object.fromEntries(
    SERVICES.map((s) => [`${s.name.toUpperCase()}_URL`, `http://127.0.0.1:${s.port}`]),
  );
  const common: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    ...infra.env,
    JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    PUBLIC_BASE_URL: publicUrl,
    ...urls,
    ...process.env, // anything set by hand wins
  };
  delete common.PORT;

  const missing: string[] = [];
  for (const service of SERVICES) {
    const entry = path.join(REPO_ROOT, 'services', service.name, 'dist', 'start.js');
    if (!fs.existsSync(entry)) {
      missing.push(service.name);
      continue;
    }
    supervisor.start({
      name: service.name,
      entry,
      env: {
        ...common,
        PORT: String(service.port),
        ...(service.name === 'auth'
          ? {
              JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
              ADMIN_EMAIL: process.env.ADMIN_EMAIL ?? LOCAL_ADMIN.email,
              ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? LOCAL_ADMIN.password,
            }
          : {}),
      },
    });
  }
  if (missing.length > 0)
    print(`infra        not built, not started: ${missing.join(', ')} (run make build)`);
  supervisor.start({
    name: 'gateway',
    entry: path.join(REPO_ROOT, 'gateway', 'dist', 'start.js'),
    env: {
      ...common,
      PORT: String(gatewayPort),
      HOST: process.env.HOST ?? '0.0.0.0',
      SPA_DIR: path.join(REPO_ROOT, 'frontend', 'dist'),
    },
  });

  await waitUntil(
    async () => {
      const res = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/health`);
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as {
          services?: Record<string, { ready: boolean }>;
        };
        const waiting = Object.entries(body.services ?? {})
          .filter(([, s]) => !s.ready)
          .map(([name]) => name);
        throw new Error(`not ready yet: ${waiting.join(', ') || 'gateway'}`);
      }
    },
    { timeoutMs: 120_000, intervalMs: 500, what: 'the gateway (every service ready)' },
  );
  const admin = {
    email: process.env.ADMIN_EMAIL ?? LOCAL_ADMIN.email,
    password: process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : LOCAL_ADMIN.password,
  };
  print(
    [
      '',
      '  ✔ Möbelbrücke is running',
      `    public site      ${publicUrl}/`,
      `    back-office      ${publicUrl}/admin/login`,
      `    admin login      ${admin.email} / ${admin.password}   (created on the first start; change the password in the profile)`,
      `    captured e-mail  ${infra.mailApiUrl || '(external SMTP)'}`,
      `    health           ${publicUrl}/api/v1/health`,
      `    data             ${displayPath(RUN_DATA_DIR)} (kept between runs)     stop with Ctrl-C`,
      '',
    ].join('\n'),
  );
}

main().catch(async (err: unknown) => {
  print(`make run failed: ${errorMessage(err)}`);
  process.exit(1);
});
