// npm run bench:spike — a rush on the public site (issue 48): `make run` with `make demo`'s data
// (the built services and gateway as separate processes, FerretDB fresh under .data/bench-spike),
// loopback only, then the public reads every visitor makes, mixed (the category list, a
// category's lots, one popular lot, its queue panel, the home page), from BENCH_SPIKE_CONNECTIONS
// (200, 1000; add 5000 where the machine allows) connections at once, BENCH_DURATION (20) seconds
// each. Meanwhile a staff login and the health check are asked once a second.
//
// Prints per load: requests/s, p50/p99 of the answered (200) requests, prompt 503s (with
// Retry-After) and 503s without it, other statuses, connection errors (refused, reset) and
// timeouts, the slowest staff login and health check, and the gateway's peak memory (VmHWM) and
// whether it ever exited. BENCH_URL=<gateway> measures a running platform instead (no memory or
// exit figures; fill it with `make demo` first). Asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { topologyQueues } from '@furniture/platform';
import { deleteBrokerObjects } from '@furniture/platform/testing';
import { REPO_ROOT } from '../src/paths';
import { startPlatform, type Platform } from '../src/run/platform';
import { startInfra, type Infra } from '../src/start-infra';
import { freePort } from '../src/util';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 20);
const LOADS = (process.env.BENCH_SPIKE_CONNECTIONS ?? '200,1000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** its own exchange and queues on the machine's broker, apart from make run's and the tests' */
const EXCHANGE = `bench.spike.${process.pid}`;
const ADMIN = { email: 'admin@moebelbruecke.local', password: 'bench-spike-admin-2026' };

interface Figures {
  connections: number;
  rps: number;
  ok: number;
  p50: number;
  p99: number;
  shed: number;
  shedWithoutRetryAfter: number;
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  resets: number;
  loginMaxMs: number;
  healthMaxMs: number;
  loginFailed: number;
  healthFailed: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Once a second while the load runs: a staff login and the health check, each timed. */
function probeStaff(url: string): {
  stop: () => Promise<Pick<Figures, 'loginMaxMs' | 'healthMaxMs' | 'loginFailed' | 'healthFailed'>>;
} {
  const login: number[] = [];
  const health: number[] = [];
  let loginFailed = 0;
  let healthFailed = 0;
  const timed = async (call: () => Promise<Response>, into: number[]): Promise<boolean> => {
    const started = performance.now();
    try {
      const res = await call();
      await res.arrayBuffer();
      into.push(performance.now() - started);
      return res.ok;
    } catch {
      into.push(performance.now() - started);
      return false;
    }
  };
  const pending: Promise<unknown>[] = [];
  const timer = setInterval(() => {
    pending.push(
      timed(
        () =>
          fetch(`${url}/api/v1/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(ADMIN),
            signal: AbortSignal.timeout(10_000),
          }),
        login,
      ).then((ok) => ok || loginFailed++),
      timed(
        () => fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(10_000) }),
        health,
      ).then((ok) => ok || healthFailed++),
    );
  }, 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return {
        loginMaxMs: Math.max(0, ...login),
        healthMaxMs: Math.max(0, ...health),
        loginFailed,
        healthFailed,
      };
    },
  };
}

async function rush(url: string, lotId: number, connections: number): Promise<Figures> {
  const paths = [
    '/api/v1/categories/',
    '/api/v1/lots/category/1',
    `/api/v1/lots/${lotId}`,
    `/api/v1/lots/${lotId}/applications-info`,
    '/',
  ];
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let shedWithoutRetryAfter = 0;
  const staff = probeStaff(url);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: DURATION_S,
        timeout: 30,
        requests: paths.map((p) => ({
          method: 'GET',
          path: p,
          headers: { 'accept-encoding': 'gzip, br', accept: 'text/html,application/json' },
        })),
        setupClient: (client) => {
          // autocannon passes the parser's headers-complete record (its typings say otherwise)
          const onHeaders = ({
            statusCode,
            headers,
          }: {
            statusCode: number;
            headers: string[];
          }) => {
            if (statusCode !== 503) return;
            const names = headers.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
            if (!names.includes('retry-after')) shedWithoutRetryAfter++;
          };
          client.on('headers', onHeaders as never);
        },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) latencies.push(ms);
    });
  });
  const probes = await staff.stop();
  latencies.sort((a, b) => a - b);
  const { 200: ok = 0, 503: shed = 0, ...other } = statuses;
  return {
    connections,
    rps: Math.round(result.requests.total / DURATION_S),
    ok,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    shed,
    shedWithoutRetryAfter,
    otherStatuses: other,
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets,
    ...probes,
  };
}

/** The peak resident memory of a process (VmHWM), in MB. */
function peakMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  let infra: Infra | undefined;
  let platform: Platform | undefined;
  let url = process.env.BENCH_URL;
  try {
    if (!url) {
      const dataDir = path.join(REPO_ROOT, '.data', 'bench-spike');
      infra = await startInfra({ dataDir, fresh: true, dropDatabaseOnStop: true });
      const gatewayPort = await freePort();
      platform = await startPlatform({
        infraEnv: infra.env,
        dataDir,
        gatewayPort,
        servicePortBase: await freePort(),
        publicUrl: `http://127.0.0.1:${gatewayPort}`,
        admin: ADMIN,
        // the probes' logins: one a second, beside the rush
        overrides: {
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
          AMQP_EXCHANGE: EXCHANGE,
          RATE_LIMIT_LOGIN: '10000',
          // e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": a profile of every process
          ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
        },
        print: () => undefined,
      });
      url = platform.gatewayUrl;
      const demo = spawnSync(
        process.execPath,
        [path.join(REPO_ROOT, 'services/admin-cli/dist/cli.js'), 'demo', '--url', url],
        {
          env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
          encoding: 'utf8',
        },
      );
      if (demo.status !== 0) throw new Error(`make demo failed: ${demo.stderr || demo.stdout}`);
    }
    const lots = (await (await fetch(`${url}/api/v1/lots/category/1`)).json()) as { id: number }[];
    const lotId = lots[0]?.id;
    if (!lotId) throw new Error('no lot in category 1: fill the platform with make demo');
    const gatewayPid = platform?.supervisor.pid('gateway');
    const rows: Figures[] = [];
    for (const connections of LOADS) {
      console.log(`rush of ${connections} connections for ${DURATION_S} s …`);
      const figures = await rush(url, lotId, connections);
      rows.push(figures);
      console.log(JSON.stringify(figures));
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    const exited = platform ? platform.supervisor.pid('gateway') !== gatewayPid : undefined;
    console.log('');
    console.log(
      `bench:spike ${new Date().toISOString().slice(0, 10)}, ${DURATION_S} s per load, mix: categories, a category's lots, lot ${lotId}, its queue panel, the home page`,
    );
    console.log(
      'connections  req/s   p50 ms  p99 ms  503 (prompt)  503 w/o Retry-After  other  errors  timeouts  login max ms  health max ms',
    );
    for (const r of rows)
      console.log(
        [
          String(r.connections).padStart(11),
          String(r.rps).padStart(6),
          String(r.p50).padStart(7),
          String(r.p99).padStart(7),
          String(r.shed).padStart(13),
          String(r.shedWithoutRetryAfter).padStart(20),
          String(Object.values(r.otherStatuses).reduce((a, b) => a + b, 0)).padStart(6),
          String(r.errors).padStart(7),
          String(r.timeouts).padStart(9),
          String(Math.round(r.loginMaxMs)).padStart(13),
          String(Math.round(r.healthMaxMs)).padStart(14),
        ].join(' '),
      );
    if (platform)
      console.log(
        `gateway peak memory ${peakMb(gatewayPid) ?? '?'} MB; the gateway ${exited ? 'EXITED during the run' : 'never exited'}`,
      );
  } finally {
    await platform?.stop();
    if (infra) {
      await deleteBrokerObjects(infra.env.AMQP_URL, EXCHANGE, topologyQueues(EXCHANGE)).catch(
        () => undefined,
      );
      await infra.stop();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
