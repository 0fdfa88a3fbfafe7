// `make run`: the whole platform on this machine. Starts the local infrastructure (or uses the
// URLs given in the environment), every service and the gateway as separate processes, waits
// until the gateway reports every service ready, and prints where to go and how to log in.
// Data (database, photos, captured mail, signing keys) stays in .data/run between runs.
import { keepFerretIndexes } from '../ferret-pg-indexes';
import { portsFromEnv } from '../foreground';
import { displayPath, RUN_DATA_DIR } from '../paths';
import { startPlatform } from '../run/platform';
import { startInfra, type Infra } from '../start-infra';
import { errorMessage } from '../util';

/** Documented local defaults of the single-machine run (README); override with env. */
const LOCAL_ADMIN = { email: 'admin@moebelbruecke.local', password: 'moebel-admin-2026' };

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<void> {
  const gatewayPort = Number(process.env.PORT ?? process.env.GATEWAY_PORT ?? 8080);
  const publicUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${gatewayPort}`;
  const started: { infra?: Infra; stopPlatform?: () => Promise<void> } = {};
  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    print(`\n${why}: stopping services and local infrastructure …`);
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
    // reachable from this machine only unless HOST says otherwise (the documented admin password)
    gatewayHost: process.env.HOST ?? '127.0.0.1',
    servicePortBase: Number(process.env.SERVICE_PORT_BASE ?? 4001),
    metricsPort: Number(process.env.METRICS_PORT ?? 9464),
    publicUrl,
    admin,
    overrides: process.env, // anything set by hand wins
    print,
    onStoppable: (stopPlatform) => {
      started.stopPlatform = stopPlatform;
    },
  });
  // FerretDB on PostgreSQL: the indexes its pushed-down filters can use (ferret-pg-indexes.ts)
  if (infra.ferretPostgresUrl)
    keepFerretIndexes(infra.ferretPostgresUrl, (l) => print(`infra        ${l}`));
  if (platform.keys.created) {
    print(
      `infra        created the token signing key pair in ${displayPath(platform.keys.privateKeyFile)}`,
    );
  }
  if (platform.missing.length > 0) {
    print(`infra        not built, not started: ${platform.missing.join(', ')} (run make build)`);
  }
  print(
    [
      '',
      '  ✔ Möbelbrücke is running',
      `    public site      ${publicUrl}/`,
      `    back-office      ${publicUrl}/admin/login`,
      `    admin login      ${admin.email} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : admin.password}   (created on the first start; change the password in the profile)`,
      `    captured e-mail  ${infra.mailApiUrl || '(external SMTP)'}`,
      `    health           ${publicUrl}/api/v1/health`,
      `    data             ${displayPath(RUN_DATA_DIR)} (kept between runs)     stop with Ctrl-C`,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  print(`make run failed: ${errorMessage(err)}`);
  process.exit(1);
});
