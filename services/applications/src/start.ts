import { EventBus, Lifecycle, connectMongo, createLogger, runMain } from '@furniture/platform';
import { loadApplicationsConfig } from './config';
import { composeApplications } from './compose';

runMain('applications', async () => {
  const config = loadApplicationsConfig();
  const logger = createLogger('applications', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  const conn = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
  lifecycle.onShutdown('mongo', () => conn.close());

  const bus = new EventBus({
    url: config.AMQP_URL,
    exchange: config.AMQP_EXCHANGE,
    service: 'applications',
    logger,
    prefetch: config.AMQP_PREFETCH,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    retryBaseMs: config.AMQP_RETRY_BASE_MS,
  });
  await bus.start();
  lifecycle.onShutdown('broker', () => bus.stop());

  const service = await composeApplications({
    config,
    logger,
    conn,
    publisher: bus,
    brokerConnected: () => bus.isConnected(),
    isAccepting: lifecycle.isAccepting,
  });
  lifecycle.onShutdown('outbox relay and lot sync', () => service.stop());
  service.relay.start();
  await bus.subscribe(service.handlers);
  // in the background: the API answers meanwhile (from the events that arrive)
  void service.lotSync.start(config.LOT_SNAPSHOT_SYNC);

  await lifecycle.listen(service.app, config.PORT, config.HOST);
  logger.info({ port: config.PORT }, 'applications service listening');
});
