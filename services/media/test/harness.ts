import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseS3Url } from '@furniture/infra';
import { Events, LOT_SNAPSHOT_PATH, type LotSnapshot, type Role } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import {
  assertAnswerInContract,
  eventually,
  signTestToken,
  startService,
  testLot,
  testUrls,
  uniqueName,
} from '@furniture/platform/testing';
import { Client } from 'minio';
import { mediaService, type MediaOptions } from '../src/compose';

export const admin = {
  id: 1,
  role: 'admin' as Role,
  name: 'Anna Admin',
  email: 'anna@example.org',
};
export const volunteer = {
  id: 2,
  role: 'volunteer' as Role,
  name: 'Wolfgang Freiwillig',
  email: 'wolf@example.org',
};
export const tokenOf = (user: typeof admin) => signTestToken(user);

export { jpeg, png } from './images';

/** A port nothing listens on (a catalog that is down). */
export const NO_CATALOG = 'http://127.0.0.1:9';

/**
 * Stands in for the catalog's internal snapshot endpoint (contracts api/internal.ts), serving
 * the lots a test puts into `lots`, ordered by id and paged by after_id.
 */
export async function startCatalogStub() {
  const lots = new Map<number, LotSnapshot>();
  let calls = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    if (url.pathname !== LOT_SNAPSHOT_PATH) {
      res.writeHead(404).end();
      return;
    }
    calls++;
    const afterId = Number(url.searchParams.get('after_id') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 500);
    const page = [...lots.values()]
      .filter((l) => l.id > afterId)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit);
    const last = page.at(-1);
    const more = last !== undefined && [...lots.keys()].some((id) => id > last.id);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ lots: page, next_after_id: more ? last.id : null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lots,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A minio client on the test S3 server (to look into the bucket from outside the service). */
export function testS3(): Client {
  const s3 = parseS3Url(testUrls().s3Url);
  return new Client({
    endPoint: s3.endPoint,
    port: s3.port,
    useSSL: s3.useSSL,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
  });
}

export async function listKeys(client: Client, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of client.listObjectsV2(bucket, prefix, true) as AsyncIterable<{
    name?: string;
  }>) {
    if (item.name) keys.push(item.name);
  }
  return keys.sort();
}

export function lotSnapshot(id: number, over: Partial<LotSnapshot> = {}): LotSnapshot {
  return testLot({ id, ...over });
}

/**
 * Starts the real media service against the test servers, on its own database, exchange and
 * bucket. Lot events are published on the same exchange, as the catalog would.
 */
export async function startMedia(
  env: Record<string, string> = {},
  opts: { beforeStart?: (catalog: CatalogStub) => void; options?: MediaOptions } = {},
) {
  const urls = testUrls();
  const catalog = await startCatalogStub();
  opts.beforeStart?.(catalog);
  const bucket = uniqueName('media').replace(/_/g, '-');
  const svc = await startService(mediaService, {
    env: { S3_URL: urls.s3Url, S3_BUCKET: bucket, CATALOG_URL: catalog.url, ...env },
    options: { rebuildRetryMs: 200, ...opts.options },
  });
  const { conn, bus } = svc;
  const media = svc.service;
  const s3 = testS3();

  /** Publishes a lot event as the catalog does. */
  const publishLot = async (
    name: typeof Events.LotCreated | typeof Events.LotUpdated | typeof Events.LotDeleted,
    lot: LotSnapshot,
  ) => {
    const payload = name === Events.LotUpdated ? { lot, changes: {} } : { lot };
    const event = createEvent(name, payload as never, null);
    await bus.publish(event);
    return event;
  };

  let lastLotId = 0;
  /** A lot the read model knows (published as lot.created and waited for). */
  const createLot = async (over: Partial<LotSnapshot> = {}): Promise<number> => {
    const id = over.id ?? ++lastLotId;
    await publishLot(Events.LotCreated, lotSnapshot(id, over));
    await eventually(async () => (await conn.collection('lots').findOne({ id })) ?? undefined, {
      what: `lot ${id} in the read model`,
    });
    return id;
  };

  return {
    ...svc,
    media,
    bucket,
    s3,
    publishLot,
    createLot,
    catalog,
    keysOf: (prefix = '') => listKeys(s3, bucket, prefix),
    async stop() {
      await svc.stop();
      await catalog.close();
      const left = await listKeys(s3, bucket).catch(() => []);
      if (left.length > 0) await s3.removeObjects(bucket, left).catch(() => undefined);
      await s3.removeBucket(bucket).catch(() => undefined);
    },
  };
}
export type CatalogStub = Awaited<ReturnType<typeof startCatalogStub>>;
export type MediaUnderTest = Awaited<ReturnType<typeof startMedia>>;

export interface UploadOptions {
  name?: string;
  type?: string;
  token?: string | null;
  field?: string;
  lang?: string;
}

/** POST /api/v1/lots/{id}/photos as the back-office sends it (multipart, file + flag). */
export async function upload(
  baseUrl: string,
  lotId: number,
  data: Buffer | null,
  opts: UploadOptions = {},
) {
  const form = new FormData();
  if (data) {
    form.append(
      opts.field ?? 'file',
      new Blob([new Uint8Array(data)], { type: opts.type ?? 'image/jpeg' }),
      opts.name ?? 'photo.jpg',
    );
  }
  form.append('generate_thumbnails', 'true');
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? tokenOf(volunteer) : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.lang) headers['accept-language'] = opts.lang;
  const res = await fetch(`${baseUrl}/api/v1/lots/${lotId}/photos`, {
    method: 'POST',
    body: form,
    headers,
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked by the assertions
  const body: any = (res.headers.get('content-type') ?? '').includes('json')
    ? JSON.parse(text)
    : text;
  return { status: res.status, body, headers: res.headers };
}

/** POST /api/v1/donations/{id}/items/{itemId}/photos as the donation page sends it. */
export async function uploadDonorPhoto(
  baseUrl: string,
  donationId: number,
  itemId: number,
  data: Buffer | null,
  opts: Omit<UploadOptions, 'token' | 'field'> & { token?: string | null } = {},
) {
  const form = new FormData();
  if (data) {
    form.append(
      'file',
      new Blob([new Uint8Array(data)], { type: opts.type ?? 'image/jpeg' }),
      opts.name ?? 'photo.jpg',
    );
  }
  const headers: Record<string, string> = {};
  if (opts.token) headers['x-donation-token'] = opts.token;
  if (opts.lang) headers['accept-language'] = opts.lang;
  const res = await fetch(`${baseUrl}/api/v1/donations/${donationId}/items/${itemId}/photos`, {
    method: 'POST',
    body: form,
    headers,
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked by the assertions
  const body: any = (res.headers.get('content-type') ?? '').includes('json')
    ? JSON.parse(text)
    : text;
  assertAnswerInContract({
    method: 'POST',
    url: `${baseUrl}/api/v1/donations/${donationId}/items/${itemId}/photos`,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body,
  });
  return { status: res.status, body, headers: res.headers };
}

/** GET of a /media/... URL: status, headers and the bytes. */
export async function download(baseUrl: string, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}${url}`, { headers });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}
