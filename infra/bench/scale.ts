// npm run bench:scale — the platform at a charity's third year, on the `make run` default (FerretDB
// on this machine's PostgreSQL, started fresh under .data/bench-scale): the built services and
// the gateway as separate processes, uncached (the gateway's PUBLIC_CACHE_MAX_MS=0), then a three-year data set
// and the calls every back-office screen and public page makes, through the gateway.
//
// Seeding (the documented bulk path): one lot, one application, one wish and their log entries
// are created through the real API; their stored documents are the templates of bulk inserts
// straight into each service's database (ids, dates, statuses, notes and names varied; id
// counters raised). Sizes: BENCH_LOTS (5000), BENCH_APPLICATIONS (25000), BENCH_WISHES (3000),
// BENCH_ACTIVITY (100000), BENCH_USERS (20).
//
// Measures each call BENCH_CALLS (100) times one after another (1 connection; fewer, at least 5,
// when they take more than BENCH_CALL_BUDGET_MS = 8 s): p50/p95/p99 and req/s (100, not 40: the
// p95 of 40 calls is their second slowest, which one of FerretDB's rare stalls decides), after
// BENCH_WARMUP (20) untimed calls on each platform;
// with BENCH_CONNECTIONS=16 (default) also req/s and p95 at 16 connections (autocannon, 3 s);
// then the CSV export of the whole log, twice, once the notification service has stored its closed
// months' rows after the restart (as a running platform has; printed: how long that took): time
// and the notification process's peak RSS growth.
// Every call is measured twice in the same run: before (the bulk not yet in the services' kept
// counts, so every read counts per request as before issue 16, and no PostgreSQL indexes) and
// after (the launcher's PostgreSQL indexes for FerretDB, infra/src/ferret-pg-indexes.ts, and
// the services restarted, which rebuilds their kept counts, as after an upgrade).
// BENCH_INDEXES_ONLY=1 adds a run with the indexes but without the counts. While working on a few
// calls: BENCH_ONLY=<regular expression> measures only the calls whose screen or name it matches,
// BENCH_BEFORE=0 skips the before run, BENCH_EXPORT=0 the CSV export; BENCH_SLOW_MS=<ms> prints
// each call slower than that with its time of day, BENCH_NODE_OPTIONS is given to the services
// (e.g. --require of infra/bench/stall-watch.cjs) and BENCH_LOG_LEVEL=info their request log lines
// (in the data folder's logs); BENCH_HOLD=1 keeps the platform up after the calls until Ctrl-C.
// Before and after a change: hold another build's platform (its own checkout, BENCH_HOLD=1, same
// sizes) and give its gateway as BENCH_VS=<url>: the after run then measures both platforms call
// by call in turn (each first every other time; at 16 connections one after the other) and
// prints this build's p95 over the other's.
// Prints one table; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { MongoClient, type Document } from 'mongodb';
import { Client } from 'pg';
import { localDay } from '@furniture/platform/domain';
import { topologyQueues } from '@furniture/platform';
import { deleteBrokerObjects } from '@furniture/platform/testing';
import { ensureFerretIndexes } from '../src/ferret-pg-indexes';
import { REPO_ROOT } from '../src/paths';
import { startPlatform, type Platform } from '../src/run/platform';
import { startInfra } from '../src/start-infra';
import { freePort, waitUntil } from '../src/util';

