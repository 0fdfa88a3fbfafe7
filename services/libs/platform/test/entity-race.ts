// One OS process of the cross-process race in entity.test.ts: declares the test's entity on the
// shared database, waits for the common start time, then tries to insert a record under each of
// the keys 1..n (the other process tries the same keys) and prints the keys it won, as JSON.
import { z } from 'zod';
import { raceProcess } from '../src/testing';

const Claim = z.object({ id: z.number(), key: z.number(), by: z.string() });

raceProcess(async ({ store, args: [name, n, by], atStart }) => {
  const claims = store.entity({ name: name!, record: Claim, key: 'id', unique: ['key'] });
  await atStart();
  const won: number[] = [];
  await Promise.all(
    Array.from({ length: Number(n) }, async (_, i) => {
      const key = i + 1;
      const id = await claims.nextId();
      if (await claims.insertUnlessTaken({ id, key, by: by! })) won.push(key);
    }),
  );
  return won;
});
