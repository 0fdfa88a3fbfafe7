// One OS process of the cross-process lease race in store.test.ts: for `seconds`, takes the
// lease `name` whenever it can and, while holding it, writes numbered marks (each after asking
// `lease.held()`), now and then stalling its event loop longer than the lease (a long GC pause,
// a throttled container) so that the other process takes over. Prints how often it held the
// lease and how often a stall cost it the lease.
import { raceProcess } from '../src/testing';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

raceProcess(async ({ store, conn, args: [name, marks, by, seconds, leaseMs], atStart }) => {
  const leases = store.leases();
  const out = conn.collection(marks!);
  await atStart();
  const end = Date.now() + Number(seconds) * 1000;
  const ms = Number(leaseMs);
  let held = 0;
  let stalled = 0;
  let n = 0;
  while (Date.now() < end) {
    const ran = await leases.whileHeld(name!, ms, async (lease) => {
      held++;
      for (let i = 0; i < 12; i++) {
        if (i === 4 && (held + (by === 'a' ? 0 : 1)) % 3 === 0) {
          // the event loop stalls past the lease: no renewal runs meanwhile
          stalled++;
          const until = Date.now() + ms * 2;
          while (Date.now() < until);
        }
        const at = Date.now();
        if (!lease.held()) return;
        await out.insertOne({ by, term: lease.fence, at, n: n++ });
        await pause(ms / 8);
      }
    });
    if (!ran) await pause(ms / 10);
  }
  return { held, stalled };
});
