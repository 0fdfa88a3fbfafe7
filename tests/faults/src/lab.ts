/**
 * A whole platform whose infrastructure a test may break: the BUILT services and gateway as
 * separate processes (startPlatform, as `make run`), on their own FerretDB (stopped and started
 * again on the same port and data), their own RabbitMQ node (stop_app/start_app) and their own
 * Mailpit (stopped and started again on the same ports and mail), with the shared MinIO of the
 * test run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { searchMails } from '@furniture/platform/testing';
import {
  chooseFerretBackend,
  dropFerretDatabase,
  ensureTool,
  freePort,
  freePortRun,
  isPortFree,
  startFerret,
  startMailpit,
  startPlatform,
  startPrivateRabbit,
  REPO_ROOT,
  TEST_DATA_DIR,
  SERVICE_NAMES,
  servicePortSpan,
  type FerretBackend,
  type Mailpit,
  type Platform,
  type PrivateRabbit,
  type RunningFerret,
} from '@furniture/infra';

export type ServiceName = (typeof SERVICE_NAMES)[number];

export const BUILT = [
  ...SERVICE_NAMES.map((name) => `services/${name}/dist/start.js`),
  'gateway/dist/start.js',
];

/** Answer of one HTTP call (status 0: no answer at all). */
export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** One JSON call with an optional bearer token: its status and its body (text when not JSON). */
export async function callJson<T = unknown>(
  url: string,
  method: string,
  token: string | null,
  opts: { body?: unknown; headers?: Record<string, string>; timeoutMs: number },
): Promise<Answer<T>> {
  const res = await fetch(url, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(opts.timeoutMs),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as T };
}

export interface Mail {
  MessageID: string;
  Subject: string;
  To: { Address: string }[];
}

export class FaultLab {
  private ferret?: RunningFerret;
  private mongo?: MongoClient;
  adminToken = '';

  private constructor(
    readonly dataDir: string,
    private readonly ferretBinary: string,
    private readonly backend: FerretBackend,
    readonly mongoPort: number,
    readonly rabbit: PrivateRabbit,
    readonly mail: Mailpit,
    readonly platform: Platform,
    readonly admin: { email: string; password: string },
    readonly log: (line: string) => void,
  ) {}

