// One OS process of the cross-process race in warehouse.test.ts: claims label codes on the
// shared catalog database through the catalog's own LabelCodes, drawing from a tiny set of codes
// so that the two processes collide, and prints what it got per target as JSON.
import { raceProcess } from '@furniture/platform/testing';
import { LabelCodesRepository } from '../src/data-access/label-codes-repository';
import { LabelCodes } from '../src/domain/label-codes';

raceProcess(async ({ store, args: [targets, pool], atStart }) => {
  const codes = JSON.parse(pool!) as string[];
  let next = 0;
  // every process draws the same codes in the same order: each draw is a collision to decide
  const labelCodes = new LabelCodes({
    codes: new LabelCodesRepository(store),
    draw: () => codes[next++ % codes.length]!,
  });
  await atStart();
  const got: Record<number, string> = {};
  for (const target of JSON.parse(targets!) as number[])
    got[target] = await labelCodes.claim('lot', target);
  return got;
});
