import { Limits } from '@furniture/contracts/limits';

/** Keys of admin:validation. */
export type LoginErrors = Partial<
  Record<
    'email' | 'password',
    'emailRequired' | 'emailInvalid' | 'passwordRequired' | 'passwordTooShort'
  >
>;

/** A basic e-mail shape (the server checks it properly). */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Login rules of back-office §5. */
export function validateLogin(email: string, password: string): LoginErrors {
  const errors: LoginErrors = {};
  const mail = email.trim();
  if (mail === '') errors.email = 'emailRequired';
  else if (!EMAIL_SHAPE.test(mail)) errors.email = 'emailInvalid';
  if (password === '') errors.password = 'passwordRequired';
  else if (password.length < Limits.passwordMin) errors.password = 'passwordTooShort';
  return errors;
}
