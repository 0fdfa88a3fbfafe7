// npm run bench:lighthouse — Lighthouse (from npm) in Debian's Chromium on the home page, a
// category page and a lot page, at Lighthouse's default mobile settings (a Moto G Power sized
// screen, simulated slow 4G and a 4x slower CPU). Starts its own infrastructure (fresh data in
// .data/bench-lighthouse) and the BUILT platform on free ports, seeds a category with lots and
// photos through the API, and prints performance and accessibility scores, LCP, TBT and CLS
// (the median of LIGHTHOUSE_RUNS runs per page, 3 by default). Asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { topologyQueues } from '@furniture/platform';
import { deleteBrokerObjects } from '@furniture/platform/testing';
import { REPO_ROOT } from '../src/paths';
import { SERVICE_NAMES, startPlatform, type Platform } from '../src/run/platform';
import { startInfra, type Infra } from '../src/start-infra';
import { freePort, isPortFree } from '../src/util';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
/** where each run's full report (JSON) goes, when set: for a look at the request chains */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const DATA_DIR = path.join(REPO_ROOT, '.data', 'bench-lighthouse');
const ADMIN = { email: 'bench@moebelbruecke.test', password: 'bench-lighthouse-2026' };
const CATEGORY_ID = 1;
const EXCHANGE = `bench.lighthouse.${process.pid}`;

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** A 1600x1200 JPEG of a sofa in the given hue (a phone photo's proportions). */
function photo(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
    <rect width="1600" height="1200" fill="hsl(${hue},30%,92%)"/>
    <rect y="980" width="1600" height="220" fill="hsl(${hue},15%,80%)"/>
    <rect x="200" y="500" width="1200" height="380" rx="50" fill="hsl(${hue},45%,45%)"/>
    <rect x="280" y="340" width="1040" height="240" rx="50" fill="hsl(${hue},45%,55%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function api<T>(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; form?: FormData } = {},
): Promise<T> {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body ? JSON.stringify(opts.body) : opts.form,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Eight lots in one category, six of them with one to three photos; answers the first lot's id. */
async function seed(base: string): Promise<number> {
  const { access_token: token } = await api<{ access_token: string }>(base, 'POST', '/auth/login', {
    body: ADMIN,
  });
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) {
    const lot = await api<{ id: number }>(base, 'POST', '/lots/', {
      token,
      body: {
        category_id: CATEGORY_ID,
        status: i === 5 ? 'reserved' : 'available',
        name: { de: `Sofa Nr. ${i + 1}, gut erhalten`, uk: `Диван № ${i + 1}, у доброму стані` },
        description: {
          de: 'Bequemes Sofa mit Stoffbezug, kleine Gebrauchsspuren, Abholung in Berlin.',
          uk: 'Зручний диван з тканинною оббивкою, невеликі сліди використання.',
        },
        dimensions: '210 × 90 × 85 cm',
        condition: 'gut',
        location: 'Berlin',
      },
    });
    ids.push(lot.id);
    const photos = i < 6 ? 1 + (i % 3) : 0;
    for (let p = 0; p < photos; p++) {
      const form = new FormData();
      const jpeg = await photo((i * 47 + p * 90) % 360);
      form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `${p}.jpg`);
      form.append('generate_thumbnails', 'true');
      await api(base, 'POST', `/lots/${lot.id}/photos`, { token, form });
    }
  }
  // photo addresses reach the lots by events: wait until the first lot lists its photo
  const deadline = Date.now() + 30_000;
  for (;;) {
    const lot = await api<{ photos: string[] }>(base, 'GET', `/lots/${ids[0]}`);
    if (lot.photos.length > 0) break;
    if (Date.now() > deadline) throw new Error('the seeded photos did not reach the lots');
    await new Promise((r) => setTimeout(r, 250));
  }
  return ids[0]!;
}

interface Figures {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** the largest savings Lighthouse suggests (title and estimated ms) */
  opportunities: string[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function measure(
  url: string,
  port: number,
  reportName?: string,
  attempt = 1,
): Promise<Figures> {
  const { default: lighthouse } = await import('lighthouse');
  // no config: Lighthouse's defaults are the mobile settings (formFactor mobile, simulated
  // throttling: 150 ms RTT, 1.6 Mbit/s, CPU slowed down 4x)
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    // Chromium now and then records a trace without its start (NO_NAVSTART): run again
    if (attempt < 3) {
      log(`  ${url}: ${lhr.runtimeError.code}, again`);
      return measure(url, port, reportName, attempt + 1);
    }
    throw new Error(`${url}: ${lhr.runtimeError.message}`);
  }
  if (REPORT_DIR && reportName) {
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    fs.writeFileSync(path.join(REPORT_DIR, `${reportName}.json`), JSON.stringify(lhr));
  }
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? NaN) * 100),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    fcpMs: audit('first-contentful-paint'),
    opportunities: Object.values(lhr.audits)
      .filter((a) => a.details?.type === 'opportunity' && (a.score ?? 1) < 0.9)
      .map((a) => ({
        title: a.title,
        ms: (a.details as { overallSavingsMs?: number }).overallSavingsMs ?? 0,
      }))
      .filter((a) => a.ms > 0)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((a) => `${a.title} (~${Math.round(a.ms)} ms)`)
      .concat(culprits(lhr.audits)),
  };
}

