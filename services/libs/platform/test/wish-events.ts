// Numbered wish.created events for the broker tests: what they publish and what they count.
import { Events, type DomainEvent } from '@furniture/contracts';
import { createEvent, type EventBus } from '../src';

export const wishPayload = (id: number) => ({
  wish_id: id,
  applicant_name: 'X',
  furniture_category: null,
  status: 'active' as const,
});

export const wishEvent = (id: number) => createEvent(Events.WishCreated, wishPayload(id));

/** Subscribes the consumer and answers the set of wish ids it receives from then on. */
export async function receivedWishIds(consumer: EventBus): Promise<Set<number>> {
  const received = new Set<number>();
  await consumer.subscribe({
    [Events.WishCreated]: async (e: DomainEvent<typeof Events.WishCreated>) =>
      void received.add(e.payload.wish_id),
  });
  return received;
}
