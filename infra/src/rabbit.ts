// The machine's RabbitMQ: use it when it answers, otherwise start it as the system service would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import { waitUntil, errorMessage, type Log } from './util';

export const DEFAULT_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

const execFileAsync = promisify(execFile);

/** Opens and closes one AMQP connection (a real protocol handshake with login). */
export async function pingAmqp(url: string, timeoutMs = 2000): Promise<void> {
  const conn = await amqp.connect(url, { timeout: timeoutMs });
  await conn.close().catch(() => undefined);
}

/**
 * Makes sure a broker answers on DEFAULT_AMQP_URL. When none does, runs `rabbitmq-server -detached`
 * (on Debian, as root, that wrapper switches to the rabbitmq user and uses /etc/rabbitmq). Such a
 * broker is deliberately left running when we stop: it is the machine's service, shared by every
 * run and test process, and other processes may be connected to it.
 */
export async function ensureSharedRabbit(log: Log, timeoutMs = 60_000): Promise<string> {
  const url = DEFAULT_AMQP_URL;
  try {
    await pingAmqp(url);
    return url;
  } catch (err) {
    log(`no RabbitMQ on 127.0.0.1:5672 (${errorMessage(err)}); starting rabbitmq-server -detached`);
  }
  try {
    await execFileAsync('rabbitmq-server', ['-detached'], { timeout: 30_000 });
  } catch (err) {
    throw new Error(
      `could not start rabbitmq-server (${errorMessage(err)}); install RabbitMQ or set AMQP_URL to a running broker`,
    );
  }
  const started = Date.now();
  await waitUntil(() => pingAmqp(url), {
    what: 'RabbitMQ (rabbitmq-server -detached) on 127.0.0.1:5672',
    timeoutMs,
    intervalMs: 500,
    hint: () => 'see the RabbitMQ logs (Debian: /var/log/rabbitmq/)',
  });
  log(`RabbitMQ started (detached, left running on exit) after ${Date.now() - started} ms`);
  return url;
}
