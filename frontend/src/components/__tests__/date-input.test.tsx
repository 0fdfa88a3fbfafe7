import { useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '../../test/i18n';
import { DateInput, formatDayMonthYear, parseDayMonthYear } from '../DateInput';

const i18n = initTestI18n();

function Filter({ initial = '', min, seen }: { initial?: string; min?: string; seen: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateInput
        label="Von"
        value={value}
        min={min}
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
      />
      <button type="button" onClick={() => setValue('')}>
        reset
      </button>
    </>
  );
}

afterEach(() => act(() => void i18n.changeLanguage('de')));

describe('DateInput', () => {
  test('parses day.month.year and refuses days that are not in the calendar', () => {
    expect(parseDayMonthYear('24.11.2026')).toBe('2026-11-24');
    expect(parseDayMonthYear(' 1.2.2026 ')).toBe('2026-02-01');
    expect(parseDayMonthYear('29/02/2028')).toBe('2028-02-29');
    expect(parseDayMonthYear('29.02.2026')).toBeNull();
    expect(parseDayMonthYear('2026-11-24')).toBeNull();
    expect(parseDayMonthYear('11/24/2026')).toBeNull();
    expect(formatDayMonthYear('2026-11-24')).toBe('24.11.2026');
  });

  test('when a German date is typed, then the ISO day is passed on and the field shows TT.MM.JJJJ', async () => {
    const seen: string[] = [];
    const user = userEvent.setup();
    render(<Filter initial="2026-03-01" seen={seen} />);
    const field = screen.getByLabelText('Von');
    expect(field).toHaveValue('01.03.2026');
    expect(field).toHaveAttribute('type', 'text');
    expect(field).toHaveAttribute('placeholder', 'TT.MM.JJJJ');
    await user.clear(field);
    await user.type(field, '06.03.2026');
    expect(seen).toEqual(['', '2026-03-06']);
    await user.click(screen.getByRole('button', { name: 'reset' }));
    expect(field).toHaveValue('');
  });

  test('when a wrong date is left, then it says why in the page language and nothing is passed on', async () => {
    const seen: string[] = [];
    const user = userEvent.setup();
    render(<Filter min="2026-03-01" seen={seen} />);
    const field = screen.getByLabelText('Von');
    await user.type(field, '31.02.2026');
    await user.tab();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(
      'Kein gültiges Datum: bitte als TT.MM.JJJJ eingeben, z. B. 24.11.2026',
    );
    await user.clear(field);
    await user.type(field, '28.02.2026');
    await user.tab();
    expect(field).toHaveAccessibleDescription('Das Datum darf nicht vor dem 01.03.2026 liegen');
    expect(seen).toEqual([]);

    await act(() => i18n.changeLanguage('uk'));
    expect(field).toHaveAttribute('placeholder', 'ДД.ММ.РРРР');
    expect(field).toHaveAccessibleDescription('Дата не може бути раніше за 01.03.2026');
  });
});
