// One OS process of the cross-process race in partners.test.ts: spends the same invitations as
// the other process, on the shared auth database, through the auth service's own repository,
// and prints which ones it won as JSON.
import { raceProcess } from '@furniture/platform/testing';
import { PartnersRepository } from '../src/data-access/partners-repository';

raceProcess(async ({ store, args: [hashes], atStart }) => {
  const partners = new PartnersRepository(store);
  await atStart();
  const won: string[] = [];
  for (const hash of JSON.parse(hashes!) as string[])
    if (await partners.claim(hash, new Date())) won.push(hash);
  return won;
});
