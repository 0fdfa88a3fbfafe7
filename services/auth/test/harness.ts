import { startService, testKeys } from '@furniture/platform/testing';
import { authService } from '../src/compose';

export const ADMIN = {
  email: 'admin@example.org',
  password: 'admin-password-1',
  name: 'Erste Admin',
};

/** Starts the real auth service against the test servers, on its own database and exchange. */
export async function startAuth(env: Record<string, string> = {}) {
  const keys = testKeys();
  const svc = await startService(authService, {
    env: {
      JWT_PRIVATE_KEY: keys.privateKey,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_NAME: ADMIN.name,
      ...env,
    },
  });
  return { ...svc, auth: svc.service, keys };
}
