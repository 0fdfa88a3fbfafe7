// The infrastructure handle shared by globalSetup and globalTeardown. Both run in jest's main
// process but are loaded as separate modules, so the handle lives on globalThis.
import { MESSAGES_PROVIDER_ENV_KEYS } from '../messages/local';
import type { Infra } from '../start-infra';

export const INFRA_ENV_KEYS = [
  'MONGO_URL',
  'AMQP_URL',
  'S3_URL',
  'SMTP_URL',
  'MAIL_API_URL',
  'MESSAGES_API_URL',
] as const;

/**
 * The provider settings of the test stand-in (WHATSAPP_*, SMS_*), exported to the test processes
 * beside INFRA_ENV_KEYS; the stand-in's webhooks point nowhere until a test sets them
 * (PUT /api/webhooks), as each test starts its own gateway.
 */
export const MESSAGES_ENV_KEYS = MESSAGES_PROVIDER_ENV_KEYS;

const KEY = Symbol.for('@furniture/infra:test-infra');

type WithInfra = typeof globalThis & { [KEY]?: Infra };

export function setTestInfra(infra: Infra): void {
  (globalThis as WithInfra)[KEY] = infra;
}

export function hasTestInfra(): boolean {
  return (globalThis as WithInfra)[KEY] !== undefined;
}

export function takeTestInfra(): Infra | undefined {
  const g = globalThis as WithInfra;
  const infra = g[KEY];
  delete g[KEY];
  return infra;
}
