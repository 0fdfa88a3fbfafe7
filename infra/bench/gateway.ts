// npm run bench:gateway — the gateway's hop (issue 46), in one run on this machine's real servers:
// the same call measured directly at its service and through the gateway, alternately, for
//   - GET /api/v1/auth/me with a staff token (the auth service; never kept by the gateway), and
//   - GET /api/v1/categories/ as a browser asks it (the catalog; the gateway's public cache off,
//     PUBLIC_CACHE_MAX_MS=0, so every request is proxied: the hop alone, as bench:catalog's
//     "hop only" rows).
// Prints req/s and p50/p95 latency per row, one "hop R" line per call (R = req/s through the
// gateway / direct) and the machine's load. Asserts nothing.
//
// Needs `npm run build:server` (or `make build`) first. Knobs: BENCH_DURATION (s per row, 10),
// BENCH_CONNECTIONS (16), BENCH_ROUNDS (3: direct and gateway alternately, medians),
// BENCH_ACCEPT_ENCODING (`gzip, deflate, br`, as browsers send), BENCH_BEFORE_GATEWAY (another
// gateway build's start.js, e.g. a copy of an older gateway/dist inside gateway/: measured
// beside this one in the same rounds, before and after in one run),
// BENCH_GATEWAY_NODE_OPTIONS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", given to this gateway).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqplib from 'amqplib';
import autocannon from 'autocannon';
import { ensureKeyPair } from '../src/run/keys';
import { REPO_ROOT } from '../src/paths';
import { startInfra } from '../src/start-infra';
import { freePort, waitUntil } from '../src/util';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';
const BEFORE_GATEWAY = process.env.BENCH_BEFORE_GATEWAY;
const ADMIN = { email: 'bench@example.org', password: 'bench-password-1' };

