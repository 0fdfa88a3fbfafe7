import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Events, type DomainEvent } from '@furniture/contracts';
import { EventBus, createEvent, dropDeadLetters, listDeadLetters, topologyQueues } from '../src';
import {
  deleteBrokerObjects,
  eventually,
  silentLogger,
  testUrls,
  uniqueName,
} from '../src/testing';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../../..');

/** The command staff run: npm run dlq -- … (here through tsx directly, same file). */
async function dlq(exchange: string, ...args: string[]) {
  const { stdout } = await run(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'services/libs/platform/src/cli/dlq.ts'), ...args],
    { env: { ...process.env, AMQP_URL: testUrls().amqpUrl, AMQP_EXCHANGE: exchange } },
  );
  return stdout;
}

describe('dead-letter queues: npm run dlq', () => {
  const { amqpUrl } = testUrls();
  let exchange: string;
  const buses: EventBus[] = [];
  beforeEach(() => {
    exchange = uniqueName('dlq');
  });
  afterEach(async () => {
    for (const b of buses.splice(0)) await b.stop();
    await deleteBrokerObjects(amqpUrl, exchange, topologyQueues(exchange));
  });

  const requested = (applicationId: number) =>
    createEvent(Events.ApplicationApprovalRequested, {
      application_id: applicationId,
      lot_id: 7,
      note: null,
    });

  async function catalogThatFailsFirst() {
    const bus = new EventBus({
      url: amqpUrl,
      exchange,
      service: 'catalog',
      logger: silentLogger,
      maxAttempts: 1,
    });
    buses.push(bus);
    await bus.start();
    let broken = true;
    const handled: DomainEvent[] = [];
    await bus.subscribe({
      [Events.ApplicationApprovalRequested]: async (e) => {
        if (broken) throw new Error('lot 7 cannot be read: schema mismatch');
        handled.push(e);
      },
    });
    return { bus, handled, fix: () => (broken = false) };
  }

  test('when an event failed for good, then list shows it with its reason, replay puts it back and it is handled once', async () => {
    const catalog = await catalogThatFailsFirst();
    const events = [requested(1), requested(2)];
    for (const e of events) await catalog.bus.publish(e);
    await eventually(async () => (await catalog.bus.deadLetterDepth()) === 2, {
      what: 'two dead letters',
    });

    const listed = await dlq(exchange, 'list', 'catalog');
    expect(listed).toContain('catalog: 2 dead letter(s)');
    for (const e of events) expect(listed).toContain(e.eventId);
    expect(listed).toContain('handler after 1 attempt(s): lot 7 cannot be read: schema mismatch');
    expect(listed).not.toContain('"payload"'); // the events themselves only with --payload
    expect(await dlq(exchange, 'list', 'catalog', '--payload')).toContain('"application_id":1');
    // listing takes nothing out
    expect(await catalog.bus.deadLetterDepth()).toBe(2);

    catalog.fix();
    expect(await dlq(exchange, 'replay', 'catalog', events[0]!.eventId)).toContain(
      'catalog: 1 event(s) put back into the queue',
    );
    await eventually(() => catalog.handled.length === 1, { what: 'the replayed event handled' });
    expect(catalog.handled[0]!.eventId).toBe(events[0]!.eventId);
    const left = await listDeadLetters(amqpUrl, exchange, 'catalog');
    expect(left.map((l) => l.eventId)).toEqual([events[1]!.eventId]);

    expect(await dlq(exchange, 'replay', 'catalog', '--all')).toContain('1 event(s)');
    await eventually(() => catalog.handled.length === 2, { what: 'both handled' });
    expect(await catalog.bus.deadLetterDepth()).toBe(0);
  });

  test('when dead letters are dropped, then only the named ones leave and the others stay in order', async () => {
    const catalog = await catalogThatFailsFirst();
    const events = [requested(11), requested(12), requested(13)];
    for (const e of events) await catalog.bus.publish(e);
    await eventually(async () => (await catalog.bus.deadLetterDepth()) === 3, {
      what: 'three dead letters',
    });
    expect(await dropDeadLetters(amqpUrl, exchange, 'catalog', [events[1]!.eventId])).toBe(1);
    const left = await listDeadLetters(amqpUrl, exchange, 'catalog');
    expect(left.map((l) => l.eventId)).toEqual([events[0]!.eventId, events[2]!.eventId]);
    await expect(dlq(exchange, 'drop', 'catalog')).rejects.toThrow(/name the event ids, or --all/);
  });
});
