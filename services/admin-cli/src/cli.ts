// npm run admin -- <command> [arguments]; in an image: node /app/start.js <command> …
// (docker compose run --rm admin <command> …). The commands are in commands.ts.
import { AppError } from '@furniture/platform';
import { main, usage, UsageError } from './commands';

main(process.argv.slice(2)).then(
  // the database connections are closed; nothing else may hold the process
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${usage}`);
      process.exit(2);
    }
    const text =
      err instanceof AppError
        ? `${err.code}: ${err.message}`
        : err instanceof Error
          ? err.message
          : String(err);
    console.error(`admin failed: ${text}`);
    process.exit(1);
  },
);
