import { applicationErrors } from './applications';
import { authErrors } from './auth';
import { catalogErrors } from './catalog';
import { commonErrors } from './common';
import { donationErrors } from './donations';
import { handoverErrors } from './handovers';
import { mediaErrors } from './media';
import { notificationErrors } from './notification';
import type { ErrorDefinition } from './types';

export type { ErrorDefinition, LocalizedText } from './types';
export { DonationStatusLabels } from './donations';
export { HandoverStatusLabels } from './handovers';

/**
 * Stable error codes. Every answer of a service that is not a success carries one as `code`,
 * so a client can translate it; `message` and `detail` carry the text in the request's language.
 */
export const Errors = {
  ...commonErrors,
  ...authErrors,
  ...catalogErrors,
  ...applicationErrors,
  ...mediaErrors,
  ...donationErrors,
  ...handoverErrors,
  ...notificationErrors,
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof Errors;

/** Fills {name} placeholders. */
export function formatMessage(
  template: string,
  params: Record<string, string | number> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}
