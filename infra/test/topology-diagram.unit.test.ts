// docs/architecture.md's diagram is generated from the contracts (scripts/topology-diagram.ts):
// the committed document must be what the generator writes, and the declaration it reads must
// hold for the code.
import fs from 'node:fs';
import path from 'node:path';
import { Events, Publishers, ServiceNames, Subscriptions } from '@furniture/contracts';
import { ARCHITECTURE_FILE, withTopology } from '../../scripts/topology-diagram';
import { REPO_ROOT } from '../src/paths';

test('when the contracts change, then docs/architecture.md is generated anew (npm run docs:topology)', () => {
  const committed = fs.readFileSync(ARCHITECTURE_FILE, 'utf8');
  expect(committed).toBe(withTopology(committed));
});

test('every event has a publisher, and each publisher names it in its own code', () => {
  const keyOf = new Map(Object.entries(Events).map(([key, name]) => [name as string, key]));
  const published = new Set(ServiceNames.flatMap((s) => Publishers[s]));
  expect(Object.values(Events).filter((e) => !published.has(e))).toEqual([]);
  // a weak check (the code could name an event without publishing it), but it catches an event
  // declared for the wrong service
  const sourceOf = (service: string): string => {
    const dir = path.join(REPO_ROOT, 'services', service, 'src');
    return (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
  };
  for (const service of ServiceNames) {
    const source = sourceOf(service);
    const missing = Publishers[service].filter((e) => !source.includes(`Events.${keyOf.get(e)}`));
    expect([service, missing]).toEqual([service, []]);
  }
  // and no one consumes what it publishes itself (its own changes need no event)
  for (const service of ServiceNames) {
    const own = Subscriptions[service].filter((e) => Publishers[service].includes(e));
    expect([service, own]).toEqual([service, []]);
  }
});
