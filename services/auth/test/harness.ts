import { EventBus, connectMongo, type Connection } from '@furniture/platform';
import {
  EventRecorder,
  deleteBrokerObjects,
  dropDatabase,
  listen,
  silentLogger,
  testKeys,
  testUrls,
  uniqueName,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';
import { loadAuthConfig } from '../src/config';
import { composeAuth } from '../src/compose';

export const ADMIN = {
  email: 'admin@example.org',
  password: 'admin-password-1',
  name: 'Erste Admin',
};

/** Starts the real auth service against the test servers, on its own database and exchange. */
export async function startAuth(env: Record<string, string> = {}) {
  const urls = testUrls();
  const dbName = uniqueName('auth');
  const exchange = uniqueName('events');
  const service = uniqueName('auth');
  const keys = testKeys();
  const config = loadAuthConfig({
    MONGO_URL: urls.mongoUrl,
    AMQP_URL: urls.amqpUrl,
    JWT_PRIVATE_KEY: keys.privateKey,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    ...env,
  });
  const conn: Connection = await connectMongo({
    url: urls.mongoUrl,
    dbName,
    logger: silentLogger,
    timeoutMs: 20000,
  });
  const recorder = await new EventRecorder(urls.amqpUrl, exchange).start();
  const bus = new EventBus({ url: urls.amqpUrl, exchange, service, logger: silentLogger });
  await bus.start();
  const auth = await composeAuth({
    config,
    logger: silentLogger,
    conn,
    publisher: bus,
    relayIntervalMs: 200,
  });
  auth.relay.start();
  await auth.users.seedAdmin(ADMIN);
  const server = await listen(auth.app);
  return {
    url: server.url,
    auth,
    conn,
    recorder,
    keys,
    config,
    async stop() {
      await server.close();
      await auth.stop();
      await bus.stop();
      await recorder.stop();
      await deleteBrokerObjects(urls.amqpUrl, exchange, []);
      await dropDatabase(urls.mongoUrl, dbName).catch(() => undefined);
      await conn.close();
    },
  };
}
