/**
 * Faults with two processes of every service (issue 42), as the pods of a Kubernetes
 * deployment: one of them killed with -9 while the other keeps serving, and the rolling restart
 * an operator does every release. The traffic is steady and every answer is kept with when its
 * request started and ended, so that a refusal can be told apart: only a request that was on
 * its way to the killed process may fail.
 */
import { family, sleep, type Answer, type FaultLab, type ServiceName } from './lab';

export interface Call {
  what: string;
  service: ServiceName | 'gateway';
  started: number;
  ended: number;
  status: number;
}

/** A refusal: no answer, or the gateway's or a service's 5xx. */
export const refused = (c: Call): boolean => c.status === 0 || c.status >= 500;

/**
 * A call that reaches each service past the gateway's kept answers: staff reads (never kept)
 * and public writes.
 */
function callsOf(lab: FaultLab, lotId: number): Record<ServiceName, () => Promise<Answer>> {
  return {
    auth: () => lab.call('GET', '/auth/me'),
    catalog: () => lab.call('GET', `/lots/${lotId}`),
    applications: () => lab.call('GET', `/applications/?lot_id=${lotId}&limit=5`),
    media: () => lab.call('GET', `/lots/${lotId}/photos`),
    notification: () => lab.call('GET', '/activity-logs/?limit=5'),
  };
}

export interface SteadyLoad {
  calls: Call[];
  /** applications answered 201: each must be stored exactly once */
  accepted: { id: number; lotId: number; email: string }[];
  stop(): Promise<void>;
}

/**
 * Every `everyMs`, one staff read per service, a public read of the lot page (kept by the
 * gateway) and, every third round, a family's application for `lotId` — each sent once, its
 * answer recorded as it came (nothing is sent again here), none while the last of its kind is
 * still on its way.
 */
export function steadyLoad(lab: FaultLab, lotId: number, everyMs = 250): SteadyLoad {
  const calls: Call[] = [];
  const accepted: SteadyLoad['accepted'] = [];
  const reads = callsOf(lab, lotId);
  const pending = new Set<Promise<void>>();
  let stopped = false;
  // a kind of call still on its way is not sent again (a closed loop per kind): the load stays
  // steady on a busy machine instead of piling up more than the services can answer in the
  // gateway's 30 s (each of those would count as refused, though nothing was killed)
  const inFlight = new Set<string>();
  const record = (
    what: string,
    service: Call['service'],
    send: () => Promise<Answer>,
  ): Promise<Answer> | undefined => {
    if (inFlight.has(what)) return undefined;
    inFlight.add(what);
    const started = Date.now();
    const done = send()
      .then((res) => {
        calls.push({ what, service, started, ended: Date.now(), status: res.status });
        return res;
      })
      .finally(() => inFlight.delete(what));
    const settled = done.then(() => undefined);
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
    return done;
  };
  const loop = (async () => {
    for (let round = 0; !stopped; round++) {
      for (const service of Object.keys(reads) as ServiceName[])
        void record(`staff read (${service})`, service, reads[service]);
      void record('lot page', 'gateway', () => lab.call('GET', `/lots/${lotId}`, { token: null }));
      if (round % 3 === 0) {
        const f = family();
        void record('application', 'applications', () =>
          lab.call<{ id: number }>('POST', '/applications/', {
            token: null,
            headers: { 'accept-language': f.language },
            body: {
              applicant_name: f.name,
              applicant_phone: f.phone,
              applicant_whatsapp: f.phone,
              applicant_email: f.email,
              applicant_city: 'Berlin',
              applicant_address: 'Teststraße 1',
              needs_delivery_help: false,
              lot_id: lotId,
            },
          }),
        )?.then((res) => {
          const id = (res.body as { id?: number } | null)?.id;
          if (res.status === 201 && typeof id === 'number')
            accepted.push({ id, lotId, email: f.email });
        });
      }
      await sleep(everyMs);
    }
  })();
  return {
    calls,
    accepted,
    async stop() {
      stopped = true;
      await loop;
      await Promise.all([...pending]);
    },
  };
}

/** Waits until the process `name` of the platform answers /ready. */
export async function readyAgain(lab: FaultLab, service: ServiceName, url: string): Promise<void> {
  await lab.until(`${service} at ${url} ready`, async () => {
    const res = await fetch(`${url}/ready`).catch(() => null);
    return res?.ok === true;
  });
}

/**
 * kill -9 of the first process of `service` while the second serves: every request that
 * started after the kill is answered, and only requests on their way at the moment of the kill
 * may have failed. Answers the calls and the moment of the kill.
 */
export async function killOneOfTwo(
  lab: FaultLab,
  service: ServiceName,
  lotId: number,
): Promise<{ load: SteadyLoad; killedAt: number; back: number }> {
  const [first] = lab.platform.instances[service];
  const load = steadyLoad(lab, lotId);
  await sleep(2000);
  lab.platform.supervisor.signal(first!.name, 'SIGKILL');
  const killedAt = Date.now();
  await sleep(4000);
  // the supervisor starts it again; traffic goes on until it is back and a little longer
  await readyAgain(lab, service, first!.url);
  const back = Date.now();
  await sleep(1500);
  await load.stop();
  return { load, killedAt, back };
}

/**
 * The upgrade of every release: each process of each service in turn gets SIGTERM (it drains and
 * stops), is started again by the supervisor and is ready before the next one goes, under a
 * steady load. Answers the calls.
 */
export async function rollingRestart(lab: FaultLab, lotId: number): Promise<SteadyLoad> {
  const load = steadyLoad(lab, lotId);
  await sleep(1500);
  for (const service of Object.keys(lab.platform.instances) as ServiceName[]) {
    for (const instance of lab.platform.instances[service]) {
      const exited = lab.platform.supervisor.exited(instance.name);
      lab.platform.supervisor.signal(instance.name, 'SIGTERM');
      await exited;
      await readyAgain(lab, service, instance.url);
      lab.log(`rolling restart: ${instance.name} back`);
    }
  }
  await sleep(1500);
  await load.stop();
  return load;
}
