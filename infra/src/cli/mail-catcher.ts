// The SMTP catcher on its own:  npx tsx infra/src/cli/mail-catcher.ts
// SMTP_PORT (default 1025), MAIL_HTTP_PORT (default 8025), MAIL_DIR (optional folder to keep mail).
import { startMailCatcher } from '../mail-catcher';
import { errorMessage } from '../util';

function port(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new Error(`${name} must be a port number, got "${raw ?? ''}"`);
  return n;
}

async function main(): Promise<void> {
  const log = (line: string): void => console.log(`[mail] ${line}`);
  const catcher = await startMailCatcher({
    smtpPort: port('SMTP_PORT', 1025),
    httpPort: port('MAIL_HTTP_PORT', 8025),
    dir: process.env.MAIL_DIR || undefined,
    log,
  });
  log(
    `SMTP ${catcher.smtpUrl}; read mail at ${catcher.apiUrl}/ (API ${catcher.apiUrl}/api/v1/messages)`,
  );
  const stop = (): void => {
    catcher.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`[mail] ${errorMessage(err)}`);
  process.exit(1);
});
