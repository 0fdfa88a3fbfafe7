import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { i18n } from '../../../app/i18n';
import { apiError, serveCatalog, lot, queueInfo } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl } from '../../../test/server';

describe('lot page', () => {
  test('when a lot is available, then name, status, id, descriptions, details and the apply button show', async () => {
    serveCatalog({
      lots: [
        lot(5, {
          detailed_description: { de: 'Aus einem Nichtraucherhaushalt.', uk: '' },
          donor: 'Familie Weber',
        }),
      ],
    });
    renderApp('/lots/5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sofa 5' })).toBeInTheDocument();
    expect(screen.getByText('Verfügbar')).toBeInTheDocument();
    expect(screen.getByText('Lot-Nr. 5')).toBeInTheDocument();
    expect(screen.getByText('Bequemes Sofa')).toBeInTheDocument();
    expect(screen.getByText('Aus einem Nichtraucherhaushalt.')).toBeInTheDocument();
    for (const [term, value] of [
      ['Maße', '200 × 90 cm'],
      ['Zustand', 'Gut'],
      ['Standort', 'Berlin'],
      ['Gespendet von', 'Familie Weber'],
    ] as const) {
      expect(screen.getByText(term).nextElementSibling).toHaveTextContent(value);
    }
    expect(screen.getByRole('button', { name: 'Jetzt bewerben' })).toBeEnabled();
    expect(screen.getByRole('heading', { name: 'Kontakt' })).toBeInTheDocument();
  });

  test('when the page is Ukrainian and a text has no Ukrainian version, then the German one shows, marked as German', async () => {
    await i18n.changeLanguage('uk');
    serveCatalog({ lots: [lot(5, { name: { de: 'Nur Deutsch', uk: '' } })] });
    renderApp('/lots/5');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Nur Deutsch' });
    expect(heading).toHaveAttribute('lang', 'de');
    expect(screen.getByText('Лот № 5')).toBeInTheDocument();
  });

  test.each([
    ['very_good', 'Дуже добрий'],
    ['sehr gut', 'Дуже добрий'],
    ['4/5', '4/5'],
  ] as const)(
    'when the page is Ukrainian and the condition is "%s", then it reads "%s"; donor and location as entered',
    async (condition, shown) => {
      await i18n.changeLanguage('uk');
      serveCatalog({ lots: [lot(5, { condition, donor: 'Familie Weber', location: 'Berlin' })] });
      renderApp('/lots/5');
      await screen.findByRole('heading', { level: 1 });
      for (const [term, value] of [
        ['Стан', shown],
        ['Місцезнаходження', 'Berlin'],
        ['Подарував(-ла)', 'Familie Weber'],
      ] as const) {
        expect(screen.getByText(term).nextElementSibling).toHaveTextContent(value);
      }
    },
  );

  test.each([
    ['reserved', 'link', 'Kontakt aufnehmen', true],
    ['transferred', 'button', 'Bereits übergeben', false],
    ['taken', 'button', 'Nicht verfügbar', false],
  ] as const)(
    'when the lot is %s, then there is no apply button but "%s %s"',
    async (status, role, name, enabled) => {
      serveCatalog({ lots: [lot(5, { status })] });
      renderApp('/lots/5');
      const action = await screen.findByRole(role, { name });
      if (enabled) expect(action).toHaveAttribute('href', '#contact');
      else expect(action).toBeDisabled();
      expect(screen.queryByRole('button', { name: 'Jetzt bewerben' })).not.toBeInTheDocument();
    },
  );

  test('when the lot is reserved, then the queue panel warns that it is taken for someone else', async () => {
    serveCatalog(
      { lots: [lot(5, { status: 'reserved' })] },
      http.get(apiUrl('/lots/5/applications-info'), () =>
        HttpResponse.json(queueInfo({ lot_status: 'reserved', can_apply: false })),
      ),
    );
    renderApp('/lots/5');
    expect(
      await screen.findByText(/bereits für eine andere Familie reserviert/),
    ).toBeInTheDocument();
  });

  test.each([
    [0, 'Noch niemand hat sich beworben – Sie können die erste Person sein.'],
    [1, 'Eine Person hat sich bereits beworben.'],
    [3, 'Einige Personen haben sich bereits beworben.'],
    [9, 'Viele Bewerbungen – hohe Nachfrage.'],
  ])('when %i families are queuing, then the panel says "%s"', async (count, hint) => {
    serveCatalog(
      { lots: [lot(5)] },
      http.get(apiUrl('/lots/5/applications-info'), () =>
        HttpResponse.json(queueInfo({ applications_count: count })),
      ),
    );
    renderApp('/lots/5');
    const panel = await screen.findByRole('region', { name: 'Warteschlange' });
    expect(await within(panel).findByText(hint)).toBeInTheDocument();
    expect(
      within(panel).getByText(`Offene Bewerbungen für dieses Lot: ${count}`),
    ).toBeInTheDocument();
  });

  test('when this tab applied for the lot before, then its status and place stand where the apply button was, asked with that phone', async () => {
    sessionStorage.setItem('moebelbruecke.applicantPhone', '+491761234567');
    let askedPhone: string | null = null;
    serveCatalog(
      { lots: [lot(5)] },
      http.get(apiUrl('/lots/5/applications-info'), ({ request }) => {
        askedPhone = new URL(request.url).searchParams.get('phone');
        return HttpResponse.json(
          queueInfo({
            applications_count: 2,
            user_has_application: true,
            queue_position: 2,
            user_application_status: 'pending',
          }),
        );
      }),
    );
    renderApp('/lots/5');
    expect(
      await screen.findByText('Sie haben sich bereits für dieses Lot beworben.'),
    ).toBeInTheDocument();
    const mine = screen.getByRole('status');
    expect(mine).toHaveTextContent('Sie haben sich bereits für dieses Lot beworben.');
    expect(within(mine).getByText('In Bearbeitung')).toBeInTheDocument();
    expect(within(mine).getByText('Ihr Platz in der Warteschlange: 2')).toBeInTheDocument();
    expect(within(mine).getByRole('link', { name: 'Status prüfen' })).toHaveAttribute(
      'href',
      '/check-status',
    );
    expect(screen.queryByRole('button', { name: 'Jetzt bewerben' })).not.toBeInTheDocument();
    expect(askedPhone).toBe('+491761234567');
  });

  test('when the lot does not exist, then the not-found view links back to the categories', async () => {
    serveCatalog({ lots: [] });
    renderApp('/lots/404');
    expect(await screen.findByRole('heading', { name: 'Lot nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zu den Kategorien' })).toHaveAttribute(
      'href',
      '/categories',
    );
    expect(screen.queryByRole('button', { name: 'Erneut versuchen' })).not.toBeInTheDocument();
  });

  test('when the lot cannot be loaded for another reason, then the not-found view also offers Retry', async () => {
    serveCatalog(
      {},
      http.get(apiUrl('/lots/5'), () => apiError(503, 'SERVICE_UNAVAILABLE', 'weg')),
    );
    renderApp('/lots/5');
    expect(await screen.findByRole('heading', { name: 'Lot nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });

  test('when the address is no lot id at all, then the not-found view shows without a call', async () => {
    serveCatalog({});
    renderApp('/lots/abc');
    expect(await screen.findByRole('heading', { name: 'Lot nicht gefunden' })).toBeInTheDocument();
  });
});
