import type { ServiceName } from '@furniture/contracts';
import {
  busFromConfig,
  connectMongo,
  createLogger,
  ServiceKit,
  type ComposedService,
  type Logger,
  type ServiceBaseConfig,
  type ServiceDefinition,
} from '@furniture/platform';

/** Keys in the place of the platform's: built into a service's composition, never used here. */
const UNUSED_KEY = 'the admin command line verifies and signs no token';

/**
 * The environment a service's configuration is read from here: the command's own, as the
 * services get theirs (MONGO_URL, …), except that
 * - the service's database is <SERVICE>_MONGO_DB (one MONGO_DB cannot name five databases;
 *   unset, the service's own default, furniture_<service>);
 * - a composition builds a token verifier (and auth a signer, applications its link secrets)
 *   that no command uses, so their keys are not asked for;
 * - no metrics are registered.
 */
export function serviceEnv(service: ServiceName, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { MONGO_DB: _any, ...rest } = env;
  const db = env[`${service.toUpperCase()}_MONGO_DB`];
  return {
    ...rest,
    ...(db ? { MONGO_DB: db } : {}),
    JWT_PUBLIC_KEY: UNUSED_KEY,
    JWT_PUBLIC_KEY_FILE: '',
    JWT_PRIVATE_KEY: UNUSED_KEY,
    JWT_PRIVATE_KEY_FILE: '',
    // no command shows or sends a booking link
    LINK_SECRET: UNUSED_KEY,
    LINK_SECRET_FILE: '',
    METRICS_ENABLED: 'false',
  };
}

/** How long a command waits for the database before it gives up. */
const CONNECT_TIMEOUT_MS = 15_000;

export function quietLogger(env: NodeJS.ProcessEnv): Logger {
  return createLogger('admin', env.ADMIN_LOG_LEVEL ?? 'error');
}

/** The database a service's configuration names. */
export async function openDatabase(
  config: Pick<ServiceBaseConfig, 'MONGO_URL' | 'MONGO_DB'>,
  env: NodeJS.ProcessEnv,
) {
  return connectMongo({
    url: config.MONGO_URL,
    dbName: config.MONGO_DB,
    logger: quietLogger(env),
    timeoutMs: CONNECT_TIMEOUT_MS,
  });
}

/**
 * A service composed as it runs (its repositories, domain and outbox on its own database), but
 * not started: nothing listens, consumes events or runs in the background, and the broker is not
 * asked. The events a command's writes carry wait in the outbox of the documents they changed,
 * and the service's own relay publishes them (within OUTBOX_INTERVAL_MS, or at its next start).
 */
export async function composeService<C extends ServiceBaseConfig, S extends ComposedService, O>(
  def: ServiceDefinition<C, S, O>,
  env: NodeJS.ProcessEnv,
  options: O = {} as O,
) {
  const logger = quietLogger(env);
  const config = def.loadConfig(serviceEnv(def.name as ServiceName, env));
  const conn = await openDatabase(config, env);
  const kit = new ServiceKit(
    def.name,
    config,
    logger,
    conn,
    busFromConfig(def.name, config, logger),
  );
  try {
    return {
      service: await def.compose(kit, options),
      kit,
      async close() {
        await kit.stop();
        await conn.close();
      },
    };
  } catch (err) {
    await conn.close();
    throw err;
  }
}
