import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { i18n } from '../../../app/i18n';
import { apiError, serveCatalog } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';

function item(id: number, created_at: string, status = 'pending') {
  return {
    id,
    status,
    lot_id: id * 10,
    created_at,
    lot_name: { de: `Lot ${id}`, uk: `Лот ${id}` },
  };
}

async function search(phone: string, opts: { lang?: 'de' | 'uk' } = {}) {
  if (opts.lang) await i18n.changeLanguage(opts.lang);
  const view = renderApp('/check-status');
  const input = await screen.findByRole('textbox', {
    name: opts.lang === 'uk' ? /Номер телефону/ : /Telefonnummer/,
  });
  if (phone) await view.user.type(input, phone);
  await view.user.click(
    screen.getByRole('button', {
      name: opts.lang === 'uk' ? 'Перевірити статус' : 'Status prüfen',
    }),
  );
  return { ...view, input };
}

describe('check-status page', () => {
  beforeEach(() => serveCatalog());

  test('when a number is looked up, then it is asked for normalized and the applications show newest first with number, lot, date and status', async () => {
    let asked = '';
    server.use(
      http.get(apiUrl('/applications/public/check-status/:phone'), ({ params }) => {
        asked = String(params.phone);
        return HttpResponse.json({
          applications: [
            item(1, '2026-03-01T09:00:00Z', 'rejected'),
            item(3, '2026-05-02T14:30:00Z', 'approved'),
            item(2, '2026-04-01T09:00:00Z'),
          ],
        });
      }),
    );
    await search('+49 (176) 123 45-67');

    const list = await screen.findByRole('list', { name: 'Ihre Bewerbungen' });
    const entries = within(list).getAllByRole('listitem');
    expect(entries.map((e) => within(e).getByText(/^Bewerbung Nr\./).textContent)).toEqual([
      'Bewerbung Nr. 3',
      'Bewerbung Nr. 2',
      'Bewerbung Nr. 1',
    ]);
    expect(asked).toBe('+491761234567');
    const newest = entries[0]!;
    expect(within(newest).getByRole('link', { name: 'Lot 3' })).toHaveAttribute('href', '/lots/30');
    expect(newest).toHaveTextContent('Genehmigt');
    expect(within(newest).getByText(/02\.05\.2026/)).toBeInTheDocument();
    expect(entries[2]).toHaveTextContent('Abgelehnt');
  });

  test('when the page is Ukrainian, then dates are written the Ukrainian way', async () => {
    server.use(
      http.get(apiUrl('/applications/public/check-status/:phone'), () =>
        HttpResponse.json({ applications: [item(3, '2026-05-02T14:30:00Z')] }),
      ),
    );
    await search('0176 1234567', { lang: 'uk' });
    const date = await screen.findByText(/2026/);
    expect(date.textContent).toBe(
      new Intl.DateTimeFormat('uk-UA', { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date('2026-05-02T14:30:00Z'),
      ),
    );
    expect(screen.getByText('На розгляді')).toBeInTheDocument();
  });

  test('when nothing is found, then the empty text shows, and a new search brings back an empty form', async () => {
    server.use(
      http.get(apiUrl('/applications/public/check-status/:phone'), () =>
        HttpResponse.json({ applications: [] }),
      ),
    );
    const { user } = await search('0176 1234567');
    expect(
      await screen.findByText('Für diese Nummer wurden keine Bewerbungen gefunden.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Neue Suche' }));
    const input = await screen.findByRole('textbox', { name: /Telefonnummer/ });
    expect(input).toHaveValue('');
  });

  test('when the lookup fails, then a message and a back-to-search button show, and the number is still there', async () => {
    server.use(
      http.get(apiUrl('/applications/public/check-status/:phone'), () =>
        apiError(500, 'INTERNAL', 'kaputt'),
      ),
    );
    const { user } = await search('0176 1234567');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Der Bewerbungsstatus konnte nicht abgerufen werden.',
    );
    await user.click(screen.getByRole('button', { name: 'Zurück zur Suche' }));
    expect(await screen.findByRole('textbox', { name: /Telefonnummer/ })).toHaveValue(
      '0176 1234567',
    );
  });

  test('when no number is given, then it asks for one (in Ukrainian on the Ukrainian page) and calls nothing', async () => {
    let called = false;
    server.use(
      http.get(apiUrl('/applications/public/check-status/:phone'), () => {
        called = true;
        return HttpResponse.json({ applications: [] });
      }),
    );
    const { input } = await search('', { lang: 'uk' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Будь ласка, введіть номер телефону.')).toBeInTheDocument();
    expect(input).toHaveFocus();
    expect(called).toBe(false);
  });

  test('when the number has letters, then the phone format message shows', async () => {
    await search('0176-abc');
    expect(screen.getByText(/Ungültige Telefonnummer/)).toBeInTheDocument();
  });
});
