// Local infrastructure for `make run`:  npx tsx infra/src/cli/infra.ts start
// Prints MONGO_URL=… AMQP_URL=… S3_URL=… SMTP_URL=… MAIL_API_URL=… and runs until Ctrl-C.
import { runInfraForeground } from '../foreground';

const command = process.argv[2] ?? 'start';
if (command !== 'start') {
  console.error(
    'usage: infra start   (ports: MONGO_PORT, S3_PORT, S3_CONSOLE_PORT, SMTP_PORT, MAIL_HTTP_PORT)',
  );
  process.exit(2);
}
void runInfraForeground();
