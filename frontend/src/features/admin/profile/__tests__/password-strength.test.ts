import { passwordStrength } from '../../lib/password-strength';
import { validatePasswordChange } from '../password-form';

describe('password strength helper', () => {
  test.each([
    ['', 0, 'weak'],
    ['abc', 1, 'weak'],
    ['abcdefgh', 2, 'weak'],
    ['abcdefgH', 3, 'medium'],
    ['abcdefg1', 3, 'medium'],
    ['Abcdefg1', 4, 'strong'],
    ['Abcdefg1!', 5, 'strong'],
    ['Aa1!', 4, 'strong'],
    ['пароль-Київ1', 5, 'strong'],
  ])('when the password is %p, then the score is %i and the label %s', (password, score, label) => {
    expect(passwordStrength(password)).toEqual({ score, label });
  });
});

describe('password change rules', () => {
  test('when everything is empty, then current and new password are required', () => {
    expect(validatePasswordChange('', '', '')).toEqual({
      current: 'currentRequired',
      next: 'newRequired',
    });
  });

  test('when the new password is short, equal to the current one or not confirmed, then each rule is named', () => {
    expect(validatePasswordChange('alt-passwort', 'kurz', 'kurz').next).toBe('newPasswordTooShort');
    expect(validatePasswordChange('alt-passwort', 'neu-pass-11', 'neu-pass-11').next).toBe(
      'newPasswordTooShort',
    );
    expect(validatePasswordChange('gleich-bleibt', 'gleich-bleibt', 'gleich-bleibt').next).toBe(
      'passwordUnchanged',
    );
    expect(validatePasswordChange('alt-passwort', 'neu-passwort', 'neu-passwort!').confirm).toBe(
      'passwordMismatch',
    );
    expect(validatePasswordChange('alt-passwort', 'neu-passwort', 'neu-passwort')).toEqual({});
  });
});
