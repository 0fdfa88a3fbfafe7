// Builds every server package (project references, incremental): the libraries, each service
// that exists under services/, the gateway and infra. New services are picked up by themselves.
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dirs = [
  'services/libs/contracts',
  'services/libs/platform',
  ...readdirSync(path.join(root, 'services'))
    .filter((d) => d !== 'libs')
    .map((d) => `services/${d}`),
  'gateway',
  'infra',
].filter((d) => existsSync(path.join(root, d, 'tsconfig.json')));

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-b', ...dirs, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