  static async start(
    log: (line: string) => void = () => undefined,
    /** processes of every service (issue 42: kill -9 and rolling restarts with two) */
    opts: { replicas?: number } = {},
  ): Promise<FaultLab> {
    const replicas = opts.replicas ?? 1;
    const missing = BUILT.filter((f) => !fs.existsSync(path.join(REPO_ROOT, f)));
    if (missing.length > 0)
      throw new Error(
        `the fault suite runs the built platform: build first (${missing.join(', ')})`,
      );
    const s3Url = process.env.S3_URL;
    if (!s3Url) throw new Error('S3_URL is not set: run through jest (its global setup) or set it');
    const dataDir = path.join(TEST_DATA_DIR, replicas > 1 ? `faults-x${replicas}` : 'faults');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dataDir, 'logs'), { recursive: true });

    const ferretBinary = await ensureTool('ferretdb', log);
    const backend = await chooseFerretBackend({ dataDir, fresh: true, log });
    const mongoPort = await freePort();
    const rabbit = await startPrivateRabbit({ dataDir: path.join(dataDir, 'rabbit'), log });
    const mail = await startMailpit({ dataDir, log });
    const ferret = await startFerret({
      binary: ferretBinary,
      dataDir,
      backend,
      port: mongoPort,
      log,
    });

    const tag = randomBytes(3).toString('hex');
    const admin = { email: 'admin@faults.moebelbruecke.test', password: `faults-admin-${tag}` };
    const gatewayPort = await freePort();
    // replicas listen ten ports apart (startPlatform)
    const servicePortBase = await freePortRun(servicePortSpan(replicas));
    const platform = await startPlatform({
      infraEnv: {
        MONGO_URL: ferret.url,
        AMQP_URL: rabbit.url,
        S3_URL: s3Url,
        SMTP_URL: mail.smtpUrl,
      },
      dataDir,
      gatewayPort,
      servicePortBase,
      replicas,
      publicUrl: `http://127.0.0.1:${gatewayPort}`,
      admin,
      overrides: {
        LOG_LEVEL: 'info',
        S3_BUCKET: `furniture-faults-${tag}`,
        // families behind one address: the suite sends bursts from one machine
        RATE_LIMIT_PUBLIC_WRITES: '100000',
        RATE_LIMIT_PUBLIC_LOOKUPS: '100000',
        PHONE_LOOKUPS_PER_IP: '100000',
        PUBLIC_WRITES_PER_IP: '100000',
        PUBLIC_WRITES_PER_PHONE: '100000',
        RATE_LIMIT_LOGIN: '100000',
        // a local SMTP server answers in milliseconds: a mail caught mid-send by kill -9 is
        // taken up again after 10 s instead of a minute (the lease must exceed 3 × the timeout)
        SMTP_TIMEOUT_MS: '3000',
        MAIL_LEASE_MS: '10000',
      },
      print: (line) => {
        if (/ exited \(/.test(line)) log(`[platform] ${line}`);
      },
      readyTimeoutMs: 150_000,
    });
    const lab = new FaultLab(
      dataDir,
      ferretBinary,
      backend,
      mongoPort,
      rabbit,
      mail,
      platform,
      admin,
      log,
    );
    lab.ferret = ferret;
    lab.mongo = new MongoClient(ferret.url, {
      serverSelectionTimeoutMS: 2000,
      directConnection: true,
    });
    await lab.login();
    return lab;
  }

  get api(): string {
    return `${this.platform.gatewayUrl}/api/v1`;
  }

  async call<T = unknown>(
    method: string,
    url: string,
    opts: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    const token = opts.token === undefined ? this.adminToken : opts.token;
    try {
      return await callJson<T>(`${this.api}${url}`, method, token, { ...opts, timeoutMs: 40_000 });
    } catch {
      return { status: 0, body: null as T };
    }
  }

  async login(): Promise<void> {
    const res = await this.call<{ access_token: string }>('POST', '/auth/login', {
      body: this.admin,
      token: null,
    });
    if (res.status !== 200) throw new Error(`admin login: ${res.status}`);
    this.adminToken = res.body.access_token;
  }

  /** A lot created as staff do, once the applications service knows it (families can apply). */
  async createLot(name: string): Promise<number> {
    const res = await this.call<{ id: number }>('POST', '/lots/', {
      body: {
        name: { de: name, uk: name },
        description: { de: `${name}, gut erhalten`, uk: `${name}, у доброму стані` },
        category_id: 1,
        status: 'available',
      },
    });
    if (res.status !== 201)
      throw new Error(`lot not created: ${res.status} ${JSON.stringify(res.body)}`);
    const id = res.body.id;
    await this.until(`lot ${id} known to applications`, async () => {
      const info = await this.call('GET', `/lots/${id}/applications-info`, { token: null });
      return info.status === 200;
    });
    return id;
  }

  /**
   * Applies for a lot as a family's browser does, resending with the same Idempotency-Key while
   * the answer is not 201 (no answer, or a clean 503 while a service restarts). Answers the
   * application id and every status seen on the way.
   */
  async apply(
    lotId: number,
    family: Family,
    opts: { retryForMs?: number } = {},
  ): Promise<{ id: number | null; statuses: number[] }> {
    const key = randomUUID();
    const statuses: number[] = [];
    const deadline = Date.now() + (opts.retryForMs ?? 120_000);
    for (;;) {
      const res = await this.call<{ id: number }>('POST', '/applications/', {
        token: null,
        headers: { 'idempotency-key': key, 'accept-language': family.language },
        body: {
          applicant_name: family.name,
          applicant_phone: family.phone,
          applicant_whatsapp: family.phone,
          applicant_email: family.email,
          applicant_city: 'Berlin',
          applicant_address: 'Teststraße 1',
          needs_delivery_help: false,
          lot_id: lotId,
        },
      });
      statuses.push(res.status);
      if (res.status === 201) return { id: res.body.id, statuses };
      if (res.status !== 0 && res.status !== 502 && res.status !== 503)
        return { id: null, statuses };
      if (Date.now() > deadline) return { id: null, statuses };
      await sleep(500);
    }
  }

  /** Staff approve (202: requested); retried while the applications service is away. */
  async requestApproval(id: number): Promise<void> {
    await this.until(`approval of ${id} requested`, async () => {
      const res = await this.call('PATCH', `/applications/${id}/status`, {
        body: { status: 'approved' },
      });
      if (res.status === 202) return true;
      if (res.status === 0 || res.status >= 500) return false;
      throw new Error(`approval of ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    });
  }

  /**
   * A staff call resent while the answer is a clean 502/503 or none at all (the service is
   * restarting); a 409 after a lost answer means the first attempt was stored. Every status seen
   * is added to `statuses`.
   */
  async retried(what: string, statuses: number[], call: () => Promise<Answer>): Promise<void> {
    await this.until(
      what,
      async () => {
        const res = await call();
        statuses.push(res.status);
        if (res.status === 0 || res.status === 502 || res.status === 503) return false;
        if (res.status >= 200 && res.status < 300) return true;
        if (res.status === 409) return true;
        throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      },
      120_000,
      500,
    );
  }

  /** Uploads a small generated photo to a lot, as the back-office does. */
  async uploadPhoto(lotId: number, n: number): Promise<Answer> {
    const sharp = (await import('sharp')).default;
    const jpeg = await sharp({
      create: { width: 400, height: 400, channels: 3, background: { r: 40 * n, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `foto-${n}.jpg`);
    form.append('generate_thumbnails', 'true');
    try {
      const res = await fetch(`${this.api}/lots/${lotId}/photos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.adminToken}` },
        body: form,
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    } catch {
      return { status: 0, body: null };
    }
  }

  /** How many photos the catalog's lot shows. */
  async lotPhotos(lotId: number): Promise<number> {
    const res = await this.call<{ photos: string[] }>('GET', `/lots/${lotId}`);
    return res.status === 200 ? res.body.photos.length : -1;
  }

  /** Every application of a lot, page by page (a steady load makes more than one page). */
  async applicationsOfLot(lotId: number): Promise<Application[]> {
    const all: Application[] = [];
    for (;;) {
      const res = await this.call<{ applications: Application[]; total: number }>(
        'GET',
        `/applications/?lot_id=${lotId}&limit=100&skip=${all.length}`,
      );
      if (res.status !== 200) throw new Error(`applications of lot ${lotId}: ${res.status}`);
      all.push(...res.body.applications);
      if (res.body.applications.length === 0 || all.length >= res.body.total) return all;
    }
  }

  async lotStatus(lotId: number): Promise<string | null> {
    const res = await this.call<{ status: string }>('GET', `/lots/${lotId}`);
    return res.status === 200 ? res.body.status : null;
  }

  /** Every captured mail. */
  mails(): Promise<Mail[]> {
    return searchMails(this.mail.apiUrl, '');
  }

  /** Messages in the services' dead-letter queues (all should stay empty). */
  async deadLetters(): Promise<Record<string, number>> {
    const amqp = await import('amqplib');
    const conn = await amqp.connect(this.rabbit.url);
    try {
      const ch = await conn.createChannel();
      const out: Record<string, number> = {};
      for (const s of SERVICE_NAMES) {
        out[s] = (await ch.checkQueue(`furniture.events.${s}.dead`)).messageCount;
      }
      return out;
    } finally {
      await conn.close();
    }
  }

  /** The applications service's database (outbox state, stored applications). */
  db(service: ServiceName) {
    return this.mongo!.db(`furniture_${service}`);
  }

  async stopDatabase(): Promise<void> {
    await this.mongo?.close().catch(() => undefined);
    await this.ferret?.stop();
    this.ferret = undefined;
    this.log('database stopped');
  }

  async startDatabase(): Promise<void> {
    if (!(await isPortFree(this.mongoPort))) throw new Error('the database port is taken');
    this.ferret = await startFerret({
      binary: this.ferretBinary,
      dataDir: this.dataDir,
      backend: this.backend,
      port: this.mongoPort,
      log: this.log,
    });
    this.mongo = new MongoClient(this.ferret.url, {
      serverSelectionTimeoutMS: 2000,
      directConnection: true,
    });
    this.log('database started again');
  }

  /** Polls `check` until it answers true-ish; throws after `timeoutMs`. */
  async until<T>(
    what: string,
    check: () => Promise<T | false | undefined>,
    timeoutMs = 60_000,
    intervalMs = 250,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const v = await check();
        if (v !== false && v !== undefined) return v;
      } catch (err) {
        last = err;
      }
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
      await sleep(intervalMs);
    }
  }

  async stop(): Promise<void> {
    await this.platform.stop().catch(() => undefined);
    await this.mongo?.close().catch(() => undefined);
    await this.ferret?.stop().catch(() => undefined);
    await dropFerretDatabase(this.backend).catch(() => undefined);
    await this.rabbit.stop().catch(() => undefined);
    await this.mail.stop().catch(() => undefined);
  }
}

export interface Family {
  name: string;
  phone: string;
  email: string;
  language: 'de' | 'uk';
}

let familySeq = 0;
/** A family no other step uses (its phone and address are unique). */
export function family(language: 'de' | 'uk' = familySeq % 2 === 0 ? 'de' : 'uk'): Family {
  familySeq += 1;
  const n = String(familySeq).padStart(6, '0');
  return {
    name: language === 'de' ? `Familie Test ${n}` : `Родина Тест ${n}`,
    phone: `0176 55${n}`,
    email: `family-${n}-${randomBytes(2).toString('hex')}@faults.example`,
    language,
  };
}

export interface Application {
  id: number;
  lot_id: number;
  status: string;
  queue_position: number | null;
  applicant_email: string | null;
  approval: { state: string } | null;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export { SERVICE_NAMES };
