// globalSetup of the infra package's own tests: build missing tools before any test starts,
// so a cold MinIO build (minutes) is visible and does not eat into a test's timeout.
import { ensureTools } from '../src/tools';

export default async function ensureToolsSetup(): Promise<void> {
  await ensureTools((line) => process.stderr.write(`[tools] ${line}\n`));
}
