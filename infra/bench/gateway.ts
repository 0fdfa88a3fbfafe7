// npm run bench:gateway — the same authenticated read (GET /api/v1/auth/me) measured directly
// against the auth service and through the gateway, in one run, on this machine's real servers.
// Prints requests/s and p50/p95 latency of both and their ratio. Asserts nothing.
// BENCH_GATEWAY_NODE_OPTIONS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is given to the gateway.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureKeyPair } from '../src/run/keys';
import { REPO_ROOT } from '../src/paths';
import { startInfra } from '../src/start-infra';
import { freePort, waitUntil } from '../src/util';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ADMIN = { email: 'bench@example.org', password: 'bench-password-1' };

function startNode(entry: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, path.join(REPO_ROOT, entry)], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function ready(url: string): Promise<void> {
  await waitUntil(
    async () => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`status ${res.status}`);
    },
    { timeoutMs: 60_000, what: url },
  );
}

interface Result {
  rps: number;
  p50: number;
  p95: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(url: string, token: string, seconds: number): Promise<Result> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    errors: result.errors + result.non2xx,
  };
}

async function main(): Promise<void> {
  const dataDir = path.join(REPO_ROOT, '.data', 'bench-gateway');
  const infra = await startInfra({ dataDir, fresh: true });
  const keys = ensureKeyPair(path.join(dataDir, 'keys'));
  const [authPort, gatewayPort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  try {
    children.push(
      startNode('services/auth/dist/start.js', {
        ...infra.env,
        PORT: String(authPort),
        JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
        JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        AMQP_EXCHANGE: 'bench.events',
      }),
      startNode(
        'gateway/dist/start.js',
        {
          PORT: String(gatewayPort),
          AUTH_URL: `http://127.0.0.1:${authPort}`,
          JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
          AMQP_EXCHANGE: 'bench.events',
        },
        // e.g. --cpu-prof --cpu-prof-dir=/tmp/prof: where the gateway spends its time
        (process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
      ),
    );
    await ready(`http://127.0.0.1:${authPort}/ready`);
    await ready(`http://127.0.0.1:${gatewayPort}/ready`);
    const login = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };

    const direct = `http://127.0.0.1:${authPort}/api/v1/auth/me`;
    const viaGateway = `http://127.0.0.1:${gatewayPort}/api/v1/auth/me`;
    await measure(direct, token, 2); // warm-up of both paths
    await measure(viaGateway, token, 2);
    const d = await measure(direct, token, DURATION_S);
    const g = await measure(viaGateway, token, DURATION_S);

    const row = (name: string, r: Result) =>
      `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${String(r.errors).padStart(7)}`;
    console.log(
      `\nGET /api/v1/auth/me, ${CONNECTIONS} connections, ${DURATION_S} s each (after 2 s warm-up)`,
    );
    console.log(
      `${'path'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'errors'.padStart(7)}`,
    );
    console.log(row('auth service direct', d));
    console.log(row('through the gateway', g));
    console.log(
      `gateway/direct: throughput ${(g.rps / d.rps).toFixed(2)}x, p50 +${(g.p50 - d.p50).toFixed(1)} ms, p95 +${(g.p95 - d.p95).toFixed(1)} ms`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
    );
    await infra.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
