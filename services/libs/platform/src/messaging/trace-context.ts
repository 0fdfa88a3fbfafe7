import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { DomainEvent } from '@furniture/contracts';

/*
 * How a trace crosses the broker (issue 18): an event remembers the trace it was created in
 * (`traceparent` in its envelope, so that the outbox keeps it until the relay publishes, and in
 * the AMQP headers); the consumer continues that trace with a span around its handler. Without a
 * tracer (tracing.ts not started) the API is a no-op and events carry nothing.
 */

const tracer = () => trace.getTracer('furniture.messaging');

/** The W3C traceparent of the active span, if any. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context that continues a remembered trace (the active one without). */
function contextOf(traceparent: string | null | undefined): Context {
  return traceparent ? propagation.extract(context.active(), { traceparent }) : context.active();
}

/** Runs `run` in the span: a failure is recorded on it, and the span ends either way. */
function ending<T>(run: () => Promise<T>): (span: Span) => Promise<T> {
  return async (span) => {
    try {
      return await run();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  };
}

/** Runs an event's handler in a consumer span that continues the event's trace. */
export function withConsumerSpan<T>(
  service: string,
  event: DomainEvent,
  run: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    `${event.name} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'rabbitmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': event.name,
        'messaging.message.id': event.eventId,
        'service.consumer': service,
      },
    },
    contextOf(event.traceparent),
    ending(run),
  );
}

/** Runs a piece of background work (a mail's delivery) in the trace that asked for it. */
export function inTraceOf<T>(
  traceparent: string | null | undefined,
  name: string,
  attributes: Record<string, string | number>,
  run: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    name,
    { kind: SpanKind.CLIENT, attributes },
    contextOf(traceparent),
    ending(run),
  );
}
