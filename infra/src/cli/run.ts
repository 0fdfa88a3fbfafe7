// `make run`: the whole platform on this machine. Starts the local infrastructure (or uses the
// URLs given in the environment), every service and the gateway as separate processes, waits
// until the gateway reports every service ready, and prints where to go and how to log in.
// Data (database, photos, captured mail and messages, signing keys) stays in .data/run between runs.
import { displayPath, RUN_DATA_DIR } from '../paths';
import { print, replicasFromEnv, sinceLaunch, startLocalPlatform } from '../run/local';
import { errorMessage } from '../util';

async function main(): Promise<void> {
  const gatewayPort = Number(process.env.PORT ?? process.env.GATEWAY_PORT ?? 8080);
  const publicUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${gatewayPort}`;
  const { infra, platform, admin } = await startLocalPlatform({ gatewayPort, publicUrl });
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
      `  ✔ Möbelbrücke is running${sinceLaunch()}`,
      `    public site      ${publicUrl}/`,
      `    back-office      ${publicUrl}/admin/login`,
      `    admin login      ${admin.email} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : admin.password}   (created on the first start; change the password in the profile)`,
      `    captured e-mail  ${infra.mailApiUrl || '(external SMTP)'}`,
      `    WhatsApp / SMS   ${infra.messagesApiUrl || '(configured provider)'}`,
      `    health           ${publicUrl}/api/v1/health`,
      ...(replicasFromEnv() > 1
        ? [
            `    processes        ${replicasFromEnv()} of every service behind the gateway (REPLICAS)`,
          ]
        : []),
      `    data             ${displayPath(RUN_DATA_DIR)} (kept between runs)     stop with Ctrl-C`,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  print(`make run failed: ${errorMessage(err)}`);
  process.exit(1);
});
