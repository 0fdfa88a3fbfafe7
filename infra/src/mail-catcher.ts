// SMTP catcher for development and tests: accepts every message (any or no AUTH, no TLS), keeps
// it, and serves a Mailpit-compatible API subset plus a page to read captured mail.
// stopSmtp()/startSmtp() take only the SMTP listener down and up again (same port) so a test
// can simulate an SMTP outage while the API stays readable and stored mail survives.
import type net from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { createMailHttpServer } from './mail/http';
import { MailStore } from './mail/store';
import { type Log, noLog } from './util';

export type { MailAddress, MessageSummary, StoredMessage } from './mail/store';

export interface MailCatcherOptions {
  /** 0 or absent: a free port. */
  smtpPort?: number;
  /** 0 or absent: a free port. */
  httpPort?: number;
  /** Folder for captured mail (<ID>.json + <ID>.eml); without it mail lives in memory only. */
  dir?: string;
  host?: '127.0.0.1' | '0.0.0.0' | 'localhost' | (string & {});
  /** Largest accepted message in bytes (default 25 MiB). */
  maxMessageBytes?: number;
  log?: Log;
}

export interface MailCatcher {
  /** smtp://host:port */
  smtpUrl: string;
  /** http://host:port */
  apiUrl: string;
  smtpPort: number;
  httpPort: number;
  /** Stops both listeners. */
  stop(): Promise<void>;
  /** Stops only the SMTP listener (connections are dropped after 0.5 s). */
  stopSmtp(): Promise<void>;
  /** Starts the SMTP listener again on the same port. */
  startSmtp(): Promise<void>;
  /**
   * Makes the server answer every recipient with this SMTP reply (451: try again later, 550:
   * refused for good) until called with null: a server that is up but refuses, for tests.
   */
  refuseRecipients(reply: { code: number; message: string } | null): void;
}

/** What net.Server, http.Server and SMTPServer have in common for listening. */
interface Listenable {
  once(event: 'error', listener: (err: Error) => void): unknown;
  removeListener(event: 'error', listener: (err: Error) => void): unknown;
  listen(port: number, host: string, callback: () => void): unknown;
}

function listen(server: Listenable, port: number, host: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void =>
      reject(
        (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? new Error(`mail catcher ${what}: port ${host}:${port} is already in use`)
          : err,
      );
    server.once('error', onError);
    server.listen(port, host, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
}

function portOf(server: net.Server): number {
  const address = server.address();
  if (!address || typeof address === 'string')
    throw new Error('server is not listening on a TCP port');
  return address.port;
}

export async function startMailCatcher(opts: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? noLog;
  const store = new MailStore(opts.dir);
  const maxBytes = opts.maxMessageBytes ?? 25 * 1024 * 1024;
  let refusal: { code: number; message: string } | null = null;

  const smtpOptions: SMTPServerOptions = {
    banner: 'furniture mail catcher',
    authOptional: true,
    allowInsecureAuth: true, // AUTH without TLS: any credentials are accepted anyway
    disabledCommands: ['STARTTLS'], // clients must not try to upgrade to our self-signed cert
    size: maxBytes,
    closeTimeout: 500,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onRcptTo(_address, _session, callback) {
      if (!refusal) return callback();
      const err: Error & { responseCode?: number } = new Error(refusal.message);
      err.responseCode = refusal.code;
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('error', (err) => callback(err));
      stream.once('end', () => {
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded) {
          const err: Error & { responseCode?: number } = new Error(
            `message exceeds ${maxBytes} bytes`,
          );
          err.responseCode = 552;
          callback(err);
          return;
        }
        const mailFrom = session.envelope.mailFrom;
        const envelope = {
          From: mailFrom ? mailFrom.address : '',
          To: session.envelope.rcptTo.map((r) => r.address),
        };
        store.add(Buffer.concat(chunks), envelope).then(
          (m) => {
            log(`mail captured: "${m.Subject}" to ${envelope.To.join(', ')}`);
            callback();
          },
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
      });
    },
  };

  let smtp: SMTPServer | undefined;
  let smtpPort = opts.smtpPort ?? 0;

  async function startSmtp(): Promise<void> {
    if (smtp) return;
    const server = new SMTPServer(smtpOptions);
    server.on('error', (err) => log(`mail catcher SMTP error: ${err.message}`));
    await listen(server, smtpPort, host, 'SMTP');
    smtpPort = portOf(server.server);
    smtp = server;
  }

  async function stopSmtp(): Promise<void> {
    const server = smtp;
    if (!server) return;
    smtp = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  const httpServer = createMailHttpServer(store);
  await startSmtp();
  try {
    await listen(httpServer, opts.httpPort ?? 0, host, 'HTTP');
  } catch (err) {
    await stopSmtp();
    throw err;
  }
  const httpPort = portOf(httpServer);

  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    apiUrl: `http://${host}:${httpPort}`,
    smtpPort,
    httpPort,
    startSmtp,
    stopSmtp,
    refuseRecipients(reply) {
      refusal = reply;
    },
    async stop() {
      await stopSmtp();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
