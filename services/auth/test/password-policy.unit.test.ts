import { Limits } from '@furniture/contracts';
import {
  adminPasswordProblem,
  DOCUMENTED_ADMIN_PASSWORD,
  zxcvbnPasswordPolicy,
} from '../src/integrations/password-policy';

const policy = zxcvbnPasswordPolicy();

describe('password policy', () => {
  test.each([
    'password1234',
    'Passwort1234',
    'qwertyuiop12',
    '123456789012',
    DOCUMENTED_ADMIN_PASSWORD,
  ])('when the password is %p, then it is too easy to guess', (password) => {
    expect(policy.isWeak(password)).toBe(true);
  });

  test('when the password is the user’s own name with a year, then it is weak for that user only; a long unusual one is not', () => {
    const vera = ['Vera Freiwillig', 'vera.freiwillig@example.org'];
    expect(policy.isWeak('freiwillig2026', vera)).toBe(true);
    expect(policy.isWeak('freiwillig2026')).toBe(false);
    expect(policy.isWeak('Kastanien-Allee-42-Blau')).toBe(false);
  });

  test('when production starts with the documented or a weak admin password, then the start is refused; development and the machine-local run keep the default', () => {
    const min = Limits.newPasswordMin;
    expect(
      adminPasswordProblem(
        { NODE_ENV: 'production', ADMIN_PASSWORD: DOCUMENTED_ADMIN_PASSWORD },
        policy,
        min,
      ),
    ).toMatch(/documented default/);
    expect(
      adminPasswordProblem({ NODE_ENV: 'production', ADMIN_PASSWORD: 'password1234' }, policy, min),
    ).toMatch(/too easy to guess/);
    expect(
      adminPasswordProblem(
        { NODE_ENV: 'production', ADMIN_PASSWORD: 'Kastanien-Allee-42-Blau' },
        policy,
        min,
      ),
    ).toBeUndefined();
    expect(
      adminPasswordProblem(
        { NODE_ENV: 'development', ADMIN_PASSWORD: DOCUMENTED_ADMIN_PASSWORD },
        policy,
        min,
      ),
    ).toBeUndefined();
    expect(
      adminPasswordProblem(
        { NODE_ENV: 'production', LOCAL_RUN: true, ADMIN_PASSWORD: DOCUMENTED_ADMIN_PASSWORD },
        policy,
        min,
      ),
    ).toBeUndefined();
  });
});
