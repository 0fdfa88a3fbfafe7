import { Limits } from '@furniture/contracts';
import { defineService, ensureIndexes, type ServiceKit } from '@furniture/platform';
import { createApp } from './app';
import { loadAuthConfig, type AuthConfig } from './config';
import { mongoLoginThrottle } from './data-access/login-throttle';
import { registerModels } from './data-access/models';
import { SessionsRepository } from './data-access/sessions-repository';
import { UsersRepository } from './data-access/users-repository';
import { PartnersRepository } from './data-access/partners-repository';
import { PartnersService } from './domain/partners-service';
import { AuthService } from './domain/auth-service';
import { UsersService } from './domain/users-service';
import { argon2Hasher, boundedHasher } from './integrations/password-hasher';
import {
  adminPasswordProblem,
  DOCUMENTED_ADMIN_PASSWORD,
  isExposed,
  zxcvbnPasswordPolicy,
} from './integrations/password-policy';
import { randomRefreshTokens } from './integrations/refresh-tokens';
import { rs256TokenSigner } from './integrations/token-signer';

/**
 * Wires the auth service's domain on the kit (start.ts and the tests alike). At start the first
 * administrator is created when there are no users yet.
 */
export async function composeAuth(kit: ServiceKit<AuthConfig>) {
  const { config, logger, conn } = kit;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const users = new UsersRepository(kit.store, conn);
  const sessions = new SessionsRepository(kit.store);
  // its writes go through the store, which asks this relay to publish after each with events
  kit.outbox([models.User]);
  const hasher = boundedHasher(
    argon2Hasher({
      memoryCost: config.ARGON2_MEMORY_KIB,
      timeCost: config.ARGON2_TIME_COST,
      parallelism: config.ARGON2_PARALLELISM,
    }),
    { concurrent: config.ARGON2_MAX_CONCURRENT, queue: config.ARGON2_MAX_QUEUE },
  );
  const signer = rs256TokenSigner({
    privateKey: config.jwtPrivateKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  const policy = zxcvbnPasswordPolicy();
  const throttle = mongoLoginThrottle(kit.store, {
    perAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    perIp: config.LOGIN_MAX_FAILURES_PER_IP,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    lockSeconds: config.LOGIN_LOCK_SECONDS,
  });
  const partners = new PartnersService({
    partners: new PartnersRepository(kit.store),
    users,
    sessions,
    hasher,
    policy,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    invitationValidDays: config.INVITATION_VALID_DAYS,
  });
  const auth = new AuthService({
    agencyOf: (user) => partners.agencyOf(user),
    users,
    sessions,
    hasher,
    policy,
    signer,
    refreshTokens: randomRefreshTokens(),
    throttle,
    sessionMaxAgeSeconds: config.SESSION_MAX_AGE_SECONDS,
    sessionIdleSeconds: config.SESSION_IDLE_SECONDS,
    refreshReuseGraceSeconds: config.REFRESH_REUSE_GRACE_SECONDS,
    refreshBearerGraceSeconds: config.REFRESH_BEARER_GRACE_SECONDS,
  });
  const usersService = new UsersService({
    users,
    sessions,
    hasher,
    policy,
    throttle,
    requireAgency: (id) => partners.requireActiveAgency(id),
  });

  // idle and absolute ends are announced (user.logged_out) even when nobody refreshes again
  kit.every('lapsed sessions', config.SESSION_SWEEP_SECONDS * 1000, () => auth.endLapsedSessions());
  kit.onStart(async () => {
    // production never runs with the documented default admin, seeded or kept
    const problem = adminPasswordProblem(config, policy, Limits.newPasswordMin);
    if (problem) throw new Error(problem);
    if (isExposed(config) && config.ADMIN_EMAIL) {
      const admin = await users.findByEmail(config.ADMIN_EMAIL.trim().toLowerCase());
      if (admin && (await hasher.verify(admin.password_hash, DOCUMENTED_ADMIN_PASSWORD)))
        throw new Error(
          `${config.ADMIN_EMAIL} still has the documented default password: change it (make run, or PATCH /api/v1/users) before starting in production`,
        );
    }
    const seeded = await usersService.seedAdmin({
      email: config.ADMIN_EMAIL,
      password: config.ADMIN_PASSWORD,
      name: config.ADMIN_NAME,
      // a configured password is known to whoever configured it (the README's to everyone)
      mustChangePassword: isExposed(config) || config.ADMIN_PASSWORD === DOCUMENTED_ADMIN_PASSWORD,
    });
    if (seeded === 'created')
      logger.info({ email: config.ADMIN_EMAIL }, 'first administrator created');
    if (seeded === 'not_configured')
      logger.warn('no users yet: set ADMIN_EMAIL and ADMIN_PASSWORD');
  });

  const app = createApp({
    ...kit.appDeps(),
    auth,
    users: usersService,
    partners,
    cookieSecurity: config.REFRESH_COOKIE_SECURE,
  });
  return { app, auth, users: usersService, partners };
}

export const authService = defineService({
  name: 'auth',
  loadConfig: loadAuthConfig,
  compose: composeAuth,
});
