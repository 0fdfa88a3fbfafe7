// npm run bench:media — the media service's photo throughput against the image library's own, on
// the same inputs in the same run, for two kinds of input:
//   originals  12-megapixel phone JPEGs (4000x3000, about 2.2 MB), what an API client may send;
//   shrunk     the same photos at 2560 px on the long side as WebP q 0.88, what the back-office
//              and the donors' form send after shrinking them in the browser.
// For each kind, one after the other:
//   sharp alone  this one process turns every input into the service's three WebP sizes (one
//                decode, oriented, sRGB, shrunk to 1600 px; the sizes' qualities and WEBP_EFFORT)
//                with sharp's defaults, BENCH_CONCURRENCY at a time: the ceiling. Measured before
//                and after the service; the faster of the two counts.
//   service      the same inputs uploaded through the gateway to the built media service on this
//                machine's real servers (FerretDB, RabbitMQ, MinIO started by the infra launcher),
//                BENCH_CONCURRENCY at a time, with a volunteer's token, as the back-office does.
// Prints photos/s, latency, the CPU time each process spent per photo and the media process's
// memory, and last `service N photos/s, sharp alone M photos/s, ratio R` per kind and the media
// process's peak RSS against its documented bound. Asserts nothing.
//
//   BENCH_PHOTOS (40 per kind)  BENCH_CONCURRENCY (4)  BENCH_INPUTS (originals,shrunk)
//   and any media setting (MEDIA_MAX_PARALLEL, SHARP_CONCURRENCY, WEBP_EFFORT, UV_THREADPOOL_SIZE,
//   MALLOC_ARENA_MAX …), passed on to the media process over make run's (MEDIA_PROCESS_ENV).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { MEDIA_PROCESS_ENV, startInfra, REPO_ROOT } from '@furniture/infra';
import { Events, PhotoSizeNames, PhotoSizes } from '@furniture/contracts';
import { EventBus, createEvent, createLogger } from '@furniture/platform';
import { deleteBrokerObjects, signTestToken, testLot } from '@furniture/platform/testing';
import { loadMediaConfig, memoryBoundMb } from '@furniture/media/config';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const KINDS = (process.env.BENCH_INPUTS ?? 'originals,shrunk').split(',').map((k) => k.trim());
/** untimed uploads and conversions per kind before the measured ones (connections, JIT, caches) */
const WARMUP = CONCURRENCY;
const WIDTH = 4000;
const HEIGHT = 3000;
/** what the browser sends (frontend/src/lib/shrink-photo.ts): 2560 px, WebP at quality 0.88 */
const SHRUNK_SIDE = 2560;
const SHRUNK_QUALITY = 88;
const MEDIA_KEYS = [
  'MEDIA_MAX_PARALLEL',
  'MEDIA_MAX_UPLOADS_IN_FLIGHT',
  'SHARP_CONCURRENCY',
  'WEBP_EFFORT',
  'MEDIA_PROCESSING_TIMEOUT_SECONDS',
  'UV_THREADPOOL_SIZE',
  'MALLOC_ARENA_MAX',
];
const INPUTS_DIR = path.join(REPO_ROOT, '.data', 'bench-media-inputs');

const log = (line: string) => console.log(line);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function startNode(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, entry)], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') log(`${name} exited (${code ?? signal})`);
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** VmHWM (peak resident set) and VmRSS of a process, in MB. */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

