import amqp, { type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { parseEvent, type DomainEvent, type EventName } from '@furniture/contracts';
import type { Logger } from '../logger';

export type EventHandler<N extends EventName = EventName> = (
  event: DomainEvent<N>,
) => Promise<void>;
export type EventHandlers = { [N in EventName]?: EventHandler<N> };

export interface EventBusOptions {
  url: string;
  /** durable topic exchange shared by all services */
  exchange: string;
  /** this service's name: its queue is `<exchange>.<service>` */
  service: string;
  logger: Logger;
  prefetch?: number;
  /** handler attempts before the message is dead-lettered */
  maxAttempts?: number;
  /** delay before the first retry; doubles per attempt */
  retryBaseMs?: number;
  /** upper bound of the reconnect backoff */
  maxReconnectSeconds?: number;
}

const ATTEMPT_HEADER = 'x-attempt';
const MAX_RETRY_DELAY_MS = 5 * 60 * 1000;

/**
 * Domain events over RabbitMQ: one durable topic exchange, persistent messages, publisher
 * confirms, and per service a durable queue with a retry queue and a dead-letter queue.
 *
 * Consuming: manual acks with bounded prefetch; a message that breaks its contract goes straight
 * to the dead-letter queue; a handler that throws is retried with exponential delay (through the
 * retry queue, whose expired messages flow back into the main queue) and dead-lettered after
 * `maxAttempts`. Nothing is ever acked silently after a failure.
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
  private inFlight = new Set<Promise<void>>();
  private consumerTag?: string;
  private consumerChannel?: ConfirmChannel;
  private stopping = false;

  constructor(opts: EventBusOptions) {
    this.opts = {
      prefetch: 20,
      maxAttempts: 5,
      retryBaseMs: 1000,
      maxReconnectSeconds: 30,
      ...opts,
    };
    this.queue = `${opts.exchange}.${opts.service}`;
    this.retryQueue = `${this.queue}.retry`;
    this.deadLetterQueue = `${this.queue}.dead`;
  }

  /**
   * Connects. Resolves once the broker answered or after `waitMs`: a service starts without the
   * broker (events wait in the outbox, consumers attach when it comes) and keeps retrying.
   */
  async start(waitMs = 15000): Promise<void> {
    const { logger, exchange } = this.opts;
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

    this.publisher = connection.createChannel({
      name: `${this.opts.service}-publisher`,
      confirm: true,
      setup: async (ch: ConfirmChannel) => {
        await ch.assertExchange(exchange, 'topic', { durable: true });
      },
    });
    this.publisher.on('error', (err) =>
      logger.warn({ err: err.message }, 'publisher channel error'),
    );
    const connected = await waitUntil(this.publisher.waitForConnect(), waitMs);
    if (!connected) logger.warn({ waitMs }, 'RabbitMQ not reachable yet; continuing and retrying');
  }

  /**
   * Publishes one event (validated against its contract first) and resolves once the broker has
   * confirmed it; while disconnected the message waits and is sent after reconnecting.
   */
  async publish(event: DomainEvent): Promise<void> {
    if (!this.publisher) throw new Error('EventBus.publish before start');
    const checked = parseEvent(event);
    await this.publisher.publish(
      this.opts.exchange,
      checked.name,
      Buffer.from(JSON.stringify(checked)),
      {
        persistent: true,
        contentType: 'application/json',
        messageId: checked.eventId,
        type: checked.name,
        timestamp: Math.floor(Date.parse(checked.occurredAt) / 1000),
        appId: this.opts.service,
      },
    );
  }

  /** Registers the handlers and starts consuming this service's queue. */
  async subscribe(handlers: EventHandlers): Promise<void> {
    if (!this.connection) throw new Error('EventBus.subscribe before start');
    this.handlers = { ...this.handlers, ...handlers };
    const names = Object.keys(this.handlers);
    const { exchange, prefetch } = this.opts;
    this.consumer = this.connection.createChannel({
      name: `${this.opts.service}-consumer`,
      confirm: true,
      setup: async (ch: ConfirmChannel) => {
        await ch.assertExchange(exchange, 'topic', { durable: true });
        await ch.assertQueue(this.deadLetterQueue, { durable: true });
        await ch.assertQueue(this.retryQueue, {
          durable: true,
          arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': this.queue },
        });
        await ch.assertQueue(this.queue, {
          durable: true,
          arguments: {
            'x-dead-letter-exchange': '',
            'x-dead-letter-routing-key': this.deadLetterQueue,
          },
        });
        for (const name of names) await ch.bindQueue(this.queue, exchange, name);
        await ch.prefetch(prefetch);
        const { consumerTag } = await ch.consume(this.queue, (msg) => {
          if (msg) this.track(this.handle(ch, msg));
        });
        this.consumerTag = consumerTag;
        this.consumerChannel = ch;
      },
    });
    this.consumer.on('error', (err) =>
      this.opts.logger.warn({ err: err.message }, 'consumer channel error'),
    );
    if (this.isConnected()) await this.consumer.waitForConnect();
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
          err: (err as Error).message,
          routingKey: msg.fields.routingKey,
          messageId: msg.properties.messageId,
        },
        'message breaks its contract; dead-lettering it',
      );
      settle(() => ch.nack(msg, false, false));
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
      await handler(event);
      settle(() => ch.ack(msg));
    } catch (err) {
      const log = { err, event: event.name, eventId: event.eventId, attempt };
      if (attempt >= this.opts.maxAttempts || this.stopping) {
        if (!this.stopping) logger.error(log, 'handler failed for the last time; dead-lettering');
        // while stopping, hand the message back instead of burning an attempt
        settle(() => ch.nack(msg, false, this.stopping));
        return;
      }
      const delay = Math.min(this.opts.retryBaseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
      logger.warn({ ...log, retryInMs: delay }, 'handler failed; will retry');
      try {
        await new Promise<void>((resolve, reject) =>
          ch.sendToQueue(
            this.retryQueue,
            msg.content,
            {
              ...msg.properties,
              persistent: true,
              expiration: String(delay),
              headers: { ...msg.properties.headers, [ATTEMPT_HEADER]: attempt + 1 },
            },
            (confirmErr) => (confirmErr ? reject(confirmErr) : resolve()),
          ),
        );
        settle(() => ch.ack(msg));
      } catch (retryErr) {
        logger.warn({ err: retryErr }, 'could not schedule retry; message returns to the queue');
        settle(() => ch.nack(msg, false, true));
      }
    }
  }

  isConnected(): boolean {
    return this.connection?.isConnected() ?? false;
  }

  /** Stops consuming, lets running handlers finish, then closes. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.consumerChannel && this.consumerTag) {
      await this.consumerChannel.cancel(this.consumerTag).catch(() => undefined);
    }
    await Promise.allSettled([...this.inFlight]);
    await this.consumer?.close().catch(() => undefined);
    await this.publisher?.close().catch(() => undefined);
    await this.connection?.close().catch(() => undefined);
  }
}

/** true when `p` settles within `ms` */
function waitUntil(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    p.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => resolve(false),
    );
  });
}

/** ack/nack on a channel that may have closed meanwhile: the broker redelivers then anyway. */
function settle(fn: () => void): void {
  try {
    fn();
  } catch {
    /* channel closed: the unacked message is redelivered after reconnecting */
  }
}
