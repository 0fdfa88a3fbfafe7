// `make run`'s infrastructure in the foreground: start with fixed ports, print the URLs, stop on
// SIGINT/SIGTERM.
import { RUN_DATA_DIR } from './paths';
import { startInfra, type Infra, type InfraPorts } from './start-infra';
import { errorMessage } from './util';

/** Fixed ports of `make run` (27017 is left to a real mongod the machine may have). */
export const DEFAULT_PORTS: InfraPorts = {
  mongo: 27018,
  s3: 9000,
  s3Console: 9001,
  smtp: 1025,
  mailHttp: 8025,
  messagesHttp: 8026,
};

const PORT_ENV: Record<keyof InfraPorts, string> = {
  mongo: 'MONGO_PORT',
  s3: 'S3_PORT',
  s3Console: 'S3_CONSOLE_PORT',
  smtp: 'SMTP_PORT',
  mailHttp: 'MAIL_HTTP_PORT',
  messagesHttp: 'MESSAGES_HTTP_PORT',
};

/** DEFAULT_PORTS with MONGO_PORT, S3_PORT, S3_CONSOLE_PORT, SMTP_PORT, MAIL_HTTP_PORT, MESSAGES_HTTP_PORT applied. */
export function portsFromEnv(env: NodeJS.ProcessEnv = process.env): InfraPorts {
  const ports = { ...DEFAULT_PORTS };
  for (const key of Object.keys(PORT_ENV) as Array<keyof InfraPorts>) {
    const raw = env[PORT_ENV[key]]?.trim();
    if (!raw) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 65_535)
      throw new Error(`${PORT_ENV[key]} must be a port number, got "${raw}"`);
    ports[key] = n;
  }
  return ports;
}

export interface ForegroundOptions {
  dataDir?: string;
  ports?: InfraPorts;
  /** Receives the KEY=value lines (default: stdout). */
  out?: (line: string) => void;
  /** Receives progress lines (default: stderr with an "[infra]" prefix). */
  log?: (line: string) => void;
}

/** Starts the infrastructure, prints KEY=value lines and resolves after SIGINT/SIGTERM stopped it. */
export async function runInfraForeground(opts: ForegroundOptions = {}): Promise<void> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const log = opts.log ?? ((line: string) => process.stderr.write(`[infra] ${line}\n`));
  let signalled: (sig: NodeJS.Signals) => void = () => undefined;
  const stopRequested = new Promise<NodeJS.Signals>((resolve) => (signalled = resolve));
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    signals++;
    if (signals > 1) {
      log(`second ${sig}: exiting without waiting (child processes get SIGTERM)`);
      process.exit(130);
    }
    signalled(sig);
  };
  // Registered before anything is spawned, so the launcher's own handlers leave shutdown to us.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let infra: Infra | undefined;
  try {
    infra = await startInfra({
      dataDir: opts.dataDir ?? RUN_DATA_DIR,
      ports: opts.ports ?? portsFromEnv(),
      log,
    });
    for (const [key, value] of Object.entries({ ...infra.env, ...infra.messagesEnv }))
      out(`${key}=${value}`);
    log('local infrastructure is running; press Ctrl-C to stop it');
    const sig = await stopRequested;
    log(`${sig}: stopping local infrastructure`);
  } catch (err) {
    log(errorMessage(err));
    process.exitCode = 1;
  } finally {
    await infra?.stop().catch((err: unknown) => {
      log(errorMessage(err));
      process.exitCode = 1;
    });
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
