import { ProcessedEvents, runService } from '@furniture/platform';
import { composeNotification } from './compose';
import { loadNotificationConfig } from './config';

runService({
  name: 'notification',
  loadConfig: loadNotificationConfig,
  compose: async (deps) => {
    const { config, logger, conn } = deps;
    if (
      config.NODE_ENV === 'production' &&
      (!config.OFFICE_PHONE || config.OFFICE_EMAIL.endsWith('.local'))
    ) {
      logger.warn(
        'OFFICE_EMAIL / OFFICE_PHONE are not set: the mails to families carry placeholder contact details',
      );
    }
    const service = await composeNotification(deps);
    return {
      ...service,
      handlers: new ProcessedEvents(conn).wrap(service.handlers),
      start: () => service.sender.start(),
    };
  },
});
