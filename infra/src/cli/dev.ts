// `make dev`: the platform of `make run` for working on it. The same local infrastructure and data
// (.data/run, the same ports), the services and the gateway under `node --watch` (each restarts
// when a file it loaded changes), scripts/transpile-server.mjs --watch turning each saved source
// into dist/ at once (no type check: `make typecheck`), and the SPA on Vite's dev server
// (http://localhost:5173, hot reload) passing /api and /media on to the gateway.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { keepFerretIndexes } from '../ferret-pg-indexes';
import { portsFromEnv } from '../foreground';
import { displayPath, REPO_ROOT, RUN_DATA_DIR } from '../paths';
import { startPlatform } from '../run/platform';
import { startInfra, type Infra } from '../start-infra';
import { errorMessage } from '../util';

const LOCAL_ADMIN = { email: 'admin@moebelbruecke.local', password: 'moebel-admin-2026' };

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** A helper process whose output lines are printed with a name in front. */
function helper(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (l) => print(`${name.padEnd(12)} ${l}`));
  }
  return child;
}

async function main(): Promise<void> {
  const gatewayPort = Number(process.env.PORT ?? process.env.GATEWAY_PORT ?? 8080);
  const spaPort = Number(process.env.SPA_DEV_PORT ?? 5173);
  const spaUrl = `http://localhost:${spaPort}`;
  const started: { infra?: Infra; stopPlatform?: () => Promise<void>; helpers: ChildProcess[] } = {
    helpers: [],
  };
  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    print(`\n${why}: stopping Vite, the services and local infrastructure …`);
    for (const child of started.helpers) child.kill('SIGTERM');
    await started.stopPlatform?.();
    await started.infra?.stop();
    print(`stopped. Data is kept in ${displayPath(RUN_DATA_DIR)}.`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('Ctrl-C'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // dist/ is already up to date (make dev ran the transpiler once); from now on each saved file
  started.helpers.push(
    helper(
      'transpile',
      [path.join(REPO_ROOT, 'scripts', 'transpile-server.mjs'), '--watch'],
      REPO_ROOT,
      process.env,
    ),
  );
  const infra = await startInfra({
    dataDir: RUN_DATA_DIR,
    ports: portsFromEnv(),
    log: (l) => print(`infra        ${l}`),
  });
  started.infra = infra;
  const admin = {
    email: process.env.ADMIN_EMAIL ?? LOCAL_ADMIN.email,
    password: process.env.ADMIN_PASSWORD ?? LOCAL_ADMIN.password,
  };
  const platform = await startPlatform({
    infraEnv: infra.env,
    dataDir: RUN_DATA_DIR,
    gatewayPort,
    gatewayHost: process.env.HOST ?? '127.0.0.1',
    servicePortBase: Number(process.env.SERVICE_PORT_BASE ?? 4001),
    metricsPort: Number(process.env.METRICS_PORT ?? 9464),
    // links in mail lead to the dev server, which hands /api on to the gateway
    publicUrl: process.env.PUBLIC_BASE_URL ?? spaUrl,
    admin,
    overrides: process.env,
    print,
    watch: true,
    onStoppable: (stopPlatform) => {
      started.stopPlatform = stopPlatform;
    },
  });
  if (infra.ferretPostgresUrl)
    keepFerretIndexes(infra.ferretPostgresUrl, (l) => print(`infra        ${l}`));
  const frontend = path.join(REPO_ROOT, 'frontend');
  started.helpers.push(
    helper(
      'vite',
      [
        path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
        '--port',
        String(spaPort),
        '--strictPort',
      ],
      frontend,
      {
        ...process.env,
        GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
        SPA_DEV_PORT: String(spaPort),
      },
    ),
  );
  if (platform.missing.length > 0) {
    print(`infra        not built, not started: ${platform.missing.join(', ')}`);
  }
  print(
    [
      '',
      '  ✔ Möbelbrücke is running for development',
      `    web app (Vite)   ${spaUrl}/   (hot reload; /api and /media go to the gateway)`,
      `    gateway          http://127.0.0.1:${gatewayPort}/api/v1/health`,
      `    admin login      ${admin.email} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : admin.password}`,
      `    captured e-mail  ${infra.mailApiUrl || '(external SMTP)'}`,
      '    services restart when their code changes (no type check: make typecheck)     stop with Ctrl-C',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  print(`make dev failed: ${errorMessage(err)}`);
  process.exit(1);
});
