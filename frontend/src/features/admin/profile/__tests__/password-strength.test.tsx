import type { ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import { DOCUMENTED_ADMIN_PASSWORD, judgePassword } from '@furniture/contracts/password-policy';
import { zxcvbn } from '@zxcvbn-ts/core';
import { passwordCheck } from '../../lib/password-estimate';
import { loadPasswordCheck } from '../../lib/password-check';
import { PasswordStrength } from '../../ui/PasswordStrength';
import deAdmin from '../../../../../public/locales/de/admin.json';
import ukAdmin from '../../../../../public/locales/uk/admin.json';
import { initTestI18n } from '../../../../test/i18n';

const i18n = initTestI18n();
i18n.addResourceBundle('de', 'admin', deAdmin);
i18n.addResourceBundle('uk', 'admin', ukAdmin);
afterEach(() => act(() => void i18n.changeLanguage('de')));

async function renderWithI18n(ui: ReactElement, lang: 'de' | 'uk') {
  await act(() => i18n.changeLanguage(lang));
  return render(ui);
}

describe("the password check (the server's policy in the back-office)", () => {
  test('when a password is shorter than 12 characters, then it is refused with how many are missing, however strong', () => {
    const verdict = passwordCheck('Zq!8vR#2mX', []);
    expect(verdict).toMatchObject({ ok: false, missing: 2 });
    expect(verdict.problems).toEqual(['too_short']);
  });

  test('when a password is long but common or a pattern, then it is refused and says why', () => {
    expect(passwordCheck('password1234', []).problems).toContain('common_word');
    expect(passwordCheck('iloveyou2024', []).problems).toEqual(['common_word', 'date']);
    expect(passwordCheck('qwertzuiopasdfgh', []).problems).toContain('keyboard_pattern');
    expect(passwordCheck('aaaaaaaaaaaaaaaa', []).problems).toContain('repeats');
    expect(passwordCheck(DOCUMENTED_ADMIN_PASSWORD, []).problems).toContain('documented');
  });

  test("when a password is made of the user's own name, then it is refused for that user only", () => {
    const inputs = ['Oksana Bondarenko', 'oksana.bondarenko@example.org'];
    expect(passwordCheck('oksanabondarenko', inputs)).toMatchObject({
      ok: false,
      problems: ['own_name'],
    });
    expect(passwordCheck('oksanabondarenko', ['Anna Admin']).problems).not.toContain('own_name');
  });

  test('when a password is long and unusual, then it is accepted, the 0-5 helper of the specification notwithstanding', () => {
    // all lower case, no digit: the spec's helper scores it 2 of 5 ("weak")
    expect(passwordCheck('gurkenglas wandert leise', [])).toEqual({
      ok: true,
      score: 4,
      problems: [],
      missing: 0,
    });
    // all four character classes and 12 characters, but guessable: the spec's "strong"
    expect(passwordCheck('Password123!', []).ok).toBe(false);
  });

  test("when the helper judges a password, then it is the same verdict as the auth service's policy", () => {
    for (const pw of ['Sommer2024!!', 'moebelbruecke-2026', 'Kastanienbaum-Regen-7', 'abc']) {
      expect(passwordCheck(pw, ['Anna Admin'])).toEqual(
        judgePassword(pw, ['Anna Admin'], (p, w) => zxcvbn(p, w)),
      );
    }
  });

  test('when the check is loaded twice, then the chunk is fetched once', async () => {
    const [a, b] = await Promise.all([loadPasswordCheck(), loadPasswordCheck()]);
    expect(a).toBe(b);
  });
});

describe('<PasswordStrength>', () => {
  test('when a guessable password is typed, then it says it would be refused and why, in German', async () => {
    renderWithI18n(<PasswordStrength password="Passwort" userInputs={[]} />, 'de');
    expect(await screen.findByText('Dieses Passwort würde abgelehnt:')).toBeInTheDocument();
    expect(screen.getByText('Zu kurz: 8 von mindestens 12 Zeichen.')).toBeInTheDocument();
    expect(
      screen.getByText('Es besteht aus einem häufigen Wort, Namen oder Passwort.'),
    ).toBeInTheDocument();
  });

  test('when an accepted password is typed, then it says so, in Ukrainian', async () => {
    renderWithI18n(<PasswordStrength password="gurkenglas wandert leise" />, 'uk');
    expect(
      await screen.findByText('Достатньо надійний: цей пароль буде прийнято.'),
    ).toBeInTheDocument();
  });

  test("when the password is the user's name, then the reason names it, in Ukrainian", async () => {
    renderWithI18n(
      <PasswordStrength password="oksana" userInputs={['Oksana Bondarenko', 'o@example.org']} />,
      'uk',
    );
    expect(await screen.findByText('Закороткий: 6 з щонайменше 12 символів.')).toBeInTheDocument();
    expect(
      screen.getByText('Він містить ваше ім’я або адресу електронної пошти.'),
    ).toBeInTheDocument();
  });

  test('when nothing is typed, then nothing shows', () => {
    const { container } = render(<PasswordStrength password="" />);
    expect(container).toBeEmptyDOMElement();
  });
});
