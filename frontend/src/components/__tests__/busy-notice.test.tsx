import { act, render, screen } from '@testing-library/react';
import { initTestI18n } from '../../test/i18n';
import { waitWhileBusy } from '../../lib/busy';
import { BusyNotice } from '../BusyNotice';

const i18n = initTestI18n();

afterEach(() => act(() => void i18n.changeLanguage('de')));

describe('the busy notice', () => {
  test('when a shed call waits to try again, then the page says so politely in the page language, and not after', async () => {
    render(<BusyNotice />);
    expect(screen.queryByRole('status')).toBeNull();
    let waited!: Promise<void>;
    act(() => {
      waited = waitWhileBusy(100);
    });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Gerade sind sehr viele Besucher hier. Wir versuchen es gleich noch einmal …',
    );
    await act(() => i18n.changeLanguage('uk'));
    expect(screen.getByRole('status')).toHaveTextContent('Зараз тут дуже багато відвідувачів');
    await act(() => waited);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
