import { screen, within } from '@testing-library/react';
import { renderApp } from '../../test/render';
import { catalogHandlers } from '../../test/fixtures';
import { server } from '../../test/server';

describe('app shell', () => {
  beforeEach(() => server.use(...catalogHandlers()));

  test('when the home page opens, then the hero and its two buttons are shown in German', async () => {
    renderApp('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: /Gespendete Möbel/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Möbel ansehen/ })).toHaveAttribute(
      'href',
      '/categories',
    );
    expect(screen.getByRole('link', { name: /Bewerbungsstatus prüfen/ })).toHaveAttribute(
      'href',
      '/check-status',
    );
  });

  test('when a public page opens, then its footer names the licence and links to the source code (AGPL-3.0 § 13)', async () => {
    renderApp('/');
    const footer = await screen.findByRole('contentinfo');
    expect(footer).toHaveTextContent('Freie Software unter der AGPL-3.0');
    // the gateway leads it to SOURCE_URL
    expect(within(footer).getByRole('link', { name: 'Quellcode' })).toHaveAttribute(
      'href',
      '/api/v1/source',
    );
  });

  test('when an address is unknown, then the not-found page links home', async () => {
    renderApp('/no-such-page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Seite nicht gefunden' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
  });

  test('when an /admin address opens, then the back-office chunk renders without the public header', async () => {
    renderApp('/admin/login');
    // the login form of the back-office chunk (its texts are checked in the admin tests)
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(document.querySelector('form button[type="submit"]')).not.toBeNull();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });
});
