import { EventBus, Lifecycle, connectMongo, createLogger, runMain } from '@furniture/platform';
import { loadAuthConfig } from './config';
import { composeAuth } from './compose';

runMain('auth', async () => {
  const config = loadAuthConfig();
  const logger = createLogger('auth', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  const conn = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
  lifecycle.onShutdown('mongo', () => conn.close());

  const bus = new EventBus({
    url: config.AMQP_URL,
    exchange: config.AMQP_EXCHANGE,
    service: 'auth',
    logger,
  });
  await bus.start();
  lifecycle.onShutdown('broker', () => bus.stop());

  const service = await composeAuth({
    config,
    logger,
    conn,
    publisher: bus,
    brokerConnected: () => bus.isConnected(),
    isAccepting: lifecycle.isAccepting,
  });
  lifecycle.onShutdown('outbox relay', () => service.stop());
  service.relay.start();

  const seeded = await service.users.seedAdmin({
    email: config.ADMIN_EMAIL,
    password: config.ADMIN_PASSWORD,
    name: config.ADMIN_NAME,
  });
  if (seeded === 'created')
    logger.info({ email: config.ADMIN_EMAIL }, 'first administrator created');
  if (seeded === 'not_configured') logger.warn('no users yet: set ADMIN_EMAIL and ADMIN_PASSWORD');

  await lifecycle.listen(service.app, config.PORT, config.HOST);
  logger.info({ port: config.PORT }, 'auth service listening');
});
