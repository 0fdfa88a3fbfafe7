import { listen, silentLogger, startBackbone } from '@furniture/platform/testing';
import { loadAuthConfig } from '../src/config';
import { composeAuth } from '../src/compose';

export const ADMIN = {
  email: 'admin@example.org',
  password: 'admin-password-1',
  name: 'Erste Admin',
};

/** Starts the real auth service against the test servers, on its own database and exchange. */
export async function startAuth(env: Record<string, string> = {}) {
  const backbone = await startBackbone('auth');
  const { keys, conn, recorder, bus } = backbone;
  const config = loadAuthConfig({ ...backbone.env, JWT_PRIVATE_KEY: keys.privateKey, ...env });
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
      await backbone.stop();
    },
  };
}
