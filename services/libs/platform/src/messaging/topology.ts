import type { Channel } from 'amqplib';
import { queueNames, Subscriptions, type EventName } from '@furniture/contracts';

/** Consumers and the events each one's queue is bound to (the contracts' `Subscriptions`). */
export type Topology = Readonly<Record<string, readonly EventName[]>>;

/**
 * Declares the whole topology on `exchange`: the durable topic exchange, and for every consumer
 * its queue (dead-lettering to `.dead`), its retry queue (per-message TTL, back to the queue) and
 * its dead-letter queue, with the queue bound to each event it consumes. Idempotent; every service
 * runs it before publishing anything and again after every reconnect.
 */
export async function declareTopology(
  ch: Channel,
  exchange: string,
  topology: Topology,
): Promise<void> {
  await ch.assertExchange(exchange, 'topic', { durable: true });
  for (const [service, events] of Object.entries(topology)) {
    const q = queueNames(exchange, service);
    await ch.assertQueue(q.dead, { durable: true });
    await ch.assertQueue(q.retry, {
      durable: true,
      arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': q.queue },
    });
    await ch.assertQueue(q.queue, {
      durable: true,
      arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': q.dead },
    });
    for (const name of events) await ch.bindQueue(q.queue, exchange, name);
  }
}

/** Every queue of the topology on `exchange` (tests delete them afterwards). */
export function topologyQueues(exchange: string, topology: Topology = Subscriptions): string[] {
  return Object.keys(topology).flatMap((service) => {
    const q = queueNames(exchange, service);
    return [q.queue, q.retry, q.dead];
  });
}
