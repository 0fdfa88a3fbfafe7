// One OS process of the cross-process race in partners.test.ts: spends the same invitations as
// the other process, on the shared auth database, through the auth service's own repository,
// and prints which ones it won as JSON.
import { connectMongo, Store } from '@furniture/platform';
import { silentLogger } from '@furniture/platform/testing';
import { PartnersRepository } from '../src/data-access/partners-repository';

async function main(): Promise<void> {
  const [mongoUrl, dbName, hashes, startAt] = process.argv.slice(2) as [
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
  const partners = new PartnersRepository(store);
  await store.open(silentLogger);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  const won: string[] = [];
  for (const hash of JSON.parse(hashes) as string[])
    if (await partners.claim(hash, new Date())) won.push(hash);
  process.stdout.write(JSON.stringify(won));
  await conn.close();
}

main().catch((err: unknown) => {
  process.stderr.write(String(err));
  process.exit(1);
});
