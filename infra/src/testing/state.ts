// The infrastructure handle shared by globalSetup and globalTeardown. Both run in jest's main
// process but are loaded as separate modules, so the handle lives on globalThis.
import type { Infra } from '../start-infra';

export const INFRA_ENV_KEYS = [
  'MONGO_URL',
  'AMQP_URL',
  'S3_URL',
  'SMTP_URL',
  'MAIL_API_URL',
] as const;

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
