import {
  EventBus,
  Lifecycle,
  ProcessedEvents,
  connectMongo,
  createLogger,
  runMain,
} from '@furniture/platform';
import { composeNotification } from './compose';
import { loadNotificationConfig } from './config';

runMain('notification', async () => {
  const config = loadNotificationConfig();
  const logger = createLogger('notification', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  if (
    config.NODE_ENV === 'production' &&
    (!config.OFFICE_PHONE || config.OFFICE_EMAIL.endsWith('.local'))
  )
    logger.warn(
      'OFFICE_EMAIL / OFFICE_PHONE are not set: the mails to families carry placeholder contact details',
    );

  const conn = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
  lifecycle.onShutdown('mongo', () => conn.close());

  const bus = new EventBus({
    url: config.AMQP_URL,
    exchange: config.AMQP_EXCHANGE,
    service: 'notification',
    logger,
    prefetch: config.AMQP_PREFETCH,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    retryBaseMs: config.AMQP_RETRY_BASE_MS,
  });
  await bus.start();
  lifecycle.onShutdown('broker', () => bus.stop());

  const service = await composeNotification({
    config,
    logger,
    conn,
    brokerConnected: () => bus.isConnected(),
    isAccepting: lifecycle.isAccepting,
  });
  lifecycle.onShutdown('mail sender', () => service.stop());
  await bus.subscribe(new ProcessedEvents(conn).wrap(service.handlers));
  service.sender.start();

  await lifecycle.listen(service.app, config.PORT, config.HOST);
  logger.info({ port: config.PORT }, 'notification service listening');
});
