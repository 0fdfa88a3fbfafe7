// `counts rebuild` (src/commands.ts) composes the services whose repositories keep counts (store lists): a service
// that starts keeping some must be named there too, or its counts could not be rebuilt.
import fs from 'node:fs';
import path from 'node:path';
import { COUNTED_SERVICES } from '../src/commands';

const services = path.resolve(__dirname, '../..');

function declaresList(dir: string): boolean {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (
      entry.isDirectory() ? declaresList(full) : /store\.list</.test(fs.readFileSync(full, 'utf8'))
    )
      return true;
  }
  return false;
}

test('when a service declares a kept list, then counts rebuild knows the service', () => {
  const counted = Object.keys(COUNTED_SERVICES).sort();
  const withLists = fs
    .readdirSync(services)
    .filter((s) => !['libs', 'admin-cli'].includes(s))
    .filter((s) => fs.existsSync(path.join(services, s, 'src')))
    .filter((s) => declaresList(path.join(services, s, 'src')))
    .sort();
  expect(withLists).toEqual(['applications', 'catalog', 'notification']);
  expect(counted).toEqual(withLists);
});
