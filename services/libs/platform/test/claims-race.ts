// One OS process of the cross-process claims race in store.test.ts: claims the keys the other
// process claims too, at once, and prints the ones it won as JSON.
import { raceProcess } from '../src/testing';

raceProcess(async ({ store, args: [prefix, n], atStart }) => {
  const claims = store.claims();
  await atStart();
  const won: number[] = [];
  await Promise.all(
    Array.from({ length: Number(n) }, async (_, i) => {
      if (await claims.claim(`${prefix}#${i}`, 60_000)) won.push(i);
    }),
  );
  return won;
});
