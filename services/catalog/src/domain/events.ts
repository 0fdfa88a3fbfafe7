import { createHash } from 'node:crypto';
import {
  type Actor,
  type DomainEvent,
  type EventName,
  type EventPayload,
  type LotSnapshot,
} from '@furniture/contracts';
import { createEvent } from '@furniture/platform/domain';
import type { CategoryData, LotData } from './records';

export function lotSnapshot(lot: LotData): LotSnapshot {
  return {
    id: lot.id,
    name: lot.name,
    status: lot.status,
    category_id: lot.category_id,
    photos: lot.photos,
    version: lot.version,
    created_at: lot.created_at.toISOString(),
    updated_at: lot.updated_at.toISOString(),
    label_code: lot.label_code,
  };
}

export function categorySnapshot(c: CategoryData) {
  return { id: c.id, name: c.name, description: c.description, icon: c.icon, version: c.version };
}

/** A name-based UUID (version 5 layout) of a text. */
function uuidOf(text: string): string {
  const b = createHash('sha1').update(text).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * An event caused by a consumed event gets an id derived from the cause's id: if the handler
 * runs twice (a crash after the write, before the cause was marked processed), the second run
 * emits the same id and consumers drop it as already processed.
 */
export function causedEvent<N extends EventName>(
  cause: DomainEvent,
  name: N,
  payload: EventPayload<N>,
  actor: Actor | null = cause.actor,
): DomainEvent<N> {
  return { ...createEvent(name, payload, actor), eventId: uuidOf(`${cause.eventId}/${name}`) };
}

export { changesOf } from '@furniture/platform/domain';
