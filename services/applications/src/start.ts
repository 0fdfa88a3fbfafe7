import { runService } from '@furniture/platform';
import { loadApplicationsConfig } from './config';
import { composeApplications } from './compose';

runService({
  name: 'applications',
  loadConfig: loadApplicationsConfig,
  compose: async (deps) => {
    const service = await composeApplications(deps);
    return {
      ...service,
      start: () => {
        service.relay.start();
        // in the background: the API answers meanwhile (from the events that arrive)
        void service.lotSync.start(deps.config.LOT_SNAPSHOT_SYNC);
      },
    };
  },
});
