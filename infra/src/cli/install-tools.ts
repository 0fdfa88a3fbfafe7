// Builds the pinned tools into the per-user tool cache (scripts/go-tools.cjs) when missing, one
// after the other:
//   npx tsx infra/src/cli/install-tools.ts              FerretDB, MinIO and Mailpit (make run, make test)
//   npx tsx infra/src/cli/install-tools.ts kustomize cyclonus   also kustomize and cyclonus (the
//                                                         k8s manifest and network policy tests)
import { ensureTool, TOOLS, type ToolName } from '../tools';
import { errorMessage } from '../util';

const log = (line: string): void => console.log(`[tools] ${line}`);
const extra = process.argv.slice(2).filter((name): name is ToolName => name in TOOLS);
const wanted: ToolName[] = ['ferretdb', 'minio', 'mailpit', ...extra];

(async () => {
  for (const name of wanted) log(`${name.padEnd(10)}${await ensureTool(name, log)}`);
})().catch((err: unknown) => {
  console.error(`[tools] ${errorMessage(err)}`);
  process.exitCode = 1;
});
