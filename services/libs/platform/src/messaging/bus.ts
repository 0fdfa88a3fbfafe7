import amqp, { type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import {
  parseEvent,
  queueNames,
  Subscriptions,
  type DomainEvent,
  type EventName,
} from '@furniture/contracts';
import { isTransientError } from '../failures';
import { settlesWithin, sleep } from '../time';
import type { HealthCheck } from '../http';
import type { Logger } from '../logger';
import { maskPersonalData } from '../privacy';
import { declareTopology, type QueueType, type Topology } from './topology';
import { withConsumerSpan } from './trace-context';

export type EventHandler<N extends EventName = EventName> = (
  event: DomainEvent<N>,
) => Promise<void>;
export type EventHandlers = { [N in EventName]?: EventHandler<N> };

export interface EventBusOptions {
  url: string;
  /** durable topic exchange shared by all services */
  exchange: string;
  /** this service's name in the topology: its queue is `<exchange>.<service>` */
  service: string;
  logger: Logger;
  prefetch?: number;
  /** attempts of a handler that fails for good reasons before the message is dead-lettered */
  maxAttempts?: number;
  /** delay before the first retry; doubles per attempt */
  retryBaseMs?: number;
  /** upper bound of the reconnect backoff */
  maxReconnectSeconds?: number;
  /** which queues exist and what they are bound to (the contracts' Subscriptions) */
  topology?: Topology;
  /** classic (one node) or quorum (replicated over a cluster) queues: topology.ts */
  queueType?: QueueType;
  /** how often a paused consumer looks whether its dependencies are back */
  probeIntervalMs?: number;
  /** called after each successfully handled event with its age (metrics) */
  onHandled?: (event: DomainEvent, ageSeconds: number) => void;
}

export interface SubscribeOptions {
  /**
   * What the handlers need (the database, S3, …). When a handler fails while one of these does
   * not answer, the message is not counted as a failed attempt: consuming pauses until all of
   * them answer again.
   */
  dependencies?: Record<string, HealthCheck>;
}

/** What /ready and the metrics tell about consuming. */
export interface ConsumerState {
  state: 'idle' | 'consuming' | 'paused' | 'disconnected';
  /** dependencies that did not answer at the last look (while paused) */
  waiting_for: string[];
}

/** An event no queue is bound to: the broker returned it (it stays in the outbox). */
export class UnroutableEventError extends Error {
  constructor(readonly eventName: string) {
    super(`no queue is bound to ${eventName}: the broker returned it`);
    this.name = 'UnroutableEventError';
  }
}

/**
 * Another consumer (another pod) holds the claim on this event and may still be handling it
 * (processed.ts): the copy is retried after `retryInMs` without using an attempt.
 */
export class EventInFlightError extends Error {
  constructor(
    readonly eventId: string,
    readonly retryInMs: number,
  ) {
    super(`event ${eventId} is being handled by another consumer`);
    this.name = 'EventInFlightError';
  }
}

export const ATTEMPT_HEADER = 'x-attempt';
export const DEAD_REASON_HEADER = 'x-dead-reason';
export const DEAD_ERROR_HEADER = 'x-dead-error';
export const DEAD_AT_HEADER = 'x-dead-at';
const MAX_RETRY_DELAY_MS = 5 * 60 * 1000;
/** longest wait after a transient failure whose dependency looks fine (another service) */
const TRANSIENT_BACKOFF_MAX_MS = 30_000;

/**
 * Domain events over RabbitMQ: one durable topic exchange, persistent messages published with
 * `mandatory` and publisher confirms, and per service a durable queue with a retry queue and a
 * dead-letter queue. The whole topology is declared before the first publish (see topology.ts).
 *
 * Consuming: manual acks with bounded prefetch. What happens to a message whose handler throws
 * depends on why it failed:
 * - a dependency is unreachable (the error says so, or one of the subscription's dependency
 *   checks fails right after): the message goes back to the queue without using an attempt and
 *   consuming pauses until every dependency answers again, however long that takes;
 * - any other error: retried after retryBase·2^(n-1) through the retry queue, and after
 *   `maxAttempts` moved to the dead-letter queue with the reason (npm run dlq lists and replays);
 * - a message that breaks its contract goes straight to the dead-letter queue.
 * Nothing is ever acked after a failure without being kept somewhere.
 *
 * Connection loss: amqp-connection-manager reconnects (with our exponential backoff), re-declares
 * the topology, re-subscribes and re-sends publishes the broker had not confirmed.
 */
export class EventBus {
  readonly queue: string;
  readonly retryQueue: string;
  readonly deadLetterQueue: string;
  private readonly opts: Required<EventBusOptions>;
  private connection?: AmqpConnectionManager;
  private publisher?: ChannelWrapper;
  private consumer?: ChannelWrapper;
  private handlers: EventHandlers = {};
  private dependencies: Record<string, HealthCheck> = {};
  private inFlight = new Set<Promise<void>>();
  private consumerChannel?: ConfirmChannel;
  private consumerTag?: string;
  private stopping = false;
  private paused?: Promise<void>;
  private waitingFor: string[] = [];
  /** transient failures in a row whose dependencies all answered (another service is down) */
  private transientStreak = 0;
  private readonly returned = new Set<string>();
  /** aborted by stop: ends the paused consumer's wait */
  private readonly stopped = new AbortController();
  private readonly broadcasts: ChannelWrapper[] = [];

  constructor(opts: EventBusOptions) {
    this.opts = {
      prefetch: 20,
      maxAttempts: 5,
      retryBaseMs: 1000,
      maxReconnectSeconds: 30,
      topology: Subscriptions,
      queueType: 'classic',
      probeIntervalMs: 1000,
      ...opts,
      onHandled: opts.onHandled ?? (() => undefined),
    };
    const names = queueNames(opts.exchange, opts.service);
    this.queue = names.queue;
    this.retryQueue = names.retry;
    this.deadLetterQueue = names.dead;
  }

  /**
   * Connects. Resolves once the broker answered or after `waitMs`: a service starts without the
   * broker (events wait in the outbox, consumers attach when it comes) and keeps retrying.
   */
  async start(waitMs = 15000): Promise<void> {
    const { logger } = this.opts;
    const connection = amqp.connect([this.opts.url], {
      heartbeatIntervalInSeconds: 10,
      reconnectTimeInSeconds: 1,
      connectionOptions: { clientProperties: { connection_name: this.opts.service } },
    });
    this.connection = connection;
    connection.on('connect', () => {
      connection.reconnectTimeInSeconds = 1;
      logger.info('connected to RabbitMQ');
    });
    const backoff = (err: Error | undefined, what: string) => {
      logger.warn({ err: err?.message, retryInSeconds: connection.reconnectTimeInSeconds }, what);
      connection.reconnectTimeInSeconds = Math.min(
        connection.reconnectTimeInSeconds * 2,
        this.opts.maxReconnectSeconds,
      );
    };
    connection.on('disconnect', ({ err }) => backoff(err, 'RabbitMQ connection lost'));
    connection.on('connectFailed', ({ err }) => backoff(err, 'RabbitMQ not reachable'));

    this.publisher = await this.openChannel('publisher', async (ch) => {
      // the broker sends basic.return before the confirm of an unroutable mandatory message
      ch.on('return', (msg: ConsumeMessage) => {
        if (msg.properties.messageId) this.returned.add(String(msg.properties.messageId));
      });
    });
    const connected = await settlesWithin(this.publisher.waitForConnect(), waitMs);
    if (!connected) logger.warn({ waitMs }, 'RabbitMQ not reachable yet; continuing and retrying');
  }

  /**
   * Publishes one event (validated against its contract first) and resolves once the broker has
   * confirmed it; while disconnected the message waits and is sent after reconnecting. Rejects
   * when no queue is bound to the event (the outbox keeps it and tries again).
   */
  async publish(event: DomainEvent): Promise<void> {
    if (!this.publisher) throw new Error('EventBus.publish before start');
    const checked = parseEvent(event);
    this.returned.delete(checked.eventId);
    const content = Buffer.from(JSON.stringify(checked));
    const options = {
      persistent: true,
      mandatory: true,
      contentType: 'application/json',
      messageId: checked.eventId,
      type: checked.name,
      timestamp: Math.floor(Date.parse(checked.occurredAt) / 1000),
      appId: this.opts.service,
      ...(checked.traceparent ? { headers: { traceparent: checked.traceparent } } : {}),
    };
    for (;;) {
      try {
        await this.publisher.publish(this.opts.exchange, checked.name, content, options);
        break;
      } catch (err) {
        // amqplib fails the unconfirmed publishes of a channel the broker closed before the
        // connection manager learns of the disconnect, so they are not queued for the reconnect
        // as later ones are. Such a message may or may not have arrived: send it again (consumers
        // drop the duplicate by its event id). Anything else, and anything while stopping, fails.
        if (this.stopping || !isLostConfirm(err)) throw err;
        this.opts.logger.warn(
          { event: checked.name, eventId: checked.eventId },
          'channel closed before the broker confirmed an event; sending it again',
        );
      }
    }
    if (this.returned.delete(checked.eventId)) {
      this.opts.logger.error(
        { event: checked.name, eventId: checked.eventId },
        'event is unroutable (no queue bound); kept for a later attempt',
      );
      throw new UnroutableEventError(checked.name);
    }
  }

  /**
   * A channel whose `setup` runs, after the topology is declared, now and after every reconnect;
   * resolves once it is set up if the broker is there.
   */
  private async openChannel(
    role: string,
    setup: (ch: ConfirmChannel) => Promise<unknown>,
  ): Promise<ChannelWrapper> {
    if (!this.connection) throw new Error(`EventBus: ${role} channel before start`);
    const { exchange, logger, topology } = this.opts;
    const channel = this.connection.createChannel({
      name: `${this.opts.service}-${role}`,
      confirm: true,
      setup: async (ch: ConfirmChannel) => {
        await declareTopology(ch, exchange, topology, this.opts.queueType);
        await setup(ch);
      },
    });
    channel.on('error', (err) => logger.warn({ err: err.message }, `${role} channel error`));
    if (this.isConnected()) await channel.waitForConnect();
    return channel;
  }

  /** Registers the handlers and starts consuming this service's queue. */
  async subscribe(handlers: EventHandlers, opts: SubscribeOptions = {}): Promise<void> {
    const bound = this.opts.topology[this.opts.service] ?? [];
    const unbound = Object.keys(handlers).filter((n) => !bound.includes(n as EventName));
    if (unbound.length > 0) {
      throw new Error(
        `${this.opts.service} handles ${unbound.join(', ')} but its queue is not bound to them (contracts: Subscriptions)`,
      );
    }
    this.handlers = { ...this.handlers, ...handlers };
    this.dependencies = { ...this.dependencies, ...opts.dependencies };
    this.consumer = await this.openChannel('consumer', async (ch) => {
      await ch.prefetch(this.opts.prefetch);
      this.consumerChannel = ch;
      this.consumerTag = undefined;
      if (!this.paused && !this.stopping) await this.consume(ch);
    });
  }

  /**
   * Every event of these names to this very process (not shared with the service's other
   * replicas as its queue is): a server-named, exclusive queue that goes away with the
   * connection, declared anew after each reconnect. For state each process keeps for itself
   * (the revoked tokens); `onEvent` must not throw.
   */
  async broadcast(
    names: readonly EventName[],
    onEvent: (event: DomainEvent) => void,
    /** called each time the queue is bound anew (at start and after every reconnect) */
    onBound?: () => void,
  ): Promise<void> {
    const { exchange, logger } = this.opts;
    const channel = await this.openChannel('broadcast', async (ch) => {
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
      for (const name of names) await ch.bindQueue(queue, exchange, name);
      const onMessage = (msg: ConsumeMessage | null) => {
        if (!msg) return;
        try {
          onEvent(parseEvent(JSON.parse(msg.content.toString('utf8'))));
        } catch (err) {
          logger.warn({ err: errorText(err) }, 'broadcast event not understood; ignored');
        }
      };
      await ch.consume(queue, onMessage, { noAck: true });
      onBound?.();
    });
    this.broadcasts.push(channel);
  }

  private async consume(ch: ConfirmChannel): Promise<void> {
    const { consumerTag } = await ch.consume(this.queue, (msg) => {
      if (msg) this.track(this.handle(ch, msg));
    });
    this.consumerTag = consumerTag;
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async handle(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const { logger } = this.opts;
    let event: DomainEvent;
    try {
      event = parseEvent(JSON.parse(msg.content.toString('utf8')));
    } catch (err) {
      logger.error(
        {
          err: maskPersonalData((err as Error).message),
          routingKey: msg.fields.routingKey,
          messageId: msg.properties.messageId,
        },
        'message breaks its contract; dead-lettering it',
      );
      await this.deadLetter(ch, msg, 'contract', err);
      return;
    }
    const handler = this.handlers[event.name] as EventHandler | undefined;
    if (!handler) {
      // bound earlier by another version of this service; nothing to do with it here
      settle(() => ch.ack(msg));
      return;
    }
    const attempt = Number(msg.properties.headers?.[ATTEMPT_HEADER] ?? 1);
    try {
      await withConsumerSpan(this.opts.service, event, () => handler(event));
      this.transientStreak = 0;
      settle(() => ch.ack(msg));
      this.opts.onHandled(event, Math.max(0, (Date.now() - Date.parse(event.occurredAt)) / 1000));
    } catch (err) {
      const log = { err: errorText(err), event: event.name, eventId: event.eventId, attempt };
      if (this.stopping) {
        // hand the message back instead of burning an attempt
        settle(() => ch.nack(msg, false, true));
        return;
      }
      if (err instanceof EventInFlightError) {
        // not a failure: look again once the other consumer's claim has run out
        const delay = Math.min(Math.max(err.retryInMs, 500), MAX_RETRY_DELAY_MS);
        logger.info({ ...log, retryInMs: delay }, 'event in hand elsewhere; looking again later');
        const headers = { [ATTEMPT_HEADER]: attempt };
        const failed = await moveTo(ch, this.retryQueue, msg, String(delay), headers);
        if (failed)
          logger.warn({ err: errorText(failed) }, 'could not schedule retry; message returns');
        return;
      }
      const missing = await this.missingDependencies();
      if (missing.length > 0 || isTransientError(err)) {
        if (missing.length === 0) this.transientStreak++;
        logger.warn(
          { ...log, waitingFor: missing },
          'handler failed: a dependency is unreachable; the event waits',
        );
        await this.pause(ch, missing);
        settle(() => ch.nack(msg, false, true));
        return;
      }
      if (attempt >= this.opts.maxAttempts) {
        logger.error(log, 'handler failed for the last time; dead-lettering');
        await this.deadLetter(ch, msg, 'handler', err);
        return;
      }
      const delay = Math.min(this.opts.retryBaseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
      logger.warn({ ...log, retryInMs: delay }, 'handler failed; will retry');
      const headers = { [ATTEMPT_HEADER]: attempt + 1 };
      const failed = await moveTo(ch, this.retryQueue, msg, String(delay), headers);
      if (failed)
        logger.warn({ err: errorText(failed) }, 'could not schedule retry; message returns');
    }
  }

  /** Moves a message to the dead-letter queue with why it is there. */
  private async deadLetter(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    reason: 'contract' | 'handler',
    err: unknown,
  ): Promise<void> {
    await moveTo(ch, this.deadLetterQueue, msg, undefined, {
      [DEAD_REASON_HEADER]: reason,
      [DEAD_ERROR_HEADER]: errorText(err).slice(0, 500),
      [DEAD_AT_HEADER]: new Date().toISOString(),
    });
  }

  private async missingDependencies(): Promise<string[]> {
    const missing: string[] = [];
    await Promise.all(
      Object.entries(this.dependencies).map(async ([name, check]) => {
        const answer = Promise.resolve().then(check);
        const ok = await Promise.race([answer.catch(() => false), sleep(3000).then(() => false)]);
        if (!ok) missing.push(name);
      }),
    );
    return missing.sort();
  }

  /**
   * Stops taking messages until the dependencies answer again (and, after failures whose
   * dependencies all answered, a backoff has passed). One pause at a time.
   */
  private pause(ch: ConfirmChannel, missing: string[]): Promise<void> {
    this.waitingFor = missing;
    if (this.paused) return this.paused;
    const tag = this.consumerTag;
    this.consumerTag = undefined;
    this.paused = (tag ? ch.cancel(tag).then(() => undefined) : Promise.resolve()).catch(
      () => undefined, // the channel is gone: nothing is delivered on it any more
    );
    this.opts.logger.warn({ waitingFor: missing }, 'consuming paused');
    void this.resumeWhenReady();
    return this.paused;
  }

  private async resumeWhenReady(): Promise<void> {
    const { probeIntervalMs, logger } = this.opts;
    const backoff =
      this.transientStreak > 0
        ? Math.min(500 * 2 ** (this.transientStreak - 1), TRANSIENT_BACKOFF_MAX_MS)
        : 0;
    const since = Date.now();
    await this.paused;
    for (;;) {
      await sleep(probeIntervalMs, this.stopped.signal);
      if (this.stopping) return;
      const missing = await this.missingDependencies();
      this.waitingFor = missing;
      if (missing.length === 0 && Date.now() - since >= backoff) break;
    }
    this.paused = undefined;
    this.waitingFor = [];
    logger.info({ pausedMs: Date.now() - since }, 'dependencies answer again; consuming resumes');
    const ch = this.consumerChannel;
    if (ch && !this.stopping) {
      await this.consume(ch).catch((err: Error) =>
        // the channel closed meanwhile: its setup consumes again after reconnecting
        logger.warn({ err: err.message }, 'could not resume consuming yet'),
      );
    }
  }

  isConnected(): boolean {
    return this.connection?.isConnected() ?? false;
  }

  consumerState(): ConsumerState {
    if (!this.consumer) return { state: 'idle', waiting_for: [] };
    if (this.paused) return { state: 'paused', waiting_for: this.waitingFor };
    if (!this.isConnected()) return { state: 'disconnected', waiting_for: [] };
    return { state: 'consuming', waiting_for: [] };
  }

  /** Messages in this service's dead-letter queue (null while the broker is unreachable). */
  async deadLetterDepth(): Promise<number | null> {
    if (!this.publisher || !this.isConnected()) return null;
    try {
      const { messageCount } = await this.publisher.checkQueue(this.deadLetterQueue);
      return messageCount;
    } catch {
      return null;
    }
  }

  /**
   * Stops consuming, lets running handlers finish, then closes; never waits longer than
   * `graceMs` (with the broker gone, unconfirmed publishes are abandoned: the outbox keeps them).
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    const steps = async () => {
      if (this.consumerChannel && this.consumerTag) {
        await this.consumerChannel.cancel(this.consumerTag).catch(() => undefined);
      }
      await Promise.allSettled([...this.inFlight]);
    };
    await settlesWithin(steps(), graceMs);
    await settlesWithin(
      Promise.allSettled([
        this.consumer?.close(),
        ...this.broadcasts.map((c) => c.close()),
        this.publisher?.close(),
        this.connection?.close(),
      ]),
      2000,
    );
  }
}

function errorText(err: unknown): string {
  return maskPersonalData(err instanceof Error ? err.message : String(err));
}

/**
 * Sends a copy of a message to a queue (with this `expiration` and these headers added) and acks
 * the original once the broker confirmed the copy; else hands the original back to the queue (it
 * is not kept anywhere yet) and answers why.
 */
async function moveTo(
  ch: ConfirmChannel,
  queue: string,
  msg: ConsumeMessage,
  expiration: string | undefined,
  headers: Record<string, unknown>,
): Promise<unknown> {
  const properties = {
    ...msg.properties,
    persistent: true,
    expiration,
    headers: { ...msg.properties.headers, ...headers },
  };
  try {
    await new Promise<void>((resolve, reject) =>
      ch.sendToQueue(queue, msg.content, properties, (err) => (err ? reject(err) : resolve())),
    );
    settle(() => ch.ack(msg));
    return undefined;
  } catch (err) {
    settle(() => ch.nack(msg, false, true));
    return err;
  }
}

/** ack/nack on a channel that may have closed meanwhile: the broker redelivers then anyway. */
function settle(fn: () => void): void {
  try {
    fn();
  } catch {
    /* channel closed: the unacked message is redelivered after reconnecting */
  }
}

/** amqplib's error for a publish whose channel closed before the broker confirmed it. */
function isLostConfirm(err: unknown): boolean {
  return err instanceof Error && err.message === 'channel closed';
}
