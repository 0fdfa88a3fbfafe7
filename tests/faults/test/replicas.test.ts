/**
 * Two processes of every service (issue 42), on one database, broker and S3, behind the gateway
 * as pods behind a Kubernetes Service: a process killed with -9 costs only the requests that
 * were on their way to it, and a rolling restart of every process refuses nothing and loses
 * nothing. Figures are printed.
 */
import { FaultLab, SERVICE_NAMES, type ServiceName } from '../src/lab';
import {
  killOneOfTwo,
  refused,
  rollingRestart,
  type Call,
  type SteadyLoad,
} from '../src/replica-scenarios';

let lab: FaultLab;
const lines: string[] = [];

beforeAll(async () => {
  lab = await FaultLab.start((line) => process.stderr.write(`[replicas] ${line}\n`), {
    replicas: 2,
  });
}, 330_000);

afterAll(async () => {
  if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n\n`);
  await lab?.stop();
});

/** Every application answered 201 stored once; the lot's pending queue exactly 1..n. */
async function nothingLost(lotId: number, load: SteadyLoad, mayBeExtra: number): Promise<void> {
  const apps = await lab.applicationsOfLot(lotId);
  const stored = new Set(apps.map((a) => a.id));
  expect(load.accepted.filter((a) => !stored.has(a.id))).toEqual([]);
  // an application whose answer was lost with the killed process may be stored all the same
  expect(apps.length - load.accepted.length).toBeGreaterThanOrEqual(0);
  expect(apps.length - load.accepted.length).toBeLessThanOrEqual(mayBeExtra);
  const places = apps
    .filter((a) => a.status === 'pending')
    .map((a) => a.queue_position)
    .sort((a, b) => a! - b!);
  expect(places).toEqual(places.map((_, i) => i + 1));
}

const summary = (calls: Call[]) => `${calls.length} calls, ${calls.filter(refused).length} refused`;

test.each(SERVICE_NAMES)(
  'when one of two %s processes is killed with -9, then the other serves every request sent after the kill, and only requests on their way to the killed one may fail',
  async (service: ServiceName) => {
    await lab.login();
    const lotId = await lab.createLot(`Regal (kill -9, ${service} x2)`);
    const { load, killedAt, back } = await killOneOfTwo(lab, service, lotId);
    const after = load.calls.filter((c) => c.started > killedAt);
    const inFlight = load.calls.filter((c) => c.started <= killedAt && c.ended >= killedAt);
    lines.push(
      `kill -9 of ${service} (1 of 2): ${summary(load.calls)}; sent after the kill ${summary(after)}; ` +
        `on their way at the kill: ${inFlight.length}; the killed one ready again after ${back - killedAt} ms`,
    );
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter(refused)).toEqual([]);
    // before the kill everything was answered too
    expect(load.calls.filter((c) => c.ended < killedAt).filter(refused)).toEqual([]);
    const lostApplications = inFlight.filter((c) => c.what === 'application' && refused(c));
    await nothingLost(lotId, load, lostApplications.length);
  },
  180_000,
);

test('when every process of every service is restarted in turn (SIGTERM, start, ready) under a steady load, then no request is refused and nothing is lost', async () => {
  await lab.login();
  const lotId = await lab.createLot('Kommode (rolling restart)');
  const load = await rollingRestart(lab, lotId);
  lines.push(`rolling restart of 10 processes: ${summary(load.calls)}`);
  expect(load.calls.length).toBeGreaterThan(100);
  expect(load.calls.filter(refused)).toEqual([]);
  await nothingLost(lotId, load, 0);
}, 400_000);
