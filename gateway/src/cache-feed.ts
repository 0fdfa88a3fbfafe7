import { Events, type EventName } from '@furniture/contracts';
import type { EventBus, Logger } from '@furniture/platform';
import type { CacheFeed } from './middleware/public-cache';

/** Events after which a public answer the gateway keeps may show something else. */
const CHANGES_PUBLIC_ANSWERS = (Object.values(Events) as EventName[]).filter((name) =>
  /^(lot|category|application|photo|donation)\./.test(name),
);

/**
 * The platform's events, to this gateway process alone (an exclusive queue, EventBus.broadcast):
 * each one that may change a public answer drops what the gateway keeps. Live only while the
 * queue is bound; losing it drops everything too, and so does binding it again (events may have
 * been missed meanwhile).
 */
export function cacheFeedOf(bus: EventBus, logger: Logger, checkEveryMs = 500): CacheFeed {
  const droppers: (() => void)[] = [];
  const dropAll = (): void => droppers.forEach((drop) => drop());
  let bound = false;
  return {
    live: () => bound && bus.isConnected(),
    subscribe(drop) {
      droppers.push(drop);
      if (droppers.length > 1) return;
      void bus
        .broadcast(CHANGES_PUBLIC_ANSWERS, dropAll, () => {
          bound = true;
          dropAll();
        })
        .catch((err: unknown) => logger.warn({ err }, 'the cache feed could not subscribe'));
      const watch = setInterval(() => {
        if (!bound || bus.isConnected()) return;
        bound = false;
        logger.warn('the cache feed lost the broker: public answers kept for a second at most');
        dropAll();
      }, checkEveryMs);
      watch.unref();
    },
  };
}
