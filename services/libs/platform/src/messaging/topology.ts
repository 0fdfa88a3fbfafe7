import type { Channel } from 'amqplib';
import { queueNames, Subscriptions, type EventName } from '@furniture/contracts';

/** Consumers and the events each one's queue is bound to (the contracts' `Subscriptions`). */
export type Topology = Readonly<Record<string, readonly EventName[]>>;

/**
 * `classic`: one node's queues (the single-machine run's one RabbitMQ); `quorum`: replicated over
 * a cluster's nodes (Kubernetes; RabbitMQ 4 has no mirrored classic queues). A queue keeps the
 * type it was declared with: see docs/operations.md "Moving the queues to quorum queues".
 */
export const QueueTypes = ['classic', 'quorum'] as const;
export type QueueType = (typeof QueueTypes)[number];

/**
 * The arguments of a queue of `type` that dead-letters to `to`. Quorum queues: dead-lettering at
 * least once (a message moved to the retry or dead-letter queue is never dropped on the way, which
 * needs reject-publish overflow), and a delivery limit high enough never to cut our own
 * requeues (the bus hands a message back once per outage) yet stated, as RabbitMQ 4 would
 * otherwise dead-letter after 20.
 */
function queueArguments(type: QueueType, to: string | null): Record<string, unknown> {
  const dlx = to === null ? {} : { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': to };
  if (type === 'classic') return dlx;
  return {
    'x-queue-type': 'quorum',
    ...dlx,
    ...(to === null
      ? {}
      : { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' }),
    'x-delivery-limit': 1000,
  };
}

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
  queueType: QueueType = 'classic',
): Promise<void> {
  await ch.assertExchange(exchange, 'topic', { durable: true });
  for (const [service, events] of Object.entries(topology)) {
    const q = queueNames(exchange, service);
    await ch.assertQueue(q.dead, { durable: true, arguments: queueArguments(queueType, null) });
    await ch.assertQueue(q.retry, { durable: true, arguments: queueArguments(queueType, q.queue) });
    await ch.assertQueue(q.queue, { durable: true, arguments: queueArguments(queueType, q.dead) });
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
