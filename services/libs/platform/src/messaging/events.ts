import { randomUUID } from 'node:crypto';
import {
  EventPayloads,
  EventVersions,
  type Actor,
  type DomainEvent,
  type EventName,
  type EventPayload,
} from '@furniture/contracts';
import { currentTraceparent } from './trace-context';

/** Builds a validated event envelope (throws if the payload breaks its contract). */
export function createEvent<N extends EventName>(
  name: N,
  payload: EventPayload<N>,
  actor: Actor | null = null,
): DomainEvent<N> {
  const parsed = EventPayloads[name].parse(payload) as EventPayload<N>;
  const traceparent = currentTraceparent();
  return {
    ...(traceparent ? { traceparent } : {}),
    eventId: randomUUID(),
    name,
    version: EventVersions[name],
    occurredAt: new Date().toISOString(),
    actor: actor ? { id: actor.id, name: actor.name, email: actor.email, role: actor.role } : null,
    payload: parsed,
  };
}
