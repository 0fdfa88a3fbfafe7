import {
  listen,
  silentLogger,
  testKeys,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';
import type { Logger } from '@furniture/platform';
import { createGatewayApp } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import type { CacheFeed } from '../src/middleware/public-cache';

/** No service listens here: what the gateway routes to it fails fast (503). */
export const NOWHERE = 'http://127.0.0.1:9';

/**
 * The real gateway in front of the given services (the others route to NOWHERE), trusting the
 * test key pair, on a free port. `env` overrides configuration (limits, timeouts).
 */
export async function startTestGateway(
  targets: Partial<
    Record<
      'AUTH_URL' | 'CATALOG_URL' | 'APPLICATIONS_URL' | 'MEDIA_URL' | 'NOTIFICATION_URL',
      string
    >
  >,
  env: Record<string, string> = {},
  logger: Logger = silentLogger,
  extra: { cacheFeed?: CacheFeed } = {},
) {
  const config = loadGatewayConfig({
    AUTH_URL: NOWHERE,
    CATALOG_URL: NOWHERE,
    APPLICATIONS_URL: NOWHERE,
    MEDIA_URL: NOWHERE,
    NOTIFICATION_URL: NOWHERE,
    ...targets,
    JWT_PUBLIC_KEY: testKeys().publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return listen(createGatewayApp({ config, logger, ...extra }));
}
