import type { Request } from 'express';
import {
  Errors,
  ValidationMessages,
  formatMessage,
  type ErrorCode,
  type FieldError,
} from '@furniture/contracts';
import { requestLanguage } from '@furniture/platform';

/** The hidden honeypot field holds anything at all. */
export function honeypotFilled(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && String(value).trim() !== '';
}

/** An error code's text in the request's language (for answers that carry a reason). */
export function localized(
  req: Request,
  code: ErrorCode,
  params: Record<string, string | number> = {},
): string {
  return formatMessage(Errors[code][requestLanguage(req)], params);
}

/** One field error in the request's language. */
export function localizedField(
  req: Request,
  loc: (string | number)[],
  key: keyof typeof ValidationMessages,
): FieldError {
  return { loc, msg: ValidationMessages[key][requestLanguage(req)], type: key };
}
