// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('gateway');

import { Lifecycle, createLogger, runMain } from '@furniture/platform';
import { createGatewayApp, createMetricsApp } from './app';
import { loadGatewayConfig } from './config';

runMain('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS, config.DRAIN_DELAY_MS);
  lifecycle.handleSignals();
  if (config.NODE_ENV === 'production' && !config.SOURCE_URL)
    logger.warn(
      'SOURCE_URL is not set: the site’s source link shows a note instead of the code (AGPL-3.0 § 13 asks for the code)',
    );
  const app = createGatewayApp({ config, logger, isAccepting: lifecycle.isAccepting });
  await lifecycle.listen(app, config.PORT, config.HOST);
  if (config.METRICS_ENABLED)
    await lifecycle.listen(createMetricsApp(), config.METRICS_PORT, config.HOST);
  logger.info({ port: config.PORT, metricsPort: config.METRICS_PORT }, 'gateway listening');
});