const LOTS = Number(process.env.BENCH_LOTS ?? 5000);
const APPLICATIONS = Number(process.env.BENCH_APPLICATIONS ?? 25_000);
const WISHES = Number(process.env.BENCH_WISHES ?? 3000);
const ACTIVITY = Number(process.env.BENCH_ACTIVITY ?? 100_000);
const USERS = Number(process.env.BENCH_USERS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
/** a call slower than this budget is measured fewer times (at least 5) */
const CALL_BUDGET_MS = Number(process.env.BENCH_CALL_BUDGET_MS ?? 8_000);
/** untimed calls first, on each platform (see measure) */
const WARMUP_CALLS = Number(process.env.BENCH_WARMUP ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0);
/** another build's gateway (its bench:scale held with BENCH_HOLD=1, same sizes): measured in turn */
const VS = process.env.BENCH_VS;
const ADMIN = { email: 'bench@example.org', password: 'bench-password-1' };
/** the counts each service keeps with its writes (KeptCounts), by database */
const KEPT_COUNTS: [db: string, collection: string][] = [
  ['furniture_catalog', 'lot_counts'],
  ['furniture_applications', 'application_counts'],
  ['furniture_applications', 'wish_counts'],
  ['furniture_notification', 'activity_counts'],
];
const DAY = 86_400_000;
const YEARS3 = 3 * 365 * DAY;

/** its own exchange: a `make run` or another bench on the same RabbitMQ must not take its events */
const EXCHANGE = `bench.scale.${process.pid}`;
const progress = (line: string) => console.error(`[bench] ${line}`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Call {
  screen: string;
  name: string;
  url: string;
  staff: boolean;
}

interface Figures {
  /** the call's answer when it was not 200 (e.g. 503 after the gateway's 30 s proxy timeout) */
  failed?: string;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  rps16?: number;
  p95at16?: number;
}

async function api(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(base + url, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed };
}

async function expectOk(
  p: Promise<{ status: number; body: Record<string, unknown> }>,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await p;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Strips the outbox fields: bulk documents carry no events. */
function template(doc: Document): Document {
  const copy = structuredClone(doc);
  delete copy._outbox;
  delete copy._outbox_pending;
  return copy;
}

async function insertInBatches(
  client: MongoClient,
  db: string,
  collection: string,
  count: number,
  make: (i: number) => Document,
): Promise<void> {
  const col = client.db(db).collection(collection);
  const batch = 1000;
  for (let start = 0; start < count; start += batch) {
    const docs: Document[] = [];
    for (let i = start; i < Math.min(count, start + batch); i++) docs.push(make(i));
    await col.insertMany(docs, { ordered: false });
    if ((start / batch) % 20 === 0)
      progress(`${db}.${collection}: ${start + docs.length}/${count}`);
  }
}

async function raise(client: MongoClient, db: string, counter: string, value: number) {
  await client
    .db(db)
    .collection<{ _id: string; seq: number }>('counters')
    .updateOne({ _id: counter }, { $max: { seq: value } }, { upsert: true });
}

const phone = (i: number) => `+49151${String(10_000_000 + i).slice(-8)}`;

async function seed(
  gateway: string,
  mongoUrl: string,
  token: string,
): Promise<{ lotId: number; applicationId: number; wishId: number; phone: string }> {
  // 1. one of each through the real write paths
  const lot = await expectOk(
    api(
      gateway,
      'POST',
      '/api/v1/lots/',
      {
        name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
        description: { de: 'Gut erhalten', uk: 'У доброму стані' },
        category_id: 1,
        status: 'available',
      },
      token,
    ),
    'lot',
  );
  const lotId = lot.id as number;
  await waitUntil(
    async () => {
      const res = await api(gateway, 'GET', `/api/v1/lots/${lotId}/applications-info`);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    },
    { timeoutMs: 30_000, what: 'the lot known to applications' },
  );
  await expectOk(
    api(gateway, 'POST', '/api/v1/applications/', {
      applicant_name: 'Olena Kovalenko',
      applicant_phone: '+4915100000001',
      applicant_whatsapp: '+4915100000001',
      applicant_email: 'olena@example.org',
      applicant_city: 'Berlin',
      applicant_address: 'Musterstraße 1',
      needs_delivery_help: true,
      lot_id: lotId,
      language: 'uk',
    }),
    'application',
  );
  await expectOk(
    api(gateway, 'POST', '/api/v1/wishes/', {
      applicant_name: 'Olena Kovalenko',
      applicant_whatsapp: '+4915100000001',
      applicant_email: 'olena@example.org',
      furniture_category: 2,
      furniture_description: 'Ein Kinderbett für zwei Kinder, gerne mit Matratze',
      language: 'uk',
    }),
    'wish',
  );
  const client = await MongoClient.connect(mongoUrl, { directConnection: true });
  try {
    const db = (name: string) => client.db(`furniture_${name}`);
    await waitUntil(
      async () => {
        if ((await db('notification').collection('activity_logs').countDocuments()) < 3)
          throw new Error('waiting for log entries');
      },
      { timeoutMs: 30_000, what: 'the first log entries' },
    );
    const lotDoc = template((await db('catalog').collection('lots').findOne({}))!);
    const snapshotCollections = (await db('applications').listCollections().toArray())
      .map((c) => c.name)
      .filter((n) => n !== 'applications' && n !== 'wishes');
    const lotViews: { name: string; doc: Document }[] = [];
    for (const name of snapshotCollections) {
      const doc = await db('applications')
        .collection(name)
        .findOne({ id: lotId } as Document);
      if (doc) lotViews.push({ name, doc: template(doc) });
    }
    const appDoc = template((await db('applications').collection('applications').findOne({}))!);
    const wishDoc = template((await db('applications').collection('wishes').findOne({}))!);
    const logDoc = template((await db('notification').collection('activity_logs').findOne({}))!);
    const userDoc = template((await db('auth').collection('users').findOne({}))!);
    const now = Date.now();
    const at = (i: number, n: number) => new Date(now - YEARS3 + Math.floor((i / n) * YEARS3));

    // 2. the bulk: lots over the 8 categories, most transferred after three years
    const lotStatus = (i: number) =>
      i > LOTS - 300 ? 'available' : i > LOTS - 400 ? 'reserved' : 'transferred';
    const lotOf = (i: number): Document => {
      const id = lotId + 1 + i;
      const created = at(i, LOTS);
      return {
        ...structuredClone(lotDoc),
        _id: String(id),
        id,
        block: Math.floor(id / 100),
        part: Math.floor(id / 25),
        name: { de: `Kleiderschrank ${id}`, uk: `Шафа ${id}` },
        category_id: (i % 8) + 1,
        status: lotStatus(i),
        photos: [`/media/lots/${id}/1-medium.webp`, `/media/lots/${id}/2-medium.webp`],
        created_at: created,
        updated_at: created,
        status_changed_at: created,
      };
    };
    await insertInBatches(client, 'furniture_catalog', 'lots', LOTS, lotOf);
    await raise(client, 'furniture_catalog', 'lots', lotId + LOTS);
    for (const view of lotViews) {
      await insertInBatches(client, 'furniture_applications', view.name, LOTS, (i) => {
        const full = lotOf(i);
        const doc: Document = { ...structuredClone(view.doc) };
        for (const key of Object.keys(doc)) if (key in full) doc[key] = full[key];
        doc._id = view.doc._id === String(lotId) ? String(full.id) : full.id;
        if (typeof view.doc._id !== 'string' && typeof view.doc._id !== 'number') delete doc._id;
        return doc;
      });
    }

    // applications: five per lot on average, statuses as a lot's life leaves them
    const firstApp = (appDoc.id as number) + 1;
    await insertInBatches(client, 'furniture_applications', 'applications', APPLICATIONS, (i) => {
      const lotIndex = i % LOTS;
      const rank = Math.floor(i / LOTS);
      const status =
        lotStatus(lotIndex) === 'available'
          ? 'pending'
          : rank === 0
            ? lotStatus(lotIndex) === 'transferred'
              ? 'completed'
              : 'approved'
            : 'rejected';
      const created = at(lotIndex, LOTS);
      return {
        ...structuredClone(appDoc),
        _id: undefined,
        id: firstApp + i,
        block: Math.floor((firstApp + i) / 100),
        part: Math.floor((firstApp + i) / 25),
        lot_id: lotId + 1 + lotIndex,
        // the unique keys of issue 42: a ticket of its own (queue order = id order), no phone place
        queue_ticket: firstApp + i,
        phone_slot: `a:${firstApp + i}`,
        status,
        applicant_name: `Familie ${i}`,
        applicant_phone: phone(i),
        applicant_phone_raw: phone(i),
        applicant_whatsapp: phone(i),
        applicant_email: `familie${i}@example.org`,
        lot_name: {
          de: `Kleiderschrank ${lotId + 1 + lotIndex}`,
          uk: `Шафа ${lotId + 1 + lotIndex}`,
        },
        notes: status === 'pending' ? [] : [`[${created.toISOString()}] Anna: angerufen, passt`],
        created_at: new Date(created.getTime() + rank * 3_600_000),
        updated_at: new Date(created.getTime() + rank * 3_600_000),
      };
    });
    await raise(client, 'furniture_applications', 'applications', firstApp + APPLICATIONS);

    const firstWish = (wishDoc.id as number) + 1;
    await insertInBatches(client, 'furniture_applications', 'wishes', WISHES, (i) => ({
      ...structuredClone(wishDoc),
      _id: undefined,
      id: firstWish + i,
      block: Math.floor((firstWish + i) / 100),
      part: Math.floor((firstWish + i) / 25),
      status: i > WISHES - 400 ? 'active' : 'fulfilled',
      applicant_name: `Familie ${i}`,
      applicant_whatsapp: phone(100_000 + i),
      applicant_whatsapp_raw: phone(100_000 + i),
      furniture_category: (i % 8) + 1,
      created_at: at(i, WISHES),
      updated_at: at(i, WISHES),
    }));
    await raise(client, 'furniture_applications', 'wishes', firstWish + WISHES);

    const firstUser = (userDoc.id as number) + 1;
    await insertInBatches(client, 'furniture_auth', 'users', USERS, (i) => ({
      ...structuredClone(userDoc),
      _id: undefined,
      id: firstUser + i,
      email: `volunteer${i}@example.org`,
      ...(typeof userDoc.email_key === 'string' ? { email_key: `volunteer${i}@example.org` } : {}),
      name: `Volunteer ${i}`,
      role: 'volunteer',
    }));
    await raise(client, 'furniture_auth', 'users', firstUser + USERS);

    const firstLog = (logDoc.id as number) + 100;
    const actions = ['CREATE', 'UPDATE', 'STATUS_CHANGE', 'LOGIN', 'DELETE'];
    const targets = ['lot', 'application', 'wish', 'user', 'category'];
    await insertInBatches(client, 'furniture_notification', 'activity_logs', ACTIVITY, (i) => {
      const user = (i % USERS) + firstUser;
      return {
        ...structuredClone(logDoc),
        _id: `bench:${i}`,
        id: firstLog + i,
        user_id: user,
        user_name: `Volunteer ${user - firstUser}`,
        user_email: `volunteer${user - firstUser}@example.org`,
        user_role: 'volunteer',
        action_type: actions[i % actions.length],
        target_type: targets[Math.floor(i / 5) % targets.length],
        target_id: lotId + 1 + (i % LOTS),
        details_json: JSON.stringify({ name: `Kleiderschrank ${lotId + 1 + (i % LOTS)}` }),
        search_text: `volunteer ${user - firstUser} kleiderschrank ${lotId + 1 + (i % LOTS)}`,
        created_at: at(i, ACTIVITY),
        day: localDay(at(i, ACTIVITY), 'Europe/Berlin'),
        month: localDay(at(i, ACTIVITY), 'Europe/Berlin').slice(0, 7),
      };
    });
    await raise(client, 'furniture_notification', 'activity_logs', firstLog + ACTIVITY);
    // the kept counts do not know the bulk: until they are rebuilt, the reads count per request
    // (as before the counts existed), which is what the first run measures
    for (const [db, collection] of KEPT_COUNTS)
      await client
        .db(db)
        .collection<{ _id: string }>(collection)
        .updateOne({ _id: 'all' }, { $set: { ready: false } }, { upsert: true });
    return {
      lotId: lotId + LOTS - 10,
      applicationId: firstApp + APPLICATIONS - 10,
      wishId: firstWish + WISHES - 10,
      phone: phone(APPLICATIONS - 10),
    };
  } finally {
    await client.close();
  }
}

/** A platform to measure: its gateway and a staff token of it. */
interface Target {
  gw: string;
  token: string;
}

/** One call's time in ms, or why it failed (a status other than 200). */
async function timeCall(target: Target, call: Call): Promise<number | string> {
  const headers: Record<string, string> = call.staff
    ? { authorization: `Bearer ${target.token}` }
    : {};
  const t0 = performance.now();
  const res = await fetch(target.gw + call.url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) return `${res.status} after ${(ms / 1000).toFixed(0)} s`;
  if (SLOW_MS > 0 && ms >= SLOW_MS)
    progress(`slow call: ${call.name} ${ms.toFixed(0)} ms at ${new Date().toISOString()}`);
  return ms;
}

/**
 * Each call CALLS times one after another on every target (with BENCH_VS two platforms, taking
 * turns call by call, each first every other time, so both see the same machine).
 */
async function measure(targets: Target[], call: Call): Promise<Figures[]> {
  const times = targets.map(() => [] as number[]);
  const failed: (string | undefined)[] = targets.map(() => undefined);
  // untimed first: a process started a minute ago (this build's) compiles its hot paths during
  // its first calls, one held for long (BENCH_VS) has done so; its first calls were its slowest
  for (let i = 0; i < WARMUP_CALLS; i++) for (const target of targets) await timeCall(target, call);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    if (i >= 5 && performance.now() - started > CALL_BUDGET_MS * targets.length) break;
    const order = targets.map((_, k) => k);
    if (i % 2) order.reverse();
    for (const k of order) {
      if (failed[k]) continue;
      const ms = await timeCall(targets[k]!, call);
      if (typeof ms === 'string') failed[k] = ms;
      else times[k]!.push(ms);
    }
  }
  const total = performance.now() - started;
  return times.map((t, k) => {
    t.sort((a, b) => a - b);
    const f = { p50: percentile(t, 50), p95: percentile(t, 95), p99: percentile(t, 99) };
    return failed[k]
      ? { failed: failed[k], p50: 0, p95: 0, p99: 0, rps: 0 }
      : { ...f, rps: (t.length / total) * 1000 * targets.length };
  });
}

/** req/s and p95 at several connections for 3 s, into the call's figures. */
async function measureConcurrent(
  target: Target,
  call: Call,
  connections: number,
  figures: Figures,
): Promise<void> {
  const headers: Record<string, string> = call.staff
    ? { authorization: `Bearer ${target.token}` }
    : {};
  {
    const latencies: number[] = [];
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        { url: target.gw + call.url, connections, duration: 3, headers },
        (err, r) => (err ? reject(err) : resolve(r)),
      );
      instance.on('response', (_c, _s, _b, ms) => latencies.push(ms));
    });
    latencies.sort((a, b) => a - b);
    figures.rps16 = result.requests.average;
    figures.p95at16 = percentile(latencies, 95);
  }
  // requests autocannon left open are still being answered: let them finish before the next call
  await new Promise((r) => setTimeout(r, 2000));
}

