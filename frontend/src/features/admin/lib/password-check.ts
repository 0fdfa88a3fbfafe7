import type { PasswordVerdict } from '@furniture/contracts/password-policy';

export type PasswordCheck = (password: string, userInputs: readonly string[]) => PasswordVerdict;

let loading: Promise<PasswordCheck> | null = null;

/**
 * The new-password policy of the auth service (contracts' judgePassword with zxcvbn-ts), in a
 * chunk of its own: its dictionary is several hundred kilobytes, fetched when staff first type
 * a new password, never with the public pages or the rest of the back-office. A failed load is
 * tried again next time.
 */
export function loadPasswordCheck(): Promise<PasswordCheck> {
  loading ??= import('./password-estimate').then(
    (m) => m.passwordCheck,
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}
