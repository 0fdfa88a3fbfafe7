/**
 * No start waits on S3 (issue 43): the erasure ledger lives in a bucket; when S3 does not answer
 * as a replica starts (a rollout, a scale-up during an outage), the service starts within its
 * bounded wait, answers, says on /ready that it has not caught up with the ledger, and catches up
 * once S3 is back: an erasure recorded in the ledger is then done again.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { openErasureLedger, s3Client, listObjects } from '@furniture/platform/backup';
import { api, eventually, testUrls, uniqueName } from '@furniture/platform/testing';
import { startApplications, type ApplicationsHarness } from './harness';

const { s3Url } = testUrls();
const minio = new URL(s3Url);
const bucket = uniqueName('ledger-outage').replace(/_/g, '-');
let s3Up = false;
/** S3 as the service reaches it: refused while `s3Up` is false, MinIO itself once it is true */
const gate = net.createServer((client) => {
  if (!s3Up) return client.destroy();
  const upstream = net.connect(Number(minio.port), minio.hostname);
  client.pipe(upstream).pipe(client);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
});
let svc: ApplicationsHarness | undefined;

beforeAll(async () => {
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', () => resolve()));
  await s3Client(s3Url).client.makeBucket(bucket);
});
afterAll(async () => {
  await svc?.stop();
  gate.close();
  const s3 = s3Client(s3Url).client;
  const names = (await listObjects(s3, bucket)).map((o) => o.name);
  if (names.length > 0) await s3.removeObjects(bucket, names);
  await s3.removeBucket(bucket);
});

test('when S3 is away as the service starts, then it starts within its bounded wait, answers, says on /ready that the ledger is not caught up, and catches up once S3 is back', async () => {
  const gated = new URL(s3Url);
  gated.port = String((gate.address() as AddressInfo).port);
  const ledgerSetting = `s3://${bucket}/erasures/`;
  // an erasure recorded while the platform ran (ids that this database does not hold: the
  // catch-up reads the entry and finds nothing to erase again)
  await openErasureLedger(ledgerSetting, s3Url)!.append({
    at: new Date().toISOString(),
    reason: 'request',
    actor: null,
    applications: [{ id: 424242, created_at: new Date().toISOString() }],
    wishes: [],
  });
  // before issue 43 the start read the whole ledger first: it failed, and the replica with it
  svc = await startApplications({
    env: { ERASURE_LEDGER: ledgerSetting, S3_URL: gated.toString().replace(/\/$/, '') },
  });
  const http = api(svc.url, { contract: false });
  const ready = await http.get('/ready');
  expect(ready.status).toBe(200);
  expect(ready.body.checks.erasure_ledger).toBe(false);
  expect((await http.get('/api/v1/applications/public/check-status/%2B4915100000001')).status).toBe(
    200,
  );
  s3Up = true;
  await eventually(async () => (await http.get('/ready')).body.checks.erasure_ledger === true, {
    timeoutMs: 90_000,
    intervalMs: 500,
    what: 'the ledger caught up',
  });
}, 150_000);
