import { runService } from '@furniture/platform';
import { loadAuthConfig } from './config';
import { composeAuth } from './compose';

runService({
  name: 'auth',
  loadConfig: loadAuthConfig,
  compose: async (deps) => {
    const service = await composeAuth(deps);
    const { config, logger } = deps;
    return {
      ...service,
      start: async () => {
        service.relay.start();
        const seeded = await service.users.seedAdmin({
          email: config.ADMIN_EMAIL,
          password: config.ADMIN_PASSWORD,
          name: config.ADMIN_NAME,
        });
        if (seeded === 'created')
          logger.info({ email: config.ADMIN_EMAIL }, 'first administrator created');
        if (seeded === 'not_configured')
          logger.warn('no users yet: set ADMIN_EMAIL and ADMIN_PASSWORD');
      },
    };
  },
});
