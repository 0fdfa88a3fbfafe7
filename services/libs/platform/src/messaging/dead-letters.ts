import amqplib, { type ConfirmChannel, type GetMessage } from 'amqplib';
import { queueNames } from '@furniture/contracts';
import { ATTEMPT_HEADER, DEAD_AT_HEADER, DEAD_ERROR_HEADER, DEAD_REASON_HEADER } from './bus';

/** One message of a service's dead-letter queue, as `npm run dlq -- list` shows it. */
export interface DeadLetter {
  /** 1-based place in the queue */
  position: number;
  eventId: string;
  name: string;
  occurredAt: string;
  /** contract: the message broke its contract; handler: the handler failed for good */
  reason: string;
  /** the last error (phone numbers and e-mail addresses masked) */
  error: string;
  deadAt: string;
  attempts: number;
  /** the whole event (holds personal data: shown only when asked for) */
  event: unknown;
}

const MAX_MESSAGES = 10_000;

function describe(msg: GetMessage, position: number): DeadLetter {
  const headers = msg.properties.headers ?? {};
  let event: { eventId?: string; name?: string; occurredAt?: string } | string;
  try {
    event = JSON.parse(msg.content.toString('utf8')) as typeof event;
  } catch {
    event = msg.content.toString('utf8').slice(0, 200);
  }
  const e = typeof event === 'object' && event !== null ? event : {};
  return {
    position,
    eventId: String(e.eventId ?? msg.properties.messageId ?? ''),
    name: String(e.name ?? msg.fields.routingKey ?? ''),
    occurredAt: String(e.occurredAt ?? ''),
    reason: String(headers[DEAD_REASON_HEADER] ?? headers['x-first-death-reason'] ?? 'unknown'),
    error: String(headers[DEAD_ERROR_HEADER] ?? ''),
    deadAt: String(headers[DEAD_AT_HEADER] ?? ''),
    attempts: Number(headers[ATTEMPT_HEADER] ?? 1),
    event,
  };
}

/**
 * Takes every message of the dead-letter queue onto one channel without acknowledging it, lets
 * `decide` act on them, and hands back what it did not settle: closing the channel returns those
 * to the queue in their old order.
 */
async function withDeadLetters<T>(
  url: string,
  exchange: string,
  service: string,
  decide: (ch: ConfirmChannel, messages: GetMessage[], queue: string) => Promise<T>,
): Promise<T> {
  const names = queueNames(exchange, service);
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createConfirmChannel();
    await ch.checkQueue(names.dead);
    const messages: GetMessage[] = [];
    for (let i = 0; i < MAX_MESSAGES; i++) {
      const msg = await ch.get(names.dead, { noAck: false });
      if (!msg) break;
      messages.push(msg);
    }
    const result = await decide(ch, messages, names.queue);
    await ch.close();
    return result;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** What is in a service's dead-letter queue (nothing is taken out). */
export function listDeadLetters(
  url: string,
  exchange: string,
  service: string,
): Promise<DeadLetter[]> {
  return withDeadLetters(url, exchange, service, async (_ch, messages) =>
    messages.map((m, i) => describe(m, i + 1)),
  );
}

const selected = (letter: DeadLetter, ids: string[] | 'all') =>
  ids === 'all' || ids.includes(letter.eventId);

/**
 * Puts dead letters back into the service's own queue (not the exchange: no other service sees
 * them twice), with a fresh attempt count; each is taken out of the dead-letter queue only once
 * the broker has confirmed its copy. Handlers are idempotent, so a replay is safe.
 */
export function replayDeadLetters(
  url: string,
  exchange: string,
  service: string,
  ids: string[] | 'all',
): Promise<number> {
  return withDeadLetters(url, exchange, service, async (ch, messages, queue) => {
    const chosen = messages.filter((m, i) => selected(describe(m, i + 1), ids));
    for (const msg of chosen) {
      const headers = { ...msg.properties.headers };
      for (const key of [ATTEMPT_HEADER, DEAD_REASON_HEADER, DEAD_ERROR_HEADER, DEAD_AT_HEADER])
        delete headers[key];
      headers['x-replayed-at'] = new Date().toISOString();
      ch.sendToQueue(queue, msg.content, {
        ...msg.properties,
        expiration: undefined,
        persistent: true,
        headers,
      });
    }
    await ch.waitForConfirms();
    for (const msg of chosen) ch.ack(msg);
    return chosen.length;
  });
}

/** Removes dead letters for good (by event id, or all of them). */
export function dropDeadLetters(
  url: string,
  exchange: string,
  service: string,
  ids: string[] | 'all',
): Promise<number> {
  return withDeadLetters(url, exchange, service, async (ch, messages) => {
    const chosen = messages.filter((m, i) => selected(describe(m, i + 1), ids));
    for (const msg of chosen) ch.ack(msg);
    return chosen.length;
  });
}
