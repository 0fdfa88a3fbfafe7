// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('gateway');

import { EventBus, Lifecycle, createLogger, runMain } from '@furniture/platform';
import { createGatewayApp, createMetricsApp } from './app';
import { cacheFeedOf } from './cache-feed';
import { loadGatewayConfig } from './config';
import { sharedLimits } from './middleware/shared-limits';

runMain('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS, config.DRAIN_DELAY_MS);
  lifecycle.handleSignals('gateway');
  if (config.NODE_ENV === 'production' && !config.SOURCE_URL)
    logger.warn(
      'SOURCE_URL is not set: the site’s source link shows a note instead of the code (AGPL-3.0 § 13 asks for the code)',
    );
  // the platform's events drop the public answers the gateway keeps (cache-feed.ts); without the
  // broker the gateway serves on and keeps them for a second at most
  let cacheFeed;
  if (config.PUBLIC_CACHE_LIVE_MAX_MS > config.PUBLIC_CACHE_MAX_MS) {
    const bus = new EventBus({
      url: config.AMQP_URL,
      exchange: config.AMQP_EXCHANGE,
      queueType: config.AMQP_QUEUE_TYPE,
      service: 'gateway',
      logger,
    });
    await bus.start(2000);
    lifecycle.onShutdown('event feed', () => bus.stop());
    cacheFeed = cacheFeedOf(bus, logger);
  }
  const limits = config.RATE_LIMIT_SHARED
    ? sharedLimits({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger })
    : undefined;
  if (limits) lifecycle.onShutdown('shared rate limits', () => limits.stop());
  const app = createGatewayApp({
    config,
    logger,
    isAccepting: lifecycle.isAccepting,
    cacheFeed,
    sharedLimits: limits?.shared,
  });
  await lifecycle.listen(app, config.PORT, config.HOST);
  if (config.METRICS_ENABLED)
    await lifecycle.listen(createMetricsApp(), config.METRICS_PORT, config.HOST);
  logger.info({ port: config.PORT, metricsPort: config.METRICS_PORT }, 'gateway listening');
});
