// One OS process of the cross-process race in entity.test.ts: declares the test's entity on the
// shared database, waits for the common start time, then tries to insert a record under each of
// the keys 1..n (the other process tries the same keys) and prints the keys it won, as JSON.
import { z } from 'zod';
import { connectMongo, Store } from '../src';
import { silentLogger } from '../src/testing';

const Claim = z.object({ id: z.number(), key: z.number(), by: z.string() });

async function main(): Promise<void> {
  const [mongoUrl, dbName, name, n, startAt, by] = process.argv.slice(2) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const conn = await connectMongo({
    url: mongoUrl,
    dbName,
    logger: silentLogger,
    timeoutMs: 20000,
  });
  const store = new Store(conn);
  const claims = store.entity({ name, record: Claim, key: 'id', unique: ['key'] });
  await store.open(silentLogger);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  const won: number[] = [];
  await Promise.all(
    Array.from({ length: Number(n) }, async (_, i) => {
      const key = i + 1;
      const id = await claims.nextId();
      if (await claims.insertUnlessTaken({ id, key, by })) won.push(key);
    }),
  );
  process.stdout.write(JSON.stringify(won));
  await conn.close();
}

main().catch((err: unknown) => {
  process.stderr.write(String((err as Error).stack ?? err));
  process.exit(1);
});
