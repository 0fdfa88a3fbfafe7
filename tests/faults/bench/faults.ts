// npm run bench:faults: every fault of issue 13 against the built platform (build first: make
// build), with figures per fault: applications accepted and stored, mails expected and
// delivered, lost, duplicated, time from the dependency's return to a consistent state, dead
// letters. Starts its own FerretDB, RabbitMQ node, Mailpit and (without S3_URL) MinIO.
// DB_OUTAGE_SECONDS (40) and SMTP_OUTAGE_SECONDS (120) shorten or lengthen the outages.
import path from 'node:path';
import { ensureTool, startMinio, formatS3Url, TEST_DATA_DIR } from '@furniture/infra';
import { FaultLab, SERVICE_NAMES } from '../src/lab';
import {
  brokerRestartDuringBurst,
  databaseOutage,
  killDuringBurst,
  shutdownWithoutBroker,
  smtpOutage,
  table,
  type FaultReport,
} from '../src/scenarios';

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`[bench:faults] ${line}\n`);
  let stopMinio: (() => Promise<void>) | undefined;
  if (!process.env.S3_URL) {
    const minio = await startMinio({
      binary: await ensureTool('minio', log),
      dataDir: path.join(TEST_DATA_DIR, 'bench-faults-minio'),
      log,
    });
    process.env.S3_URL = formatS3Url(minio.s3);
    stopMinio = minio.stop;
  }
  const lab = await FaultLab.start(log);
  const reports: FaultReport[] = [];
  const run = async (what: string, scenario: () => Promise<FaultReport>) => {
    log(`${what} …`);
    const report = await scenario();
    reports.push(report);
    log(
      `${what}: lost ${report.lost}, duplicated ${report.duplicated}, resent after a cut ` +
        `attempt ${report.resentAfterCut}, recovery ${report.recoveryMs} ms`,
    );
  };
  try {
    await run('database outage', () =>
      databaseOutage(lab, Number(process.env.DB_OUTAGE_SECONDS ?? 40) * 1000),
    );
    await run('broker restart', () => brokerRestartDuringBurst(lab));
    for (const s of SERVICE_NAMES) await run(`kill -9 ${s}`, () => killDuringBurst(lab, s));
    await run('SMTP outage', () =>
      smtpOutage(lab, Number(process.env.SMTP_OUTAGE_SECONDS ?? 120) * 1000),
    );
    await run('shutdown without broker', () => shutdownWithoutBroker(lab));
  } finally {
    await lab.stop();
    await stopMinio?.();
  }
  console.log(`\n${table(reports)}\n`);
  const bad = reports.filter((r) => r.lost > 0 || r.duplicated > 0 || r.recoveryMs < 0);
  console.log(
    bad.length === 0
      ? 'every fault: 0 lost, 0 duplicated'
      : `${bad.length} fault(s) lost or duplicated something: ${bad.map((r) => r.fault).join('; ')}`,
  );
}

main().catch((err: unknown) => {
  console.error(`bench:faults failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
