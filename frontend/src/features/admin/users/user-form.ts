import { Limits } from '@furniture/contracts/limits';
import { Roles } from '@furniture/contracts/enums';
import { emailProblem } from '../session';

export interface UserFormValues {
  name: string;
  email: string;
  role: string;
  password: string;
  confirm: string;
  /** a referrer's partner agency (issue 44), chosen when the user is made */
  agencyId: string;
}

/** Keys of admin:validation. */
export type UserFormErrors = Partial<Record<keyof UserFormValues, string>>;

/**
 * User form rules of back-office §5: name and e-mail required; a known role, a referrer with its
 * partner agency (issue 44); the
 * password required on create (at least 12; the API also refuses one that is easy to guess) and optional on edit; the confirmation must match on
 * create only.
 */
export function validateUserForm(values: UserFormValues, mode: 'create' | 'edit'): UserFormErrors {
  const errors: UserFormErrors = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  const mailProblem = emailProblem(values.email);
  if (mailProblem) errors.email = mailProblem;
  if (!(Roles as readonly string[]).includes(values.role)) errors.role = 'roleInvalid';
  if (mode === 'create' && !values.password) errors.password = 'passwordRequired';
  else if (values.password && values.password.length < Limits.newPasswordMin) {
    errors.password = 'newPasswordTooShort';
  }
  if (mode === 'create' && values.password && values.confirm !== values.password) {
    errors.confirm = 'passwordMismatch';
  }
  if (mode === 'create' && values.role === 'referrer' && !/^[1-9]\d*$/.test(values.agencyId)) {
    errors.agencyId = 'agencyRequired';
  }
  return errors;
}
