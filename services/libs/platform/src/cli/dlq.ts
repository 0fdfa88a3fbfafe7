// npm run dlq -- list|replay|drop <service> [--all | <eventId> ...] [--payload]
// Shows and recovers the events a service could not handle (its dead-letter queue). Reads
// AMQP_URL and AMQP_EXCHANGE like the services (defaults: the `make run` broker). See README.
/* eslint-disable no-console -- a command-line tool prints */
import { ServiceNames } from '@furniture/contracts';
import { dropDeadLetters, listDeadLetters, replayDeadLetters } from '../messaging/dead-letters';

const usage = `usage: npm run dlq -- <command> <service> [options]

  list   <service> [--payload]       the events in the service's dead-letter queue
  replay <service> (--all | <eventId> ...)   put them back into the service's queue
  drop   <service> (--all | <eventId> ...)   remove them for good

  service: ${ServiceNames.join(', ')}
  env: AMQP_URL (amqp://guest:guest@127.0.0.1:5672), AMQP_EXCHANGE (furniture.events)`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const [command, service, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') fail('dead-letter queues');
  if (!service || !(ServiceNames as readonly string[]).includes(service))
    fail(`unknown service: ${service ?? '(none)'}`);
  const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const exchange = process.env.AMQP_EXCHANGE ?? 'furniture.events';
  const ids = rest.filter((a) => !a.startsWith('--'));
  const target: string[] | 'all' = rest.includes('--all') ? 'all' : ids;

  switch (command) {
    case 'list': {
      const letters = await listDeadLetters(url, exchange, service);
      if (letters.length === 0) {
        console.log(`${service}: the dead-letter queue is empty`);
        return;
      }
      console.log(`${service}: ${letters.length} dead letter(s)\n`);
      for (const l of letters) {
        console.log(
          `#${l.position}  ${l.eventId}  ${l.name}  occurred ${l.occurredAt}  dead since ${l.deadAt || '?'}`,
        );
        console.log(
          `    ${l.reason} after ${l.attempts} attempt(s): ${l.error || '(no error text)'}`,
        );
        if (rest.includes('--payload')) console.log(`    ${JSON.stringify(l.event)}`);
      }
      return;
    }
    case 'replay':
    case 'drop': {
      if (target !== 'all' && target.length === 0) fail(`${command}: name the event ids, or --all`);
      const n =
        command === 'replay'
          ? await replayDeadLetters(url, exchange, service, target)
          : await dropDeadLetters(url, exchange, service, target);
      console.log(
        `${service}: ${n} event(s) ${command === 'replay' ? 'put back into the queue' : 'dropped'}`,
      );
      if (target !== 'all' && n < target.length)
        console.log(`(${target.length - n} of the given ids were not in the dead-letter queue)`);
      return;
    }
    default:
      fail(`unknown command: ${command}`);
  }
}

main().catch((err: unknown) => {
  console.error(`dlq failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
