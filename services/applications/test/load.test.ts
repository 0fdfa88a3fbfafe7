/**
 * A popular lot: 200 families apply at the same moment from distinct phones, and one family sends
 * its application 20 times at once (a double-tapping, flaky connection). Called on the service
 * directly: the gateway's per-IP limit on public writes would (rightly) refuse most of them.
 * Prints figures; asserts only correctness, never timing.
 */
import { Events } from '@furniture/contracts';
import {
  adminToken,
  applicationBody,
  e164,
  eventually,
  newPhone,
  publishLot,
  startApplications,
  type ApplicationsHarness,
} from './harness';

let h: ApplicationsHarness;
beforeAll(async () => {
  h = await startApplications();
});
afterAll(async () => {
  await h?.stop();
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

test('when 200 families and one family 20 times apply for one lot at once, then every 201 is stored, queue places are exactly 1..n and the repeated phone holds one application', async () => {
  const lot = await publishLot(h);
  const distinct = Array.from({ length: 200 }, () => newPhone());
  const repeated = newPhone();
  const bodies = [
    ...distinct.map((phone) => applicationBody(lot.id, { applicant_phone: phone })),
    ...Array.from({ length: 20 }, (_, i) =>
      // the same number written three ways
      applicationBody(lot.id, {
        applicant_phone: [repeated, e164(repeated), e164(repeated).replace('+', '00')][i % 3],
      }),
    ),
  ];

  // a burst larger than the service serves within a second is partly shed (503 SERVICE_BUSY,
  // Retry-After, before any work): tried again as the SPA does, after the wait it asks for
  let shed = 0;
  const post = async (body: Record<string, unknown>) => {
    for (;;) {
      const res = await h.http.post('/api/v1/applications', body);
      if (res.status !== 503 || res.body.code !== 'SERVICE_BUSY') return res;
      shed++;
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 250));
    }
  };
  const started = performance.now();
  const results = await Promise.all(
    bodies.map(async (body) => {
      const t0 = performance.now();
      const res = await post(body);
      return { res, ms: performance.now() - t0, phone: body.applicant_phone as string };
    }),
  );
  const wallMs = performance.now() - started;

  const created = results.filter((r) => r.res.status === 201);
  const duplicates = results.filter((r) => r.res.status === 409);
  expect(results.filter((r) => r.res.status !== 201 && r.res.status !== 409)).toEqual([]);
  expect(duplicates.every((r) => r.res.body.code === 'ALREADY_APPLIED')).toBe(true);
  expect(created).toHaveLength(201);
  expect(duplicates).toHaveLength(19);
  expect(created.filter((r) => distinct.includes(r.phone))).toHaveLength(200);

  // every 201 is stored, with the place its answer gave
  const ids = created.map((r) => r.res.body.id as number);
  expect(new Set(ids).size).toBe(201);
  const stored = new Map<number, number | null>();
  for (const skip of [0, 100, 200]) {
    const page = await h.http.get(`/api/v1/applications?lot_id=${lot.id}&limit=100&skip=${skip}`, {
      token: adminToken(),
    });
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(201);
    for (const a of page.body.applications) stored.set(a.id, a.queue_position);
  }
  expect([...stored.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  const places = [...stored.values()].sort((a, b) => a! - b!);
  expect(places).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
  for (const r of created) expect(stored.get(r.res.body.id)).toBe(r.res.body.queue_position);

  // the family's own view agrees, and the repeated phone holds exactly one application
  const mine = await h.http.get(
    `/api/v1/applications/public/check-status/${encodeURIComponent(repeated)}`,
  );
  expect(mine.body.applications).toHaveLength(1);
  const info = await h.http.get(
    `/api/v1/lots/${lot.id}/applications-info?phone=${encodeURIComponent(e164(repeated))}`,
  );
  expect(info.body.data).toMatchObject({
    applications_count: 201,
    user_has_application: true,
    queue_position: stored.get(mine.body.applications[0].id),
  });

  // one application.submitted per stored application, with the same places
  await eventually(() => h.recorder.of(Events.ApplicationSubmitted).length >= 201, {
    timeoutMs: 30000,
    what: '201 submitted events',
  });
  const submitted = h.recorder
    .of(Events.ApplicationSubmitted)
    .filter((e) => e.payload.lot_id === lot.id);
  expect(submitted).toHaveLength(201);
  expect(submitted.map((e) => e.payload.queue_position).sort((a, b) => a - b)).toEqual(places);

  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  console.warn(
    [
      `220 concurrent POST /applications (200 phones + 1 phone x 20) on FerretDB:`,
      `wall ${wallMs.toFixed(0)} ms, ${((220 / wallMs) * 1000).toFixed(0)} req/s, ${shed} shed and tried again`,
      `latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
    ].join('\n'),
  );
  // 220 submissions at once: about 40 s alone, over 120 s beside the browser suites on two cores
}, 300_000);
