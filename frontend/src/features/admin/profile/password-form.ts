import { Limits } from '@furniture/contracts/limits';

/** Keys of admin:validation. */
export type PasswordErrors = Partial<
  Record<
    'current' | 'next' | 'confirm',
    | 'currentRequired'
    | 'newRequired'
    | 'newPasswordTooShort'
    | 'passwordUnchanged'
    | 'passwordMismatch'
  >
>;

/** Password change rules of back-office §5. */
export function validatePasswordChange(
  current: string,
  next: string,
  confirm: string,
): PasswordErrors {
  const errors: PasswordErrors = {};
  if (!current) errors.current = 'currentRequired';
  if (!next) errors.next = 'newRequired';
  else if (next.length < Limits.newPasswordMin) errors.next = 'newPasswordTooShort';
  else if (next === current) errors.next = 'passwordUnchanged';
  if (next && confirm !== next) errors.confirm = 'passwordMismatch';
  return errors;
}