function rssKiB(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: read('VmRSS'), hwm: read('VmHWM') };
}

async function exportCsv(
  base: string,
  token: string,
  pid: number | undefined,
): Promise<{
  ms: number;
  bytes: number;
  rows: number;
  rssGrowthMiB: number | null;
  loadAverage: number;
}> {
  if (pid) {
    try {
      // resets VmHWM (the peak read below): an export before this one must not count
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // not allowed here: the peak may be an earlier one
    }
  }
  const before = pid ? rssKiB(pid) : null;
  let peak = before?.rss ?? 0;
  const timer = setInterval(() => {
    if (pid) peak = Math.max(peak, rssKiB(pid).rss);
  }, 50);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/activity-logs/export.csv`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let bytes = 0;
  let rows = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) rows++;
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  if (pid) {
    const end = rssKiB(pid);
    peak = Math.max(peak, end.rss, end.hwm);
  }
  return {
    ms,
    bytes,
    rows,
    rssGrowthMiB: before ? (peak - before.rss) / 1024 : null,
    loadAverage: os.loadavg()[0]!,
  };
}

function fmt(n: number | undefined, digits = 1): string {
  return n === undefined ? '-' : n.toFixed(digits);
}

async function main(): Promise<void> {
  const dataDir = path.join(REPO_ROOT, '.data', 'bench-scale');
  let backend = 'an external server';
  const infra = await startInfra({
    dataDir,
    fresh: true,
    dropDatabaseOnStop: true,
    log: (line) => {
      if (/FerretDB ready/.test(line)) backend = /PostgreSQL/.test(line) ? 'PostgreSQL' : 'SQLite';
      progress(line);
    },
  });
  let platform: Platform | undefined;
  const stopAll = async () => {
    await platform?.stop().catch(() => undefined);
    await deleteBrokerObjects(infra.env.AMQP_URL, EXCHANGE, topologyQueues(EXCHANGE)).catch(
      () => undefined,
    );
    await infra.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stopAll().then(() => process.exit(1)));
  const lines: string[] = [];
  try {
    platform = await startPlatform({
      infraEnv: infra.env,
      dataDir,
      gatewayPort: await freePort(),
      servicePortBase: 4600 + Math.floor(Math.random() * 300) * 5,
      publicUrl: 'http://localhost',
      admin: ADMIN,
      overrides: {
        AMQP_EXCHANGE: EXCHANGE,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        // every call reaches its service: the gateway keeps no public answers
        PUBLIC_CACHE_MAX_MS: '0',
        RATE_LIMIT_PUBLIC_WRITES: '1000000',
        PUBLIC_WRITES_PER_IP: '1000000',
        PUBLIC_WRITES_PER_PHONE: '1000000',
        RATE_LIMIT_PUBLIC_LOOKUPS: '1000000',
        PHONE_LOOKUPS_PER_IP: '1000000',
        RATE_LIMIT_LOGIN: '1000000',
        RATE_LIMIT_API: '1000000',
        // the closed months' CSV rows are stored right after the counts rebuild (not a minute
        // later, in the middle of the measured calls); the bench waits for them
        EXPORT_MONTHS_DELAY_SECONDS: '0',
        // the three years are seeded as if the retention job had never run: it would erase
        // their 20 000 closed records (at start since issue 31, hourly after) amid the calls
        PERSONAL_DATA_RETENTION_DAYS: '3650',
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      },
      print: (line) => progress(line),
    });
    const gw = platform.gatewayUrl;
    const login = await expectOk(api(gw, 'POST', '/api/v1/auth/login', ADMIN), 'login');
    const token = login.access_token as string;
    const t0 = performance.now();
    const ids = await seed(gw, infra.env.MONGO_URL!, token);
    progress(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const calls: Call[] = [
      { screen: 'home', name: 'categories', url: '/api/v1/categories/', staff: false },
      { screen: 'home', name: 'lot count', url: '/api/v1/lots/count', staff: false },
      { screen: 'home', name: 'newest lots', url: '/api/v1/lots/?limit=12', staff: false },
      { screen: 'category', name: 'category', url: '/api/v1/categories/2', staff: false },
      {
        screen: 'category',
        name: 'lots of a category',
        url: '/api/v1/lots/category/2?limit=24',
        staff: false,
      },
      { screen: 'search', name: 'lot search', url: '/api/v1/lots/search?q=schrank', staff: false },
      { screen: 'lot', name: 'lot', url: `/api/v1/lots/${ids.lotId}`, staff: false },
      {
        screen: 'lot',
        name: 'applications info',
        url: `/api/v1/lots/${ids.lotId}/applications-info`,
        staff: false,
      },
      {
        screen: 'lot',
        name: 'can apply',
        url: `/api/v1/lots/${ids.lotId}/can-apply?phone=${encodeURIComponent('+4915199999999')}`,
        staff: false,
      },
      {
        screen: 'status check',
        name: 'check status',
        url: `/api/v1/applications/public/check-status/${encodeURIComponent(ids.phone)}`,
        staff: false,
      },
      { screen: 'back-office', name: 'me', url: '/api/v1/auth/me', staff: true },
      { screen: 'lots', name: 'staff lot list', url: '/api/v1/lots/?limit=20', staff: true },
      {
        screen: 'lots',
        name: 'staff lots, transferred',
        url: '/api/v1/lots/?status=transferred&limit=20',
        staff: true,
      },
      {
        screen: 'applications',
        name: 'pending applications',
        url: '/api/v1/applications/?status=pending&limit=20',
        staff: true,
      },
      {
        screen: 'applications',
        name: 'all applications',
        url: '/api/v1/applications/?limit=20',
        staff: true,
      },
      { screen: 'applications', name: 'stats', url: '/api/v1/applications/stats', staff: true },
      {
        screen: 'application',
        name: 'application',
        url: `/api/v1/applications/${ids.applicationId}`,
        staff: true,
      },
      {
        screen: 'application',
        name: 'by phone',
        url: `/api/v1/applications/by-phone/${encodeURIComponent(ids.phone)}`,
        staff: true,
      },
      { screen: 'wishes', name: 'wishes', url: '/api/v1/wishes/?limit=20', staff: true },
      {
        screen: 'wishes',
        name: 'active wishes',
        url: '/api/v1/wishes/?status=active&limit=20',
        staff: true,
      },
      { screen: 'wish', name: 'wish', url: `/api/v1/wishes/${ids.wishId}`, staff: true },
      { screen: 'users', name: 'users', url: '/api/v1/users/', staff: true },
      { screen: 'activity', name: 'activity list', url: '/api/v1/activity-logs', staff: true },
      {
        screen: 'activity',
        name: 'activity page 40',
        url: '/api/v1/activity-logs?page=40',
        staff: true,
      },
      {
        screen: 'activity',
        name: 'activity stats',
        url: '/api/v1/activity-logs/stats',
        staff: true,
      },
      { screen: 'activity', name: 'log users', url: '/api/v1/activity-logs/users', staff: true },
    ];

    if (process.env.BENCH_ONLY) {
      const only = new RegExp(process.env.BENCH_ONLY, 'i');
      calls.splice(
        0,
        calls.length,
        ...calls.filter((c) => only.test(c.name) || only.test(c.screen)),
      );
    }
    const runs: { label: string; figures: Map<string, Figures>; with16: boolean }[] = [];
    const here: Target = { gw, token };
    // BENCH_VS: another build's platform, measured with this one call by call in turn
    const vs: Target | null = VS
      ? {
          gw: VS,
          token: (await expectOk(api(VS, 'POST', '/api/v1/auth/login', ADMIN), 'BENCH_VS login'))
            .access_token as string,
        }
      : null;
    const runAll = async (label: string, connections: number, others: Target[] = []) => {
      const targets = [...others, here];
      const labels = [...others.map(() => `${label} (BENCH_VS ${VS})`), label];
      const figures = targets.map(() => new Map<string, Figures>());
      // every call alone first, then (when asked) every call at several connections
      for (const call of calls) {
        progress(`${label}: ${call.name}`);
        (await measure(targets, call)).forEach((f, k) => figures[k]!.set(call.url, f));
      }
      if (connections > 1)
        for (const [i, call] of calls.entries()) {
          progress(`${label}: ${call.name} at ${connections} connections`);
          const order = targets.map((_, k) => k);
          if (i % 2) order.reverse();
          for (const k of order) {
            const f = figures[k]!.get(call.url)!;
            if (!f.failed) await measureConcurrent(targets[k]!, call, connections, f);
          }
        }
      targets.forEach((_, k) =>
        runs.push({ label: labels[k]!, figures: figures[k]!, with16: connections > 1 }),
      );
      // at once, so that a run cut short still leaves its figures
      for (const k of targets.keys()) {
        console.log(`\n${labels[k]} (ms: p50 / p95 / p99, req/s at 1 connection)`);
        for (const call of calls) {
          const f = figures[k]!.get(call.url)!;
          console.log(
            `  ${call.name.padEnd(26)} ${f.failed ?? `${fmt(f.p50)} / ${fmt(f.p95)} / ${fmt(f.p99)}, ${fmt(f.rps, 0)}`}`,
          );
        }
      }
    };
    const pgUrl = backend === 'PostgreSQL' ? infra.ferretPostgresUrl : undefined;
    // before: what the platform did before issue 16 (no PostgreSQL indexes, counting per request)
    if (process.env.BENCH_BEFORE !== '0')
      await runAll('before: counted per request, no PG indexes', 1);
    if (pgUrl) {
      const t = performance.now();
      const created = await ensureFerretIndexes(pgUrl, { log: progress });
      lines.push(
        `PostgreSQL indexes for FerretDB: ${created} created in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      if (process.env.BENCH_INDEXES_ONLY === '1') await runAll('PG indexes only', 1);
    }
    // after: the services restarted rebuild their kept counts from the bulk, as after an upgrade
    const t = performance.now();
    for (const name of ['catalog', 'applications', 'notification'])
      platform.supervisor.signal(name, 'SIGTERM');
    const client = await MongoClient.connect(infra.env.MONGO_URL, { directConnection: true });
    try {
      await waitUntil(
        async () => {
          for (const [db, collection] of KEPT_COUNTS) {
            const doc = await client
              .db(db)
              .collection<{ _id: string; ready: boolean }>(collection)
              .findOne({ _id: 'all' });
            if (!doc?.ready) throw new Error(`${db}.${collection} not rebuilt yet`);
          }
          const health = await fetch(`${gw}/api/v1/health`);
          if (!health.ok) throw new Error('not every service is back');
        },
        { timeoutMs: 600_000, intervalMs: 1000, what: 'the kept counts rebuilt' },
      );
      lines.push(
        `kept counts rebuilt after a restart (three services, from the bulk): ${((performance.now() - t) / 1000).toFixed(0)} s`,
      );
      // a running platform has stored its closed months' CSV rows long before anyone exports:
      // the notification service does it right after its counts rebuild (EXPORT_MONTHS_DELAY_SECONDS
      // 0 here); the calls and the export are measured once it is done (also without the export:
      // the job would compete with the measured calls for the two cores)
      const tm = performance.now();
      const db = client.db('furniture_notification');
      const current = localDay(new Date(), 'Europe/Berlin').slice(0, 7);
      const counts = await db
        .collection<{ _id: string; n: Record<string, number> }>('activity_counts')
        .findOne({ _id: 'all' });
      // the log's kept counts are per day ("day:2026-11-22"); a month is closed before this one
      const closed = new Set(
        Object.keys(counts?.n ?? {})
          .filter((k) => k.startsWith('day:'))
          .map((k) => k.slice('day:'.length, 'day:'.length + 7))
          .filter((month) => month < current),
      ).size;
      await waitUntil(
        async () => {
          const heads = await db.collection('activity_export_months').countDocuments({});
          if (heads < closed) throw new Error(`${heads} of ${closed} months stored`);
        },
        { timeoutMs: 900_000, intervalMs: 2000, what: 'the closed months stored' },
      );
      lines.push(
        `closed months' CSV rows stored by the notification service after the rebuild: ${closed} months in ${((performance.now() - tm) / 1000).toFixed(0)} s`,
      );
    } finally {
      await client.close();
    }
    if (pgUrl) {
      await ensureFerretIndexes(pgUrl, { log: progress }); // collections new since
      // the rebuild rewrote every document (buckets, parts): PostgreSQL's autovacuum would clean
      // up after it in the middle of the measured calls, and only on this side (a held BENCH_VS
      // platform has long been vacuumed); done now, both are measured in the same steady state
      const tv = performance.now();
      const pg = new Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
      await pg.connect();
      try {
        await pg.query('VACUUM (ANALYZE)');
      } finally {
        await pg.end().catch(() => undefined);
      }
      lines.push(
        `VACUUM (ANALYZE) after the rebuild: ${((performance.now() - tv) / 1000).toFixed(0)} s`,
      );
    }
    await runAll('after: kept counts, day/block pages, PG indexes', CONNECTIONS, vs ? [vs] : []);
    if (process.env.BENCH_HOLD === '1') {
      // to look into the seeded platform by hand: it stays up until Ctrl-C
      progress(`holding: gateway ${gw}, MongoDB ${infra.env.MONGO_URL}; Ctrl-C ends`);
      await new Promise(() => undefined);
    }
    const pid = platform.supervisor.pid?.('notification');
    // twice: both send the closed months' stored rows and render the current month (the first
    // export right after a bulk load, before the months are stored, renders every month: see
    // the README)
    const csvRuns: Awaited<ReturnType<typeof exportCsv>>[] = [];
    if (process.env.BENCH_EXPORT !== '0')
      for (let i = 0; i < 2; i++) {
        progress(`CSV export ${i + 1}`);
        csvRuns.push(await exportCsv(gw, token, pid));
      }

    const head = ['screen', 'call', 'public'];
    const table: string[][] = [];
    const with16 = (i: number) => runs[i]!.with16;
    for (let i = 0; i < runs.length; i++)
      head.push(
        `p50`,
        `p95`,
        `p99`,
        `req/s`,
        ...(with16(i) ? [`req/s@${CONNECTIONS}`, `p95@${CONNECTIONS}`] : []),
      );
    for (const call of calls) {
      const row = [call.screen, call.name, call.staff ? 'staff' : 'public'];
      runs.forEach((run, i) => {
        const f = run.figures.get(call.url)!;
        if (f.failed) row.push(f.failed, '-', '-', '-');
        else row.push(fmt(f.p50), fmt(f.p95), fmt(f.p99), fmt(f.rps, 0));
        if (with16(i)) row.push(fmt(f.rps16, 0), fmt(f.p95at16));
      });
      table.push(row);
    }
    const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    const render = (r: string[]) =>
      r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(
      `\nbench:scale — ${LOTS} lots, ${APPLICATIONS} applications, ${WISHES} wishes, ${ACTIVITY} log entries, ${USERS} staff; FerretDB on ${backend}; through the gateway, uncached; up to ${CALLS} sequential calls each (ms)${CONNECTIONS > 1 ? `, in the last run then ${CONNECTIONS} connections for 3 s` : ''}\n`,
    );
    console.log(`runs, left to right: ${runs.map((r) => r.label).join(' | ')}\n`);
    console.log(render(head));
    for (const r of table) console.log(render(r));
    console.log('');
    if (vs) {
      // the last two runs: the other build and this one, measured in turn
      const [other, mine] = runs.slice(-2).map((r) => r.figures);
      console.log(`p95 of this build / p95 of BENCH_VS (1 connection | ${CONNECTIONS}):`);
      for (const call of calls) {
        const a = other!.get(call.url)!;
        const b = mine!.get(call.url)!;
        const at16 = a.p95at16 && b.p95at16 ? fmt(b.p95at16 / a.p95at16, 2) : '-';
        console.log(`  ${call.name.padEnd(26)} ${fmt(b.p95 / a.p95, 2)} | ${at16}`);
      }
      console.log('');
    }
    for (const line of lines) console.log(line);
    csvRuns.forEach((csv, i) =>
      console.log(
        `CSV export of the whole log (${i === 0 ? 'first' : 'again'}): ${csv.rows} lines, ${(csv.bytes / 1048576).toFixed(1)} MiB in ${(csv.ms / 1000).toFixed(1)} s; notification RSS growth ${csv.rssGrowthMiB === null ? 'unknown' : `${csv.rssGrowthMiB.toFixed(0)} MiB`}; load average ${csv.loadAverage.toFixed(1)}`,
      ),
    );
  } finally {
    await stopAll();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