// ---------------------------------------------------------------------------------------------
// CPU time per process, from /proc: where a photo's CPU goes besides sharp

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/** user + system CPU seconds of a process (or of one thread: `task`) so far, 0 when it is gone */
function cpuSeconds(pid: number, task?: number): number {
  try {
    const file = task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`;
    const stat = fs.readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

function commandLines(): Map<number, string> {
  const out = new Map<number, string>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.set(Number(entry), cmd);
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** The processes whose CPU is reported, each a name and how to recognise its command line. */
type ProcessGroups = {
  name: string;
  match: (pid: number, cmd: string) => boolean;
}[];

type CpuSnapshot = Map<string, Map<number, number>>;

function cpuSnapshot(groups: ProcessGroups): CpuSnapshot {
  const lines = commandLines();
  return new Map(
    groups.map((g) => [
      g.name,
      new Map(
        [...lines].filter(([pid, cmd]) => g.match(pid, cmd)).map(([pid]) => [pid, cpuSeconds(pid)]),
      ),
    ]),
  );
}

/** CPU seconds of each thread of a process so far, by thread id, with the thread's name */
function threadTimes(pid: number): Map<number, { name: string; seconds: number }> {
  const out = new Map<number, { name: string; seconds: number }>();
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
      const tid = Number(task);
      out.set(tid, { name: tid === pid ? 'main thread' : name, seconds: cpuSeconds(pid, tid) });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** CPU seconds by thread name between two readings of threadTimes */
function threadsBetween(
  before: ReturnType<typeof threadTimes>,
  after: ReturnType<typeof threadTimes>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [tid, t] of after) {
    out.set(t.name, (out.get(t.name) ?? 0) + t.seconds - (before.get(tid)?.seconds ?? 0));
  }
  return out;
}

/** CPU seconds per group between two snapshots (a process that appeared meanwhile from 0). */
function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  return new Map(
    [...after].map(([name, pids]) => [
      name,
      [...pids].reduce((sum, [pid, s]) => sum + s - (before.get(name)?.get(pid) ?? 0), 0),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// inputs

/** A phone-like photo: smooth colour fields with fine noise, about 2.2 MB as JPEG q90. */
async function phoneJpeg(seed: number): Promise<Buffer> {
  const w = 250;
  const h = 188;
  const small = Buffer.alloc(w * h * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < small.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    small[i] = ((i % 3) * 70 + (x % 90)) & 0xff;
  }
  const noise = Buffer.alloc(WIDTH * HEIGHT);
  for (let i = 0; i < noise.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    noise[i] = x & 0x1f;
  }
  const base = await sharp(small, { raw: { width: w, height: h, channels: 3 } })
    .resize(WIDTH, HEIGHT, { kernel: 'cubic' })
    .toBuffer();
  return sharp(base, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .composite([
      {
        input: noise,
        raw: { width: WIDTH, height: HEIGHT, channels: 1 },
        blend: 'overlay',
      },
    ])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 1 })
    .toBuffer();
}

interface InputKind {
  name: string;
  label: string;
  type: string;
  extension: string;
  make: (original: Buffer) => Promise<Buffer>;
}

const INPUT_KINDS: Record<string, InputKind> = {
  originals: {
    name: 'originals',
    label: '12-MP originals',
    type: 'image/jpeg',
    extension: 'jpg',
    make: async (original) => original,
  },
  shrunk: {
    name: 'shrunk',
    label: `${SHRUNK_SIDE} px shrunk`,
    type: 'image/webp',
    extension: 'webp',
    make: (original) =>
      sharp(original)
        .resize({ width: SHRUNK_SIDE, height: SHRUNK_SIDE, fit: 'inside' })
        .webp({ quality: SHRUNK_QUALITY })
        .toBuffer(),
  },
};

/**
 * The inputs of one kind (warm-up ones first), generated once and kept in
 * .data/bench-media-inputs: a 12-MP photo takes a second or two to make.
 */
async function inputsOf(kind: InputKind, count: number): Promise<Buffer[]> {
  fs.mkdirSync(INPUTS_DIR, { recursive: true });
  const out: Buffer[] = [];
  for (let i = 1; i <= count; i++) {
    const file = path.join(INPUTS_DIR, `${kind.name}-${i}.${kind.extension}`);
    if (!fs.existsSync(file)) {
      const originalFile = path.join(INPUTS_DIR, `originals-${i}.jpg`);
      if (!fs.existsSync(originalFile)) fs.writeFileSync(originalFile, await phoneJpeg(i));
      fs.writeFileSync(file, await kind.make(fs.readFileSync(originalFile)));
    }
    out.push(fs.readFileSync(file));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// the two ways of turning photos into WebP sizes

/** The service's work done by sharp in this process: one decode, the three sizes from it. */
async function sharpAlone(input: Buffer, effort: number): Promise<number> {
  const largest = Math.max(...PhotoSizeNames.map((s) => PhotoSizes[s].maxSide));
  const base = await sharp(input, { autoOrient: true })
    .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = {
    width: base.info.width,
    height: base.info.height,
    channels: base.info.channels,
  };
  const sizes = await Promise.all(
    PhotoSizeNames.map((size) =>
      sharp(base.data, { raw })
        .resize({
          width: PhotoSizes[size].maxSide,
          height: PhotoSizes[size].maxSide,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp({ quality: PhotoSizes[size].quality, effort })
        .toBuffer(),
    ),
  );
  return sizes.reduce((sum, b) => sum + b.length, 0);
}

/** A multipart body as the back-office sends it (file + generate_thumbnails), made once. */
function multipart(file: Buffer, name: string, type: string): { body: Buffer; type: string } {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
    `Content-Type: ${type}\r\n\r\n`;
  const tail =
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="generate_thumbnails"\r\n\r\n` +
    `true\r\n--${boundary}--\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(tail)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

function post(
  url: URL,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
  agent: http.Agent,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `job` for every item, `concurrency` at a time; seconds and each job's milliseconds. */
async function pool<T>(
  items: T[],
  concurrency: number,
  job: (item: T, index: number) => Promise<void>,
): Promise<{ seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      const t0 = performance.now();
      await job(items[i]!, i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;

// ---------------------------------------------------------------------------------------------

interface KindResult {
  kind: InputKind;
  service: number;
  sharpAlone: number;
}

async function main(): Promise<void> {
  for (const kind of KINDS) {
    if (!INPUT_KINDS[kind])
      throw new Error(`BENCH_INPUTS: unknown kind ${kind} (originals, shrunk)`);
  }
  for (const entry of ['services/media/dist/start.js', 'gateway/dist/start.js']) {
    if (!fs.existsSync(path.join(REPO_ROOT, entry))) {
      log(`building the server packages (${entry} is missing) …`);
      const build = spawnSync(process.execPath, ['scripts/transpile-server.mjs'], {
        cwd: REPO_ROOT,
        stdio: 'inherit',
      });
      if (build.status !== 0) throw new Error('build failed');
      break;
    }
  }
  // the media process as make run starts it, and what is set here on top
  const mediaEnv: Record<string, string> = {
    ...MEDIA_PROCESS_ENV,
    ...Object.fromEntries(
      MEDIA_KEYS.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]),
    ),
  };
  // the media process's settings as it will read them (defaults for what is not set)
  const mediaConfig = loadMediaConfig({ ...mediaEnv, JWT_PUBLIC_KEY: 'unused' });
  const effort = mediaConfig.WEBP_EFFORT;

  log(`inputs: ${WARMUP + PHOTOS} per kind in ${path.relative(REPO_ROOT, INPUTS_DIR)} …`);
  const inputs = new Map<string, Buffer[]>();
  for (const kind of KINDS) inputs.set(kind, await inputsOf(INPUT_KINDS[kind]!, WARMUP + PHOTOS));

  const dataDir = path.join(REPO_ROOT, '.data', 'bench-media');
  const infra = await startInfra({ dataDir, fresh: true });
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const exchange = `bench.media.${process.pid}`;
  const [mediaPort, gatewayPort] = [await freePort(), await freePort()];
  // each process's metrics listener on a port of its own (their default is 9464)
  const [mediaMetrics, gatewayMetrics] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const bus = new EventBus({
    url: infra.amqpUrl,
    exchange,
    service: 'bench',
    logger: createLogger('bench', 'warn'),
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const media = startNode('media', 'services/media/dist/start.js', {
      ...infra.env,
      PORT: String(mediaPort),
      METRICS_PORT: String(mediaMetrics),
      MONGO_DB: 'bench_media',
      AMQP_EXCHANGE: exchange,
      S3_BUCKET: 'bench-media',
      JWT_PUBLIC_KEY: keys.publicKey,
      CATALOG_URL: 'http://127.0.0.1:9', // not needed: lots are announced by event below
      ...mediaEnv,
    });
    children.push(media);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const gateway = startNode('gateway', 'gateway/dist/start.js', {
      ...infra.env, // its own database (the rate limits every replica shares), as make run's
      PORT: String(gatewayPort),
      METRICS_PORT: String(gatewayMetrics),
      MEDIA_URL: `http://127.0.0.1:${mediaPort}`,
      JWT_PUBLIC_KEY: keys.publicKey,
    });
    children.push(gateway);
    await waitFor(`http://127.0.0.1:${mediaPort}/ready`);
    await waitFor(`${gatewayUrl}/health`);

    // the lots, as the catalog would announce them (at most 10 photos per lot)
    await bus.start();
    const lots = Math.ceil((KINDS.length * (WARMUP + PHOTOS)) / 10);
    for (let id = 1; id <= lots; id++) {
      await bus.publish(createEvent(Events.LotCreated, { lot: testLot({ id }) }));
    }
    const token = signTestToken(
      { id: 1, role: 'volunteer', name: 'Bench', email: 'bench@example.org' },
      { privateKey: keys.privateKey, expiresInSeconds: 3600 },
    );
    const auth = { authorization: `Bearer ${token}` };
    const deadline = Date.now() + 30_000;
    while (
      (await fetch(`${gatewayUrl}/api/v1/lots/${lots}/photos`, { headers: auth })).status !== 200
    ) {
      if (Date.now() > deadline) throw new Error('the media service did not learn the lots');
      await new Promise((r) => setTimeout(r, 100));
    }

    const ferretDatabase = infra.ferretPostgresUrl
      ? new URL(infra.ferretPostgresUrl).pathname.slice(1)
      : undefined;
    const groups: ProcessGroups = [
      { name: 'media', match: (pid) => pid === media.pid },
      { name: 'gateway', match: (pid) => pid === gateway.pid },
      { name: 'FerretDB', match: (_, cmd) => cmd.includes('ferretdb') && cmd.includes(dataDir) },
      {
        name: 'PostgreSQL',
        match: (_, cmd) =>
          ferretDatabase !== undefined &&
          cmd.startsWith('postgres:') &&
          cmd.includes(ferretDatabase),
      },
      { name: 'MinIO', match: (_, cmd) => cmd.includes('minio') && cmd.includes(dataDir) },
      { name: 'this client', match: (pid) => pid === process.pid },
    ];
    const rssBefore = memoryOf(media.pid!).rssMb;
    let photo = 0;
    const upload = async (body: { body: Buffer; type: string }) => {
      const lot = Math.floor(photo++ / 10) + 1;
      return post(
        new URL(`${gatewayUrl}/api/v1/lots/${lot}/photos`),
        { ...auth, 'content-type': body.type },
        body.body,
        agent,
      );
    };

    const load = () =>
      os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
    log('');
    log(
      `media benchmark (${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? '?'}, load average ${load()})`,
    );
    const effective: Record<string, unknown> = { ...mediaConfig, ...mediaEnv };
    log(
      `  media settings  ${MEDIA_KEYS.map((k) => `${k}=${String(effective[k] ?? 'default')}`).join(' ')}`,
    );
    log(
      `  sharp alone     sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, concurrency ${sharp.concurrency()} (its default here), UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 'default'}`,
    );

    const results: KindResult[] = [];
    let rssPeak = rssBefore;
    for (const kindName of KINDS) {
      const kind = INPUT_KINDS[kindName]!;
      const all = inputs.get(kindName)!;
      const [warmups, measured] = [all.slice(0, WARMUP), all.slice(WARMUP)];
      const bodies = measured.map((b, i) =>
        multipart(b, `IMG_${i + 1}.${kind.extension}`, kind.type),
      );
      const avgMb = measured.reduce((s, b) => s + b.length, 0) / measured.length / 1024 / 1024;

      // sharp alone, before
      await pool(warmups, CONCURRENCY, async (b) => void (await sharpAlone(b, effort)));
      const aloneRuns: { perSecond: number; cpuPerPhoto: number }[] = [];
      const runAlone = async () => {
        const cpu0 = process.cpuUsage();
        const { seconds } = await pool(measured, CONCURRENCY, async (b) => {
          await sharpAlone(b, effort);
        });
        const cpu = process.cpuUsage(cpu0);
        aloneRuns.push({
          perSecond: measured.length / seconds,
          cpuPerPhoto: (cpu.user + cpu.system) / 1e6 / measured.length,
        });
      };
      await runAlone();

      // the service
      for (const b of warmups) {
        const status = await upload(multipart(b, `warm.${kind.extension}`, kind.type));
        if (status !== 201) throw new Error(`warm-up upload answered ${status}`);
      }
      const statuses = new Map<number, number>();
      let sampled = memoryOf(media.pid!).rssMb;
      const sampler = setInterval(() => {
        sampled = Math.max(sampled, memoryOf(media.pid!).rssMb);
      }, 50);
      const loadDuring = load();
      const cpuBefore = cpuSnapshot(groups);
      const threadsBefore = threadTimes(media.pid!);
      const run = await pool(bodies, CONCURRENCY, async (body) => {
        const status = await upload(body);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      });
      const cpu = cpuBetween(cpuBefore, cpuSnapshot(groups));
      const threads = threadsBetween(threadsBefore, threadTimes(media.pid!));
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, sampled);

      // sharp alone, after
      await runAlone();

      const service = measured.length / run.seconds;
      const best = aloneRuns.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
      results.push({ kind, service, sharpAlone: best.perSecond });
      log('');
      log(
        `${kind.label}: ${measured.length} x ${kind.type}, ${avgMb.toFixed(2)} MB avg, ${CONCURRENCY} at a time (load average ${loadDuring})`,
      );
      log(
        `  sharp alone     ${aloneRuns.map((r) => r.perSecond.toFixed(2)).join(' and ')} photos/s (before and after the service), CPU ${ms(best.cpuPerPhoto)} per photo`,
      );
      log(
        `  service         ${service.toFixed(2)} photos/s (${run.seconds.toFixed(1)} s), p50 ${percentile(run.latencies, 50).toFixed(0)} ms, p95 ${percentile(run.latencies, 95).toFixed(0)} ms, answers ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}`,
      );
      log(
        `  CPU per photo   ${[...cpu].map(([name, s]) => `${name} ${ms(s / measured.length)}`).join(', ')}`,
      );
      log(
        `  media threads   ${[...threads]
          .filter(([, s]) => s > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([name, s]) => `${name} ${ms(s / measured.length)}`)
          .join(', ')}`,
      );
      log(`  media RSS       ${sampled.toFixed(0)} MB sampled peak`);
      // what an operator pays per core: the media process's CPU per photo against sharp's own
      const mediaCpu = (cpu.get('media') ?? 0) / measured.length;
      const allCpu = [...cpu.values()].reduce((a, b) => a + b, 0) / measured.length;
      log(
        `  per core        media process ${ms(mediaCpu)} per photo, ${(best.cpuPerPhoto / mediaCpu).toFixed(2)} of sharp alone's speed; all processes ${ms(allCpu)}, ${(best.cpuPerPhoto / allCpu).toFixed(2)}`,
      );
    }

    const peak = memoryOf(media.pid!).peakMb;
    const bound = memoryBoundMb(mediaConfig);
    log('');
    log(
      `media process: RSS ${rssBefore.toFixed(0)} MB before the uploads, ${rssPeak.toFixed(0)} MB sampled peak`,
    );
    log('');
    for (const r of results) {
      log(
        `${r.kind.label.padEnd(17)} service ${r.service.toFixed(2)} photos/s, sharp alone ${r.sharpAlone.toFixed(2)} photos/s, ratio ${(r.service / r.sharpAlone).toFixed(2)}`,
      );
    }
    log(
      `${'media peak RSS'.padEnd(17)} ${peak.toFixed(0)} MB (VmHWM since start), bound ${bound} MB at these settings: ${peak <= bound ? 'within' : 'EXCEEDED'}`,
    );
  } finally {
    agent.destroy();
    await bus.stop().catch(() => undefined);
    for (const child of children.reverse()) await stopChild(child);
    await deleteBrokerObjects(
      infra.amqpUrl,
      exchange,
      ['media', 'media.retry', 'media.dead'].map((q) => `${exchange}.${q}`),
    ).catch(() => undefined);
    await infra.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
