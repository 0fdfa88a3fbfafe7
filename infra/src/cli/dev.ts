// `make dev`: the platform of `make run` for working on it. The same local infrastructure and data
// (.data/run, the same ports), the services and the gateway under `node --watch` (each restarts
// when a file it loaded changes), scripts/transpile-server.mjs --watch turning each saved source
// into dist/ at once (no type check: `make typecheck`), and the SPA on Vite's dev server
// (http://localhost:5173, hot reload) passing /api and /media on to the gateway.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { REPO_ROOT } from '../paths';
import { print, sinceLaunch, startLocalPlatform } from '../run/local';
import { errorMessage } from '../util';

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
  const helpers: ChildProcess[] = [];
  // dist/ is already up to date (make dev ran the transpiler once); from now on each saved file
  helpers.push(
    helper(
      'transpile',
      [path.join(REPO_ROOT, 'scripts', 'transpile-server.mjs'), '--watch'],
      REPO_ROOT,
      process.env,
    ),
  );
  const { infra, platform, admin } = await startLocalPlatform({
    gatewayPort,
    // links in mail lead to the dev server, which hands /api on to the gateway
    publicUrl: process.env.PUBLIC_BASE_URL ?? spaUrl,
    watch: true,
    alsoStopping: 'Vite, ',
    beforeStop: () => {
      for (const child of helpers) child.kill('SIGTERM');
    },
  });
  const frontend = path.join(REPO_ROOT, 'frontend');
  helpers.push(
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
      `  ✔ Möbelbrücke is running for development${sinceLaunch()}`,
      `    web app (Vite)   ${spaUrl}/   (hot reload; /api and /media go to the gateway)`,
      `    gateway          http://127.0.0.1:${gatewayPort}/api/v1/health`,
      `    admin login      ${admin.email} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : admin.password}`,
      `    captured e-mail  ${infra.mailApiUrl || '(external SMTP)'}`,
      `    WhatsApp / SMS   ${infra.messagesApiUrl || '(configured provider)'}`,
      '    services restart when their code changes (no type check: make typecheck)     stop with Ctrl-C',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  print(`make dev failed: ${errorMessage(err)}`);
  process.exit(1);
});
