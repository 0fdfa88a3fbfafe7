// npm run bench:media — uploads N generated 12-megapixel JPEGs (4000x3000, like a phone's) through
// the gateway, C at a time, to the built media service on this machine's real servers (FerretDB,
// RabbitMQ, MinIO started by the infra launcher). Prints photos/s, p50/p95 latency and the media
// process's peak RSS (VmHWM). Asserts nothing.
//
//   BENCH_PHOTOS (40)  BENCH_CONCURRENCY (4)  and any media setting, e.g. MEDIA_MAX_PARALLEL,
//   SHARP_CONCURRENCY, WEBP_EFFORT, which are passed on to the media process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startInfra, REPO_ROOT } from '@furniture/infra';
import { Events } from '@furniture/contracts';
import { EventBus, createEvent, createLogger } from '@furniture/platform';
import { testLot } from '@furniture/platform/testing';
import { deleteBrokerObjects, signTestToken } from '@furniture/platform/testing';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const WIDTH = 4000;
const HEIGHT = 3000;
const MEDIA_KEYS = [
  'MEDIA_MAX_PARALLEL',
  'MEDIA_MAX_UPLOADS_IN_FLIGHT',
  'SHARP_CONCURRENCY',
  'WEBP_EFFORT',
  'MEDIA_PROCESSING_TIMEOUT_SECONDS',
];

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

/** A phone-like photo: smooth colour fields with fine noise, about 3-5 MB as JPEG q90. */
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  for (const entry of ['services/media/dist/start.js', 'gateway/dist/start.js']) {
    if (!fs.existsSync(path.join(REPO_ROOT, entry))) {
      log(`building the server packages (${entry} is missing) …`);
      const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], {
        cwd: REPO_ROOT,
        stdio: 'inherit',
      });
      if (build.status !== 0) throw new Error('build failed');
      break;
    }
  }
  const dataDir = path.join(REPO_ROOT, '.data', 'bench-media');
  const infra = await startInfra({ dataDir, fresh: true });
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const exchange = `bench.media.${process.pid}`;
  const [mediaPort, gatewayPort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const bus = new EventBus({
    url: infra.amqpUrl,
    exchange,
    service: 'bench',
    logger: createLogger('bench', 'warn'),
  });
  try {
    const mediaEnv = Object.fromEntries(
      MEDIA_KEYS.filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
    );
    const media = startNode('media', 'services/media/dist/start.js', {
      ...infra.env,
      PORT: String(mediaPort),
      MONGO_DB: 'bench_media',
      AMQP_EXCHANGE: exchange,
      S3_BUCKET: 'bench-media',
      JWT_PUBLIC_KEY: keys.publicKey,
      CATALOG_URL: 'http://127.0.0.1:9', // not needed: lots are announced by event below
      ...mediaEnv,
    });
    children.push(media);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    children.push(
      startNode('gateway', 'gateway/dist/start.js', {
        PORT: String(gatewayPort),
        MEDIA_URL: `http://127.0.0.1:${mediaPort}`,
        JWT_PUBLIC_KEY: keys.publicKey,
      }),
    );
    await waitFor(`http://127.0.0.1:${mediaPort}/ready`);
    await waitFor(`${gatewayUrl}/health`);

    // the lots, as the catalog would announce them (at most 10 photos per lot)
    await bus.start();
    const lots = Math.ceil(PHOTOS / 10);
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

    log(`generating ${PHOTOS} JPEGs of ${WIDTH}x${HEIGHT} (12 MP) …`);
    const images: Buffer[] = [];
    for (let i = 0; i < PHOTOS; i++) images.push(await phoneJpeg(i + 1));
    const totalMb = images.reduce((s, b) => s + b.length, 0) / 1024 / 1024;
    const before = memoryOf(media.pid!);

    let rssPeak = before.rssMb;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, memoryOf(media.pid!).rssMb);
    }, 50);
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= PHOTOS) return;
        const form = new FormData();
        form.append(
          'file',
          new Blob([new Uint8Array(images[i]!)], { type: 'image/jpeg' }),
          `IMG_${i}.jpg`,
        );
        form.append('generate_thumbnails', 'true');
        const t0 = performance.now();
        const res = await fetch(`${gatewayUrl}/api/v1/lots/${(i % lots) + 1}/photos`, {
          method: 'POST',
          headers: auth,
          body: form,
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = memoryOf(media.pid!);
    latencies.sort((a, b) => a - b);

    const settings = MEDIA_KEYS.map((k) => `${k}=${process.env[k] ?? 'default'}`).join(' ');
    log('');
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    log(
      `media upload benchmark (${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? '?'}, load average ${load})`,
    );
    log(`  settings        ${settings}`);
    log(
      `  photos          ${PHOTOS} x ${WIDTH}x${HEIGHT} JPEG, ${(totalMb / PHOTOS).toFixed(1)} MB avg, ${CONCURRENCY} in parallel, through the gateway`,
    );
    log(`  answers         ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}`);
    log(`  throughput      ${(PHOTOS / seconds).toFixed(2)} photos/s (${seconds.toFixed(1)} s)`);
    log(
      `  latency         p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms`,
    );
    log(
      `  media memory    RSS ${before.rssMb.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB sampled peak, VmHWM ${after.peakMb.toFixed(0)} MB (peak since start)`,
    );
  } finally {
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