interface NodeItem {
  node?: { selector?: string; snippet?: string };
  score?: number;
}

/** What the LCP is, and the elements that moved most, when the page moved noticeably. */
function culprits(audits: Record<string, { numericValue?: number; details?: object }>): string[] {
  const out: string[] = [];
  const items = (id: string) => (audits[id]?.details as { items?: unknown[] } | undefined)?.items;
  const lcp = items('largest-contentful-paint-element')?.[0] as { items?: NodeItem[] } | undefined;
  const lcpNode = lcp?.items?.[0]?.node;
  if (lcpNode) out.push(`LCP element ${lcpNode.selector ?? lcpNode.snippet ?? '?'}`);
  if ((audits['cumulative-layout-shift']?.numericValue ?? 0) > 0.05) {
    const shifts = (items('layout-shifts') ?? []) as NodeItem[];
    for (const item of shifts.slice(0, 3)) {
      out.push(`layout shift ${(item.score ?? 0).toFixed(3)} of ${item.node?.selector ?? '?'}`);
    }
  }
  return out;
}

async function firstFreeRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(Array.from({ length: count }, (_, i) => isPortFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no run of ${count} free ports found`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing (apt-get install chromium)`);
  for (const file of ['gateway/dist/start.js', 'frontend/dist/index.html']) {
    if (!fs.existsSync(path.join(REPO_ROOT, file))) {
      throw new Error(`${file} is missing: build first (npm run build)`);
    }
  }
  const started: { infra?: Infra; platform?: Platform; chrome?: { kill(): void } } = {};
  const stop = async () => {
    started.chrome?.kill();
    await started.platform?.stop();
    if (started.infra) {
      await deleteBrokerObjects(started.infra.amqpUrl, EXCHANGE, topologyQueues(EXCHANGE)).catch(
        () => undefined,
      );
    }
    await started.infra?.stop();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    log('starting the infrastructure and the platform …');
    const infra = await startInfra({ dataDir: DATA_DIR, fresh: true, dropDatabaseOnStop: true });
    started.infra = infra;
    const gatewayPort = await freePort();
    const base = `http://127.0.0.1:${gatewayPort}`;
    const platform = await startPlatform({
      infraEnv: infra.env,
      dataDir: DATA_DIR,
      gatewayPort,
      servicePortBase: await firstFreeRun(SERVICE_NAMES.length),
      publicUrl: base,
      admin: ADMIN,
      // its own exchange (and so queues): another run on the same broker must not take its events
      overrides: { AMQP_EXCHANGE: EXCHANGE },
      print: () => undefined,
    });
    started.platform = platform;
    if (platform.missing.length > 0) {
      throw new Error(`not built: ${platform.missing.join(', ')} (npm run build)`);
    }
    const lotId = await seed(base);

    const { launch } = await import('chrome-launcher');
    const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
    started.chrome = chrome;
    const pages = [
      ['home', `${base}/`],
      ['category', `${base}/categories/${CATEGORY_ID}`],
      ['lot', `${base}/lots/${lotId}`],
    ] as const;
    // one unmeasured visit warms the services' caches and the SPA's files on disk
    await measure(pages[0][1], chrome.port);
    const rows: [string, Figures][] = [];
    for (const [name, url] of pages) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        log(`  ${name}: run ${i + 1} of ${RUNS}`);
        runs.push(await measure(url, chrome.port, `${name}-${i + 1}`));
      }
      const pick = (key: Exclude<keyof Figures, 'opportunities'>) =>
        median(runs.map((r) => r[key]));
      rows.push([
        name,
        {
          performance: pick('performance'),
          accessibility: pick('accessibility'),
          lcpMs: pick('lcpMs'),
          tbtMs: pick('tbtMs'),
          cls: pick('cls'),
          fcpMs: pick('fcpMs'),
          opportunities: runs.at(-1)?.opportunities ?? [],
        },
      ]);
    }

    const chromeVersion = (await (
      await fetch(`http://127.0.0.1:${chrome.port}/json/version`)
    ).json()) as {
      Browser: string;
    };
    const lhVersion = (
      JSON.parse(fs.readFileSync(require.resolve('lighthouse/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    console.log(
      `\nLighthouse ${lhVersion}, ${chromeVersion.Browser}, mobile defaults (simulated slow 4G, 4x CPU slowdown); median of ${RUNS} run(s) per page\n`,
    );
    console.log('page       performance  accessibility      LCP      TBT     CLS      FCP');
    for (const [name, f] of rows) {
      console.log(
        `${name.padEnd(10)} ${String(f.performance).padStart(11)}  ${String(f.accessibility).padStart(13)}  ${`${(f.lcpMs / 1000).toFixed(2)} s`.padStart(7)}  ${`${Math.round(f.tbtMs)} ms`.padStart(7)}  ${f.cls.toFixed(3).padStart(6)}  ${`${(f.fcpMs / 1000).toFixed(2)} s`.padStart(7)}`,
      );
    }
    for (const [name, f] of rows) {
      if (f.opportunities.length > 0) console.log(`${name}: ${f.opportunities.join('; ')}`);
    }
    console.log(`\npages: ${pages.map(([n, u]) => `${n} ${u.replace(base, '')}`).join(', ')}`);
  } finally {
    await stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
