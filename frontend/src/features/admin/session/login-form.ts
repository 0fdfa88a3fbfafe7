import { Limits } from '@furniture/contracts/limits';
import { checkEmail } from '../../../lib/validation';

/** Keys of admin:validation. */
export type LoginErrors = Partial<
  Record<
    'email' | 'password',
    'emailRequired' | 'emailInvalid' | 'passwordRequired' | 'passwordTooShort'
  >
>;

/** A required e-mail of basic shape (the shared check; the server checks it properly). */
export function emailProblem(value: string): 'emailRequired' | 'emailInvalid' | undefined {
  const problem = checkEmail(value, { required: true });
  if (!problem) return undefined;
  return problem.key === 'required' ? 'emailRequired' : 'emailInvalid';
}

/** Login rules of back-office §5. */
export function validateLogin(email: string, password: string): LoginErrors {
  const errors: LoginErrors = {};
  const mailProblem = emailProblem(email);
  if (mailProblem) errors.email = mailProblem;
  if (password === '') errors.password = 'passwordRequired';
  else if (password.length < Limits.passwordMin) errors.password = 'passwordTooShort';
  return errors;
}
