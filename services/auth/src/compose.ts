import {
  OutboxRelay,
  TokenVerifier,
  ensureIndexes,
  pingMongo,
  type Connection,
  type HealthCheck,
  type Logger,
  type Publisher,
} from '@furniture/platform';
import type { Collection, Document } from 'mongodb';
import { createApp } from './app';
import type { AuthConfig } from './config';
import {
  ensureThrottleIndexes,
  mongoLoginThrottle,
  purgeExpiredThrottleRows,
} from './data-access/login-throttle';
import { registerModels } from './data-access/models';
import { SessionsRepository } from './data-access/sessions-repository';
import { UsersRepository } from './data-access/users-repository';
import { AuthService } from './domain/auth-service';
import { UsersService } from './domain/users-service';
import { argon2Hasher } from './integrations/password-hasher';
import { TokenSigner } from './integrations/token-signer';

type ComposeConfig = Pick<
  AuthConfig,
  | 'METRICS_ENABLED'
  | 'jwtPrivateKey'
  | 'jwtPublicKey'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
  | 'ACCESS_TOKEN_TTL_SECONDS'
  | 'SESSION_MAX_AGE_SECONDS'
  | 'LOGIN_MAX_FAILURES_PER_ACCOUNT'
  | 'LOGIN_MAX_FAILURES_PER_IP'
  | 'LOGIN_FAILURE_WINDOW_SECONDS'
  | 'LOGIN_LOCK_SECONDS'
  | 'ARGON2_MEMORY_KIB'
  | 'ARGON2_TIME_COST'
  | 'ARGON2_PARALLELISM'
>;

/**
 * Wires the auth service from its connections: used by start.ts and by the tests alike.
 */
export async function composeAuth(opts: {
  config: ComposeConfig;
  logger: Logger;
  conn: Connection;
  publisher: Publisher;
  brokerConnected?: HealthCheck;
  isAccepting?: () => boolean;
  relayIntervalMs?: number;
}) {
  const { config, logger, conn } = opts;
  const models = registerModels(conn);
  await ensureIndexes(conn);
  await ensureThrottleIndexes(conn);

  const users = new UsersRepository(conn, models);
  const sessions = new SessionsRepository(models);
  const relay = new OutboxRelay({
    collections: [models.User.collection as unknown as Collection<Document>],
    publisher: opts.publisher,
    logger,
    intervalMs: opts.relayIntervalMs,
  });
  const onEvents = () => relay.kick();
  const hasher = argon2Hasher({
    memoryCost: config.ARGON2_MEMORY_KIB,
    timeCost: config.ARGON2_TIME_COST,
    parallelism: config.ARGON2_PARALLELISM,
  });
  const signer = new TokenSigner({
    privateKey: config.jwtPrivateKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  const verifier = new TokenVerifier({
    publicKey: config.jwtPublicKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
  const throttle = mongoLoginThrottle(conn, {
    perAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    perIp: config.LOGIN_MAX_FAILURES_PER_IP,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    lockSeconds: config.LOGIN_LOCK_SECONDS,
  });
  const auth = new AuthService({
    users,
    sessions,
    hasher,
    signer,
    throttle,
    sessionMaxAgeSeconds: config.SESSION_MAX_AGE_SECONDS,
    onEvents,
  });
  const usersService = new UsersService({ users, sessions, hasher, onEvents });

  const app = createApp({
    logger,
    verifier,
    auth,
    users: usersService,
    checks: { mongo: () => pingMongo(conn) },
    info: opts.brokerConnected ? { broker: opts.brokerConnected } : undefined,
    isAccepting: opts.isAccepting,
    metrics: config.METRICS_ENABLED,
  });

  // housekeeping that a TTL index would do on MongoDB (FerretDB has none)
  const housekeeping = setInterval(() => {
    void Promise.all([
      sessions.purgeExpired(new Date(Date.now() - 24 * 3600 * 1000)),
      purgeExpiredThrottleRows(conn),
    ]).catch((err: Error) => logger.warn({ err: err.message }, 'housekeeping failed'));
  }, 3600 * 1000);
  housekeeping.unref();

  return {
    app,
    relay,
    auth,
    users: usersService,
    stop: async () => {
      clearInterval(housekeeping);
      await relay.stop();
    },
  };
}
