// startInfra: every component whose URL is set in the environment (MONGO_URL, AMQP_URL, S3_URL,
// SMTP_URL + MAIL_API_URL) is used as is; the others are started here and stopped by stop().
// The WhatsApp/SMS stand-in starts unless a real provider is configured (any WHATSAPP_* / SMS_*
// provider setting in the environment).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFerret } from './ferretdb';
import { chooseFerretBackend, dropFerretDatabase } from './postgres';
import { MAILPIT_PORT_HINT, startMailpit } from './mailpit';
import { startMessagesStandIn, type MessagesStandIn } from './messages-standin';
import {
  configuredProviderKeys,
  messagesProviderEnv,
  standInSettings,
  type MessagesProviderEnv,
} from './messages/local';
import { ensureMessagesCredentials, type MessagesCredentials } from './run/keys';
import { formatS3Url, parseS3Url, startMinio, type S3Settings } from './minio';
import { killStaleProcess } from './process';
import { REPO_ROOT } from './paths';
import { ensureSharedRabbit } from './rabbit';
import { ensureTool, isToolReady } from './tools';
import { choosePort, errorMessage, noLog, type Log } from './util';

export interface InfraPorts {
  mongo: number;
  s3: number;
  s3Console: number;
  smtp: number;
  mailHttp: number;
  /** the WhatsApp/SMS stand-in's HTTP port (MESSAGES_HTTP_PORT) */
  messagesHttp: number;
}

export interface InfraOptions {
  /** Absolute, e.g. <repo>/.data/run or <repo>/.data/test-infra. */
  dataDir: string;
  /** Wipe dataDir first (tests). */
  fresh?: boolean;
  /** 0 or absent = a free port (tests); `make run` passes fixed defaults. */
  ports?: Partial<InfraPorts>;
  log?: (line: string) => void;
  /** Drop FerretDB's PostgreSQL database at stop() (test runs; make run keeps its data). */
  dropDatabaseOnStop?: boolean;
  /**
   * When Mailpit is not built yet, start without waiting for its build (make run on a new
   * machine): its ports are chosen now, and it starts on them once built. Meanwhile the
   * notification service holds its mails as in any SMTP outage and sends them when it is up.
   */
  mailLater?: boolean;
}

export interface Infra {
  /** mongodb://127.0.0.1:PORT/ (no database name: every service picks its own). */
  mongoUrl: string;
  /** amqp://guest:guest@127.0.0.1:5672 */
  amqpUrl: string;
  s3: S3Settings;
  /** smtp://127.0.0.1:PORT */
  smtpUrl: string;
  /** http://127.0.0.1:PORT (Mailpit's web UI and API); '' when SMTP_URL is external and MAIL_API_URL unset. */
  mailApiUrl: string;
  /** The WhatsApp/SMS stand-in's http://127.0.0.1:PORT; '' when a real provider is configured. */
  messagesApiUrl: string;
  /** The stand-in and its credentials, when this call started it (not with a real provider). */
  messages?: { standIn: MessagesStandIn; credentials: MessagesCredentials };
  /** The notification service's provider settings pointing at the stand-in ({} with a real provider). */
  messagesEnv: Partial<MessagesProviderEnv>;
  /** The same URLs as environment variables (MONGO_URL, AMQP_URL, S3_URL, SMTP_URL, MAIL_API_URL, MESSAGES_API_URL). */
  env: Record<
    'MONGO_URL' | 'AMQP_URL' | 'S3_URL' | 'SMTP_URL' | 'MAIL_API_URL' | 'MESSAGES_API_URL',
    string
  >;
  /**
   * The PostgreSQL database FerretDB keeps its data in, when this call started FerretDB on
   * PostgreSQL (for ensureFerretIndexes); undefined on SQLite or an external MONGO_URL.
   */
  ferretPostgresUrl?: string;
  /** Stops what this call started (never external servers, never the machine's RabbitMQ). */
  stop(): Promise<void>;
}

/** The most mails `make run`'s Mailpit keeps in .data/run (the oldest go first). */
const RUN_MAX_MAILS = 2000;

function envUrl(name: string): string | undefined {
  const v = process.env[name]?.trim();
  return v ? v : undefined;
}

