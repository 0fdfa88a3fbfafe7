// One OS process of the cross-process race in warehouse.test.ts: claims label codes on the
// shared catalog database through the catalog's own LabelCodes, drawing from a tiny set of codes
// so that the two processes collide, and prints what it got per target as JSON.
import { connectMongo, Store } from '@furniture/platform';
import { silentLogger } from '@furniture/platform/testing';
import { LabelCodesRepository } from '../src/data-access/label-codes-repository';
import { LabelCodes } from '../src/domain/label-codes';

async function main(): Promise<void> {
  const [mongoUrl, dbName, targets, pool, startAt] = process.argv.slice(2) as [
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
  const codes = JSON.parse(pool) as string[];
  let next = 0;
  // every process draws the same codes in the same order: each draw is a collision to decide
  const labelCodes = new LabelCodes({
    codes: new LabelCodesRepository(store),
    draw: () => codes[next++ % codes.length]!,
  });
  await store.open(silentLogger);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  const got: Record<number, string> = {};
  for (const target of JSON.parse(targets) as number[])
    got[target] = await labelCodes.claim('lot', target);
  process.stdout.write(JSON.stringify(got));
  await conn.close();
}

main().catch((err: unknown) => {
  process.stderr.write(String((err as Error).stack ?? err));
  process.exit(1);
});
