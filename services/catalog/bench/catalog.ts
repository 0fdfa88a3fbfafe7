// npm run bench:catalog — the two hottest public reads, GET /api/v1/categories/ and
// GET /api/v1/lots/category/1, against the built catalog service on this machine's real servers
// (FerretDB, RabbitMQ) after seeding 500 lots through the gateway. Each call is measured through
// the gateway as configured, through a second gateway with PUBLIC_CACHE_MAX_MS=0 ("hop only":
// every request proxied, as before the gateway kept the shareable public answers) and directly,
// alternately. With BENCH_BEFORE_ENTRY (another build's catalog start.js, e.g. a copy of an
// older dist under .data/) the same is measured again with that catalog, restarted on the same
// data: before and after in one run. Prints requests/s and p50/p95/p99 latency. Asserts nothing.
//
// Needs `npm run build:server` first. Knobs: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS
// (default 16), BENCH_LOTS (default 500), BENCH_BEFORE_ENTRY (see above).
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import { startInfra } from '@furniture/infra';
import { deleteBrokerObjects } from '@furniture/platform/testing';

const ROOT = path.resolve(__dirname, '../../..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LOTS = Number(process.env.BENCH_LOTS ?? 500);
const SEED_PARALLEL = 8;
/** a second catalog build measured after this one (its path, absolute or from the root) */
const BEFORE_ENTRY = process.env.BENCH_BEFORE_ENTRY;
/** gateway and direct measured alternately this many times; the medians are printed */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** what browsers send (the catalog's public lists are then passed on gzipped as they are) */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';
const CATALOG_ENTRY = 'services/catalog/dist/start.js';
const GATEWAY_ENTRY = 'gateway/dist/start.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function startNode(entry: string, env: NodeJS.ProcessEnv, nodeFlags: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, path.resolve(ROOT, entry)], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function ready(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process ended (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A realistic lot: two languages, a few sentences, two photos; every 10th archived. */
function lotBody(i: number) {
  return {
    name: { de: `Möbelstück ${i}: Kommode Eiche`, uk: `Меблі ${i}: комод дуб` },
    description: {
      de: 'Gut erhaltene Kommode mit drei Schubladen, kleine Kratzer an der Seite.',
      uk: 'Комод у доброму стані з трьома шухлядами, невеликі подряпини збоку.',
    },
    detailed_description: {
      de: 'Abholung im Erdgeschoss möglich. Maße ca. 80 x 45 x 90 cm. Bitte selbst transportieren.',
      uk: 'Можна забрати з першого поверху. Розміри прибл. 80 x 45 x 90 см. Транспорт власний.',
    },
    category_id: (i % 8) + 1,
    status: i % 10 === 0 ? 'archived' : 'available',
    dimensions: '80 x 45 x 90 cm',
    condition: 'gut',
    donor: 'Familie Schmidt',
    location: 'Leipzig',
    photos: [`/media/lots/bench/${i}-1-medium.webp`, `/media/lots/bench/${i}-2-medium.webp`],
    gallery_photos: [`/media/lots/bench/${i}-1-large.webp`, `/media/lots/bench/${i}-2-large.webp`],
  };
}

async function seed(base: string, token: string): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    for (let i = next++; i < LOTS; i = next++) {
      const res = await fetch(`${base}/api/v1/lots/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(lotBody(i)),
      });
      if (res.status !== 201) failed++;
    }
  };
  await Promise.all(Array.from({ length: SEED_PARALLEL }, worker));
  return failed;
}

/**
 * gateway: as configured; hop only: a gateway with PUBLIC_CACHE_MAX_MS=0, so every request is
 * proxied (the gateway before it kept shareable answers); direct: the catalog itself
 */
const PATHS = ['gateway', 'hop only', 'direct'] as const;
type PathName = (typeof PATHS)[number];

interface Result {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
  kib: number;
}

/** Each figure's median over the rounds. */
function medianOf(results: Result[]): Result {
  const median = (pick: (r: Result) => number) => {
    const sorted = results.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  return {
    rps: median((r) => r.rps),
    p50: median((r) => r.p50),
    p95: median((r) => r.p95),
    p99: median((r) => r.p99),
    requests: median((r) => r.requests),
    errors: results.reduce((n, r) => n + r.errors, 0),
    kib: median((r) => r.kib),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(url: string, seconds: number): Promise<Result> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers: ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {},
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
    p99: percentile(latencies, 99),
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
    kib: result.throughput.average / 1024 / Math.max(1, result.requests.average),
  };
}

async function main(): Promise<void> {
  for (const entry of [CATALOG_ENTRY, GATEWAY_ENTRY]) {
    if (!existsSync(path.join(ROOT, entry))) {
      throw new Error(`${entry} is missing: run \`npm run build:server\` first`);
    }
  }
  const dataDir = path.join(ROOT, '.data', 'bench-catalog');
  const infra = await startInfra({
    dataDir,
    fresh: true,
    dropDatabaseOnStop: true,
    log: (l) => console.log(`[infra] ${l}`),
  });
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const token = jwt.sign(
    { sid: 'bench', name: 'Bench Admin', email: 'bench@example.org', role: 'admin' },
    keys.privateKey,
    {
      algorithm: 'RS256',
      subject: '1',
      issuer: 'furniture-auth',
      audience: 'furniture-platform',
      expiresIn: 3600,
    },
  );
  const exchange = `bench.catalog.${process.pid}`;
  const [catalogPort, gatewayPort, proxyOnlyPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const nowhere = 'http://127.0.0.1:9';
  const children = new Set<ChildProcess>();
  const startCatalog = async (entry = CATALOG_ENTRY) => {
    const child = startNode(entry, {
      ...infra.env,
      PORT: String(catalogPort),
      MONGO_DB: 'bench_catalog',
      AMQP_EXCHANGE: exchange,
      JWT_PUBLIC_KEY: keys.publicKey,
    });
    children.add(child);
    await ready(`http://127.0.0.1:${catalogPort}/ready`, child);
    return child;
  };
  try {
    let catalog = await startCatalog();
    // two gateways: as configured (it answers the catalog's shareable public lists itself for up
    // to PUBLIC_CACHE_MAX_MS) and with that off (every request proxied: the hop alone)
    const startGateway = async (port: number, env: Record<string, string>, profile: boolean) => {
      const child = startNode(
        GATEWAY_ENTRY,
        {
          PORT: String(port),
          METRICS_PORT: String(await freePort()),
          CATALOG_URL: `http://127.0.0.1:${catalogPort}`,
          AUTH_URL: nowhere,
          APPLICATIONS_URL: nowhere,
          MEDIA_URL: nowhere,
          NOTIFICATION_URL: nowhere,
          JWT_PUBLIC_KEY: keys.publicKey,
          ...env,
        },
        profile && process.env.BENCH_PROFILE_DIR
          ? // BENCH_PROFILE_DIR: a CPU profile of the gateway (open it in Chrome's DevTools)
            ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
          : [],
      );
      children.add(child);
      return ready(`http://127.0.0.1:${port}/health`, child);
    };
    await startGateway(gatewayPort, {}, false);
    await startGateway(proxyOnlyPort, { PUBLIC_CACHE_MAX_MS: '0' }, true);

    const viaGateway = `http://127.0.0.1:${gatewayPort}`;
    const proxyOnly = `http://127.0.0.1:${proxyOnlyPort}`;
    const direct = `http://127.0.0.1:${catalogPort}`;
    const started = Date.now();
    const failed = await seed(viaGateway, token);
    const seedSeconds = (Date.now() - started) / 1000;
    console.log(
      `seeded ${LOTS - failed} lots through the gateway in ${seedSeconds.toFixed(1)} s ` +
        `(${((LOTS - failed) / seedSeconds).toFixed(0)} creates/s, ${SEED_PARALLEL} in parallel)` +
        (failed ? `, ${failed} FAILED` : ''),
    );
    const shown = (await (await fetch(`${direct}/api/v1/lots/category/1`)).json()) as unknown[];

    const calls = ['/api/v1/categories/', '/api/v1/lots/category/1'];
    const rows: { call: string; path: string; build: string; r: Result }[] = [];
    const round = async (build: string) => {
      for (const call of calls) {
        const runs: Record<PathName, Result[]> = { gateway: [], 'hop only': [], direct: [] };
        for (let i = 0; i < ROUNDS; i++)
          for (const [name, base] of [
            ['gateway', viaGateway],
            ['hop only', proxyOnly],
            ['direct', direct],
          ] as const) {
            await measure(`${base}${call}`, 2); // warm-up
            runs[name].push(await measure(`${base}${call}`, DURATION_S));
          }
        for (const name of PATHS)
          rows.push({ call: `GET ${call}`, path: name, build, r: medianOf(runs[name]) });
      }
    };
    await round('this');
    if (BEFORE_ENTRY) {
      catalog.kill('SIGTERM');
      await new Promise((r) => (catalog.exitCode !== null ? r(null) : catalog.once('exit', r)));
      children.delete(catalog);
      catalog = await startCatalog(BEFORE_ENTRY);
      await round('before');
    }

    const load = os.loadavg()[0]!.toFixed(1);
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION_S} s per row after a 2 s warm-up, gateway and ` +
        `direct alternately ${ROUNDS} times (medians); Accept-Encoding: ${ACCEPT_ENCODING || 'none'}; ` +
        `category 1 answers ${shown.length} lots; ${os.cpus().length} CPUs, load average ${load}`,
    );
    console.log(
      `${'call'.padEnd(28)} ${'path'.padEnd(8)} ${'build'.padEnd(12)} ${'req/s'.padStart(7)} ` +
        `${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ` +
        `${'requests'.padStart(8)} ${'errors'.padStart(6)} ${'KiB/resp'.padStart(8)}`,
    );
    for (const { call, path: via, build, r } of rows) {
      console.log(
        `${call.padEnd(28)} ${via.padEnd(8)} ${build.padEnd(12)} ${r.rps.toFixed(0).padStart(7)} ` +
          `${r.p50.toFixed(1).padStart(7)} ${r.p95.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)} ` +
          `${String(r.requests).padStart(8)} ${String(r.errors).padStart(6)} ${r.kib.toFixed(1).padStart(8)}`,
      );
    }
    console.log('');
    for (let i = 0; i + PATHS.length - 1 < rows.length; i += PATHS.length) {
      const dir = rows[i + PATHS.length - 1]!;
      for (const gw of rows.slice(i, i + PATHS.length - 1))
        console.log(
          `${gw.call.padEnd(28)} build ${gw.build.padEnd(12)} ${gw.path.padEnd(8)} /direct ` +
            `${(gw.r.rps / dir.r.rps).toFixed(2)}x req/s, p95 overhead ` +
            `${(gw.r.p95 - dir.r.p95).toFixed(1)} ms, p50 overhead ${(gw.r.p50 - dir.r.p50).toFixed(1)} ms`,
        );
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      [...children].map(
        (c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))),
      ),
    );
    const queue = `${exchange}.catalog`;
    await deleteBrokerObjects(infra.amqpUrl, exchange, [queue, `${queue}.retry`, `${queue}.dead`]);
    await infra.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
