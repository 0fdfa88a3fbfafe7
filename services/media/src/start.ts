import { EventBus, Lifecycle, connectMongo, createLogger, runMain } from '@furniture/platform';
import { loadMediaConfig } from './config';
import { composeMedia } from './compose';

runMain('media', async () => {
  const config = loadMediaConfig();
  const logger = createLogger('media', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  const conn = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
  lifecycle.onShutdown('mongo', () => conn.close());

  const bus = new EventBus({
    url: config.AMQP_URL,
    exchange: config.AMQP_EXCHANGE,
    service: 'media',
    logger,
    prefetch: config.AMQP_PREFETCH,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    retryBaseMs: config.AMQP_RETRY_BASE_MS,
  });
  await bus.start();
  lifecycle.onShutdown('broker', () => bus.stop());

  const service = await composeMedia({
    config,
    logger,
    conn,
    publisher: bus,
    brokerConnected: () => bus.isConnected(),
    isAccepting: lifecycle.isAccepting,
  });
  lifecycle.onShutdown('outbox relay, lot snapshot', () => service.stop());
  service.relay.start();
  await bus.subscribe(service.handlers);
  service.lots.startRebuild();

  await lifecycle.listen(service.app, config.PORT, config.HOST);
  logger.info(
    {
      port: config.PORT,
      bucket: config.S3_BUCKET,
      maxParallel: config.MEDIA_MAX_PARALLEL,
      sharpConcurrency: config.SHARP_CONCURRENCY,
    },
    'media service listening',
  );
});
