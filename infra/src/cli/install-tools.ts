// Builds the pinned FerretDB and MinIO binaries into .tools/bin when missing or outdated:
//   npx tsx infra/src/cli/install-tools.ts
import { ensureTools } from '../tools';
import { errorMessage } from '../util';

const log = (line: string): void => console.log(`[tools] ${line}`);
ensureTools(log).then(
  (paths) => {
    log(`ferretdb: ${paths.ferretdb}`);
    log(`minio:    ${paths.minio}`);
  },
  (err: unknown) => {
    console.error(`[tools] ${errorMessage(err)}`);
    process.exitCode = 1;
  },
);
