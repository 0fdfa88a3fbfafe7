import { runService } from '@furniture/platform';
import { loadMediaConfig } from './config';
import { composeMedia } from './compose';

runService({
  name: 'media',
  loadConfig: loadMediaConfig,
  compose: async (deps) => {
    const service = await composeMedia(deps);
    return {
      ...service,
      start: () => {
        service.relay.start();
        service.lots.startRebuild();
      },
    };
  },
  describe: (config) => ({
    bucket: config.S3_BUCKET,
    maxParallel: config.MEDIA_MAX_PARALLEL,
    sharpConcurrency: config.SHARP_CONCURRENCY,
  }),
});