/** Refuses to wipe folders that are obviously not a data folder. */
export function wipe(dataDir: string, log: Log): void {
  const forbidden = new Set([path.parse(dataDir).root, REPO_ROOT, os.homedir(), os.tmpdir()]);
  if (forbidden.has(dataDir)) throw new Error(`refusing to wipe ${dataDir}: not a data folder`);
  if (fs.existsSync(dataDir)) log(`wiping ${dataDir}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

interface Part<T> {
  value: T;
  stop?: () => Promise<void>;
}

export async function startInfra(opts: InfraOptions): Promise<Infra> {
  const log = opts.log ?? noLog;
  if (!path.isAbsolute(opts.dataDir))
    throw new Error(`InfraOptions.dataDir must be absolute, got ${opts.dataDir}`);
  const dataDir = path.normalize(opts.dataDir);
  const ports = opts.ports ?? {};
  const external = {
    mongo: envUrl('MONGO_URL'),
    amqp: envUrl('AMQP_URL'),
    s3: envUrl('S3_URL'),
    smtp: envUrl('SMTP_URL'),
    mailApi: envUrl('MAIL_API_URL'),
    messagesApi: envUrl('MESSAGES_API_URL'),
  };
  const providerKeys = configuredProviderKeys();
  if (external.mailApi && !external.smtp) {
    log(
      'MAIL_API_URL is set but SMTP_URL is not: starting the local Mailpit and ignoring MAIL_API_URL',
    );
  }

  // Build missing tools first (one at a time: each build uses every CPU).
  const ferretBin = external.mongo ? undefined : await ensureTool('ferretdb', log);
  const minioBin = external.s3 ? undefined : await ensureTool('minio', log);
  const mailLater = !external.smtp && opts.mailLater === true && !isToolReady('mailpit');
  const mailpitBin = external.smtp || mailLater ? undefined : await ensureTool('mailpit', log);

  if (opts.fresh) {
    // A test run killed hard may have left its servers running on the folder we are about to wipe.
    if (ferretBin)
      await killStaleProcess(path.join(dataDir, 'pids', 'ferretdb.pid'), ferretBin, log);
    if (minioBin) await killStaleProcess(path.join(dataDir, 'pids', 'minio.pid'), minioBin, log);
    if (mailpitBin)
      await killStaleProcess(path.join(dataDir, 'pids', 'mailpit.pid'), mailpitBin, log);
    wipe(dataDir, log);
  }
  fs.mkdirSync(path.join(dataDir, 'logs'), { recursive: true });

  let ferretPostgresUrl: string | undefined;
  const mongo = async (): Promise<Part<string>> => {
    if (external.mongo) return { value: external.mongo };
    const backend = await chooseFerretBackend({ dataDir, fresh: opts.fresh ?? false, log });
    if (backend.kind === 'postgresql') ferretPostgresUrl = backend.url;
    const f = await startFerret({
      binary: ferretBin ?? '',
      dataDir,
      backend,
      port: ports.mongo,
      log,
    });
    return {
      value: f.url,
      stop: async () => {
        await f.stop();
        if (opts.dropDatabaseOnStop) await dropFerretDatabase(backend);
      },
    };
  };
  const amqp = async (): Promise<Part<string>> => ({
    value: external.amqp ?? (await ensureSharedRabbit(log)),
  });
  const s3 = async (): Promise<Part<S3Settings>> => {
    if (external.s3) return { value: parseS3Url(external.s3) };
    const m = await startMinio({
      binary: minioBin ?? '',
      dataDir,
      port: ports.s3,
      consolePort: ports.s3Console,
      log,
    });
    return { value: m.s3, stop: m.stop };
  };
  const mail = async (): Promise<Part<{ smtpUrl: string; apiUrl: string }>> => {
    if (external.smtp) return { value: { smtpUrl: external.smtp, apiUrl: external.mailApi ?? '' } };
    const settings = {
      dataDir,
      smtpPort: ports.smtp,
      httpPort: ports.mailHttp,
      // a test run keeps every mail (its tests read them); make run the newest RUN_MAX_MAILS
      maxMessages: opts.fresh ? 0 : RUN_MAX_MAILS,
      log,
    };
    if (mailLater) return mailpitOnceBuilt(ensureTool('mailpit', log), settings);
    const c = await startMailpit({ ...settings, binary: mailpitBin ?? '' });
    return { value: { smtpUrl: c.smtpUrl, apiUrl: c.apiUrl }, stop: c.stop };
  };

  const messages = async (): Promise<
    Part<{ apiUrl: string; started?: Infra['messages']; env: Partial<MessagesProviderEnv> }>
  > => {
    if (providerKeys.length > 0) {
      log(
        `messages: ${providerKeys.join(', ')} set: using the configured provider, not the local stand-in`,
      );
      return { value: { apiUrl: external.messagesApi ?? '', env: {} } };
    }
    const credentials = ensureMessagesCredentials(path.join(dataDir, 'keys'));
    const standIn = await startMessagesStandIn({
      ...standInSettings(credentials),
      httpPort: ports.messagesHttp,
      dir: path.join(dataDir, 'messages'),
      log,
    }).catch((err: unknown) => {
      const hint = 'set MESSAGES_HTTP_PORT, or configure a real provider (WHATSAPP_*, SMS_*)';
      throw new Error(`${errorMessage(err)} (${hint})`);
    });
    log(`messages stand-in ready: WhatsApp and SMS captured at ${standIn.apiUrl}`);
    return {
      value: {
        apiUrl: standIn.apiUrl,
        started: { standIn, credentials },
        env: messagesProviderEnv(standIn, credentials),
      },
      stop: standIn.stop,
    };
  };

  const results = await Promise.allSettled([mongo(), amqp(), s3(), mail(), messages()] as const);
  const stoppers = results.flatMap((r) =>
    r.status === 'fulfilled' && r.value.stop ? [r.value.stop] : [],
  );
  const stopAll = async (): Promise<void> => {
    const outcomes = await Promise.allSettled(stoppers.splice(0).map((stop) => stop()));
    const failed = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [errorMessage(o.reason)] : [],
    );
    if (failed.length)
      throw new Error(`stopping local infrastructure failed: ${failed.join('; ')}`);
  };
  const [m, a, s, e, w] = results;
  if (
    m.status === 'rejected' ||
    a.status === 'rejected' ||
    s.status === 'rejected' ||
    e.status === 'rejected' ||
    w.status === 'rejected'
  ) {
    await stopAll().catch((err: unknown) => log(errorMessage(err)));
    const reasons = results.flatMap((r) =>
      r.status === 'rejected' ? [errorMessage(r.reason)] : [],
    );
    throw new Error(`local infrastructure did not start:\n- ${reasons.join('\n- ')}`);
  }

  const infra: Infra = {
    mongoUrl: m.value.value,
    amqpUrl: a.value.value,
    s3: s.value.value,
    smtpUrl: e.value.value.smtpUrl,
    mailApiUrl: e.value.value.apiUrl,
    messagesApiUrl: w.value.value.apiUrl,
    messages: w.value.value.started,
    messagesEnv: w.value.value.env,
    env: {
      MONGO_URL: m.value.value,
      AMQP_URL: a.value.value,
      S3_URL: external.s3 ?? formatS3Url(s.value.value),
      SMTP_URL: e.value.value.smtpUrl,
      MAIL_API_URL: e.value.value.apiUrl,
      MESSAGES_API_URL: w.value.value.apiUrl,
    },
    ferretPostgresUrl,
    stop: stopAll,
  };
  return infra;
}

/**
 * Mailpit on ports chosen now, started once its build is done (mailLater): the platform starts
 * meanwhile, and the notification service sends the mails it held once Mailpit answers.
 */
export async function mailpitOnceBuilt(
  built: Promise<string>,
  settings: Omit<Parameters<typeof startMailpit>[0] & object, 'binary'>,
): Promise<Part<{ smtpUrl: string; apiUrl: string }>> {
  const log = settings.log ?? noLog;
  const hint = MAILPIT_PORT_HINT;
  const smtpPort = await choosePort(settings.smtpPort, 'Mailpit SMTP', hint);
  const httpPort = await choosePort(settings.httpPort, 'Mailpit web UI and API', hint);
  log(
    `Mailpit is still to be built: the platform starts without it (mails wait until it is up, on smtp://127.0.0.1:${smtpPort})`,
  );
  let stopped = false;
  const started = built
    .then((binary) =>
      stopped ? undefined : startMailpit({ ...settings, binary, smtpPort, httpPort }),
    )
    .then(
      async (c) => {
        if (c && stopped) {
          // stopped while it was starting
          await c.stop();
          return undefined;
        }
        if (c) log(`Mailpit built and started: the mails held meanwhile go out now (${c.apiUrl})`);
        return c;
      },
      (err: unknown) => {
        log(`Mailpit did not start: ${errorMessage(err)}; mails wait until SMTP answers`);
        return undefined;
      },
    );
  return {
    value: { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, apiUrl: `http://127.0.0.1:${httpPort}` },
    stop: async () => {
      stopped = true;
      // a build under way is left to finish in its own process; a started Mailpit stops
      const c = await Promise.race([
        started,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000)),
      ]);
      await c?.stop();
    },
  };
}
