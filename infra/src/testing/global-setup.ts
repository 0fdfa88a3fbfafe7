// jest globalSetup: starts the local infrastructure once per test run (fresh data under
// .data/test-infra, free ports) and exports its URLs as environment variables, which the jest
// workers (forked afterwards) inherit. URLs already set in the environment are used as they are.
// USE_TESTCONTAINERS=1 uses Docker containers instead (see containers.ts).
import fs from 'node:fs';
import path from 'node:path';
import { TEST_DATA_DIR } from '../paths';
import { startInfra, type Infra } from '../start-infra';
import { ensureTool } from '../tools';
import { startContainers } from './containers';
import { INFRA_ENV_KEYS, MESSAGES_ENV_KEYS, hasTestInfra, setTestInfra } from './state';

const log = (line: string): void => {
  process.stderr.write(`[infra] ${line}\n`);
};

export default async function globalSetup(): Promise<void> {
  // every project that needs the servers names this setup; the first one starts them
  if (hasTestInfra()) return;
  const started = Date.now();
  let infra: Infra;
  if (process.env.USE_TESTCONTAINERS === '1') {
    infra = await startContainers(log);
  } else {
    // Build missing tools first, with progress on stderr (a cold MinIO build takes minutes).
    if (!process.env.MONGO_URL) await ensureTool('ferretdb', log);
    if (!process.env.S3_URL) await ensureTool('minio', log);
    if (!process.env.SMTP_URL) await ensureTool('mailpit', log);
    infra = await startInfra({
      dataDir: TEST_DATA_DIR,
      fresh: true,
      dropDatabaseOnStop: true,
      log,
    });
  }
  setTestInfra(infra);
  for (const key of INFRA_ENV_KEYS) {
    if (!process.env[key]) process.env[key] = infra.env[key];
  }
  // the stand-in's provider settings (none when a real provider is configured: startInfra then
  // started no stand-in and the configured settings stay as they are)
  for (const key of MESSAGES_ENV_KEYS) {
    const value = infra.messagesEnv[key];
    if (!process.env[key] && value) process.env[key] = value;
  }
  const env = Object.fromEntries(
    [...INFRA_ENV_KEYS, ...MESSAGES_ENV_KEYS].map((key) => [key, process.env[key] ?? '']),
  );
  fs.mkdirSync(TEST_DATA_DIR, { recursive: true });
  fs.writeFileSync(path.join(TEST_DATA_DIR, 'env.json'), `${JSON.stringify(env, null, 2)}\n`);
  log(`test infrastructure ready in ${Date.now() - started} ms`);
}
