import { act, screen, within } from '@testing-library/react';
import { i18n } from '../../../app/i18n';
import { renderApp } from '../../../test/render';

describe('public privacy page: retention period', () => {
  test('when a German visitor opens it, then it states that closed applications and wishes lose the personal data after 180 days', async () => {
    renderApp('/privacy-policy');
    const section = await screen.findByRole('region', {
      name: 'Wie lange wir die Daten speichern',
    });
    expect(
      within(section).getByText(/nach 180 Tagen ohne weitere Änderung automatisch/),
    ).toBeInTheDocument();
    expect(
      within(section).getByText(/Auf Ihre Anfrage löschen wir Ihre Daten sofort/),
    ).toBeInTheDocument();
  });

  test('when a Ukrainian visitor opens it, then the same period is stated in Ukrainian', async () => {
    await act(() => i18n.changeLanguage('uk'));
    try {
      renderApp('/privacy-policy');
      const section = await screen.findByRole('region', { name: 'Як довго ми зберігаємо дані' });
      expect(within(section).getByText(/через 180 днів без змін/)).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('de'));
    }
  });
});
