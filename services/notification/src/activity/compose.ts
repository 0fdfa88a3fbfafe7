import type { ServiceKit } from '@furniture/platform';
import type { NotificationConfig } from '../config';
import { ModulePrivacy, type ErasedFamilies } from '../privacy/domain/privacy-service';
import { ActivityRepository } from './data-access/activity-repository';
import { ImpactRepository } from './data-access/impact-repository';
import type { Models } from './data-access/models';
import { ActivityPrivacyRepository } from './data-access/privacy-repository';
import { ActivityService } from './domain/activity-service';
import { ImpactService } from './domain/impact-service';
import { activityHandlers } from './entry-points/messaging/handlers';

/**
 * The activity module: the staff's activity log (one entry per event and per POST, lists, stats,
 * the CSV export with its stored months) and the impact counters.
 */
export async function composeActivity(
  kit: ServiceKit<NotificationConfig>,
  deps: { models: Models; erased: ErasedFamilies },
) {
  const { config, logger } = kit;
  const activityRepo = new ActivityRepository(kit.store, deps.models, config.TIMEZONE);
  const activity = new ActivityService({
    activity: activityRepo,
    timeZone: config.TIMEZONE,
    csvDelimiter: config.CSV_DELIMITER,
    postLimit: (() => {
      const limiter = kit.store.limiter({
        table: 'activity_post_limits',
        points: config.ACTIVITY_POSTS_PER_USER,
        windowSeconds: config.ACTIVITY_POSTS_WINDOW_SECONDS,
      });
      return (userId: number) => limiter.take(String(userId));
    })(),
  });
  /** the CSV export's rows of closed months, stored ahead of the next export */
  const storeExportMonths = async () => {
    const months = await activity.storeClosedMonths();
    if (months > 0) logger.info({ months }, 'activity export: closed months stored');
  };
  const storeFailed = (err: unknown) =>
    logger.error({ err }, 'storing the activity export months failed');
  // a minute (EXPORT_MONTHS_DELAY_SECONDS) after the start or the counts rebuild: the first
  // requests, and an export asked for at once, do not share the machine with it (an export
  // stores what it renders itself)
  let storeTimer: NodeJS.Timeout | undefined;
  const storeSoon = () => {
    storeTimer = setTimeout(
      () => void storeExportMonths().catch(storeFailed),
      config.EXPORT_MONTHS_DELAY_SECONDS * 1000,
    );
    storeTimer.unref();
  };
  kit.onStop(() => clearTimeout(storeTimer));
  // after the counts the store rebuilds at start, if any (the lists answer meanwhile)
  kit.onStart(() => void kit.storeRebuilt.then(storeSoon));
  // a month that ended, or whose stored rows went stale (a late entry, an erasure)
  kit.every('activity export months', 6 * 3600 * 1000, storeExportMonths);

  const impactRepo = new ImpactRepository(kit.store);
  const impact = new ImpactService({ store: impactRepo, timeZone: config.TIMEZONE });

  const privacy = new ModulePrivacy({
    repo: new ActivityPrivacyRepository(activityRepo.entries, activityRepo.stored),
    logger,
    counted: 'entries',
    what: 'activity entries',
  });

  return {
    handlers: activityHandlers({ activity, impact, privacy, erased: deps.erased }),
    activity,
    impact,
    privacy,
  };
}