function startNode(entry: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, path.resolve(REPO_ROOT, entry)], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function ready(url: string, child: ChildProcess): Promise<void> {
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the process ended (${child.exitCode})`);
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
  /** CPU (user + system) per request of the gateway and of the service, µs (Linux) */
  gatewayCpuUs: number;
  serviceCpuUs: number;
}

/**
 * A process's CPU time so far (user + system, ms) from /proc; NaN elsewhere. Other work on a
 * shared machine changes req/s from run to run; the CPU each process spends per request changes
 * much less, so before and after compare on it too.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The queues the services made on this run's exchange, and the exchange. */
async function deleteBrokerObjects(url: string, exchange: string): Promise<void> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createChannel();
    for (const service of ['auth', 'catalog'])
      for (const suffix of ['', '.retry', '.dead'])
        await ch.deleteQueue(`${exchange}.${service}${suffix}`).catch(() => undefined);
    await ch.deleteExchange(exchange).catch(() => undefined);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Each figure's median over the rounds. */
function medianOf(results: Result[]): Result {
  const median = (pick: (r: Result) => number) =>
    results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
  return {
    rps: median((r) => r.rps),
    p50: median((r) => r.p50),
    p95: median((r) => r.p95),
    errors: results.reduce((n, r) => n + r.errors, 0),
    gatewayCpuUs: median((r) => r.gatewayCpuUs),
    serviceCpuUs: median((r) => r.serviceCpuUs),
  };
}

async function measure(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pids: { gateway?: number; service?: number } = {},
): Promise<Result> {
  const latencies: number[] = [];
  const before = { gateway: cpuMs(pids.gateway), service: cpuMs(pids.service) };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  latencies.sort((a, b) => a - b);
  const perRequestUs = (ms: number) => (ms * 1000) / Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    errors: result.errors + result.non2xx,
    gatewayCpuUs: perRequestUs(cpuMs(pids.gateway) - before.gateway),
    serviceCpuUs: perRequestUs(cpuMs(pids.service) - before.service),
  };
}

async function main(): Promise<void> {
  const dataDir = path.join(REPO_ROOT, '.data', 'bench-gateway');
  const infra = await startInfra({ dataDir, fresh: true, dropDatabaseOnStop: true });
  const keys = ensureKeyPair(path.join(dataDir, 'keys'));
  const exchange = `bench.gateway.${process.pid}`;
  const [authPort, catalogPort, gatewayPort, beforePort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const children: ChildProcess[] = [];
  const start = async (
    entry: string,
    port: number,
    readyPath: string,
    env: NodeJS.ProcessEnv,
    nodeArgs: string[] = [],
  ) => {
    const child = startNode(
      entry,
      // no metrics listeners: their fixed default port may be another run's
      { ...infra.env, PORT: String(port), METRICS_ENABLED: 'false', ...env },
      nodeArgs,
    );
    children.push(child);
    await ready(`http://127.0.0.1:${port}${readyPath}`, child);
    return child.pid;
  };
  const gatewayEnv = {
    AUTH_URL: `http://127.0.0.1:${authPort}`,
    CATALOG_URL: `http://127.0.0.1:${catalogPort}`,
    JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    AMQP_EXCHANGE: exchange,
    // every request proxied: the hop alone (the auth service's answers are never kept anyway)
    PUBLIC_CACHE_MAX_MS: '0',
    PUBLIC_CACHE_LIVE_MAX_MS: '0',
  };
  try {
    const authPid = await start('services/auth/dist/start.js', authPort, '/ready', {
      MONGO_DB: 'bench_gateway_auth',
      JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
      JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AMQP_EXCHANGE: exchange,
    });
    const catalogPid = await start('services/catalog/dist/start.js', catalogPort, '/ready', {
      MONGO_DB: 'bench_gateway_catalog',
      JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
      AMQP_EXCHANGE: exchange,
    });
    const gatewayPid = await start(
      'gateway/dist/start.js',
      gatewayPort,
      '/health',
      gatewayEnv,
      // e.g. --cpu-prof --cpu-prof-dir=/tmp/prof: where the gateway spends its time
      (process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
    );
    const beforePid = BEFORE_GATEWAY
      ? await start(BEFORE_GATEWAY, beforePort, '/health', gatewayEnv)
      : undefined;

    const login = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };

    const calls = [
      {
        name: '/auth/me',
        path: '/api/v1/auth/me',
        service: authPort,
        servicePid: authPid,
        headers: { authorization: `Bearer ${token}` } as Record<string, string>,
      },
      {
        name: 'categories',
        path: '/api/v1/categories/',
        service: catalogPort,
        servicePid: catalogPid,
        headers: (ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}) as Record<
          string,
          string
        >,
      },
    ];
    const paths: { name: string; port: (c: (typeof calls)[number]) => number; pid?: number }[] = [
      { name: 'direct', port: (c) => c.service },
      { name: 'gateway', port: () => gatewayPort, pid: gatewayPid },
      ...(BEFORE_GATEWAY
        ? [{ name: 'gateway before', port: () => beforePort, pid: beforePid }]
        : []),
    ];
    const rows: { call: string; path: string; r: Result; hop: number }[] = [];
    for (const call of calls) {
      const runs = new Map<string, Result[]>(paths.map(({ name }) => [name, []]));
      for (let round = 0; round < ROUNDS; round++)
        // the gateways in turn first and second after direct (whichever goes later in a round
        // meets the machine's other work later)
        for (const { name, port, pid } of round % 2
          ? [paths[0]!, ...paths.slice(1).reverse()]
          : paths) {
          const url = `http://127.0.0.1:${port(call)}${call.path}`;
          await measure(url, call.headers, 2); // warm-up
          const pids = { gateway: pid, service: call.servicePid };
          runs.get(name)!.push(await measure(url, call.headers, DURATION_S, pids));
        }
      // the hop per round (through the gateway / direct in the same round), then its median:
      // the machine's other work drifts less within a round than over the whole run
      const direct = runs.get('direct')!;
      for (const { name } of paths) {
        const ratios = runs.get(name)!.map((r, i) => r.rps / direct[i]!.rps);
        const hop = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
        rows.push({ call: call.name, path: name, r: medianOf(runs.get(name)!), hop });
      }
    }

    const load = os.loadavg().map((l) => l.toFixed(1));
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION_S} s per row after a 2 s warm-up, direct and ` +
        `gateway alternately ${ROUNDS} times (medians); the gateway's public cache off; ` +
        `categories with Accept-Encoding: ${ACCEPT_ENCODING || 'none'}; ${os.cpus().length} CPUs, ` +
        `load average ${load.join(' / ')} (1 / 5 / 15 min)`,
    );
    console.log(
      `${'call'.padEnd(12)} ${'path'.padEnd(15)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ` +
        `${'p95 ms'.padStart(8)} ${'errors'.padStart(7)} ${'gateway µs/req'.padStart(15)} ` +
        `${'service µs/req'.padStart(15)}`,
    );
    const us = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');
    for (const { call, path: via, r } of rows)
      console.log(
        `${call.padEnd(12)} ${via.padEnd(15)} ${r.rps.toFixed(0).padStart(8)} ` +
          `${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${String(r.errors).padStart(7)} ` +
          `${(via === 'direct' ? '' : us(r.gatewayCpuUs)).padStart(15)} ${us(r.serviceCpuUs).padStart(15)}`,
      );
    console.log('(µs/req: CPU time, user + system, of that process per request)\n');
    for (const call of calls) {
      const direct = rows.find((r) => r.call === call.name && r.path === 'direct')!;
      for (const row of rows.filter((r) => r.call === call.name && r.path !== 'direct'))
        console.log(
          `hop ${row.hop.toFixed(2)} ${call.name} (${row.path}/direct req/s, median of the ` +
            `rounds; p50 +${(row.r.p50 - direct.r.p50).toFixed(1)} ms, ` +
            `p95 +${(row.r.p95 - direct.r.p95).toFixed(1)} ms)`,
        );
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
    );
    await deleteBrokerObjects(infra.amqpUrl, exchange).catch(() => undefined);
    await infra.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
