import { Events, type DomainEvent, type EventName } from '@furniture/contracts';
import { combineHandlers, type EventHandler } from '../src';

const event = (name: EventName) =>
  ({
    eventId: `e-${name}`,
    name,
    occurredAt: new Date(0).toISOString(),
    payload: {},
  }) as unknown as DomainEvent;

describe('combineHandlers', () => {
  test('when two modules handle one event, then both run, in the order the modules are given; other events keep their only handler', async () => {
    const calls: string[] = [];
    const record =
      (who: string): EventHandler =>
      async (e) => {
        await new Promise((r) => setTimeout(r, who === 'first' ? 20 : 0));
        calls.push(`${who}:${e.name}`);
      };
    const onlyLots = record('lots');
    const handlers = combineHandlers(
      { [Events.PersonalDataErased]: record('first'), [Events.LotCreated]: onlyLots },
      {},
      { [Events.PersonalDataErased]: record('second') },
    );
    expect(Object.keys(handlers).sort()).toEqual(
      [Events.LotCreated, Events.PersonalDataErased].sort(),
    );
    expect(handlers[Events.LotCreated]).toBe(onlyLots);
    await (handlers[Events.PersonalDataErased] as EventHandler)(event(Events.PersonalDataErased));
    expect(calls).toEqual([
      `first:${Events.PersonalDataErased}`,
      `second:${Events.PersonalDataErased}`,
    ]);
  });

  test('when a module fails, then the event fails and the modules after it do not run (a retry runs them all again)', async () => {
    const calls: string[] = [];
    const handlers = combineHandlers(
      {
        [Events.LotCreated]: async () => {
          throw new Error('store away');
        },
      },
      {
        [Events.LotCreated]: async () => {
          calls.push('second');
        },
      },
    );
    await expect(
      (handlers[Events.LotCreated] as EventHandler)(event(Events.LotCreated)),
    ).rejects.toThrow('store away');
    expect(calls).toEqual([]);
  });
});
