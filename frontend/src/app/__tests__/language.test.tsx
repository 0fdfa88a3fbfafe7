import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { i18nOptions } from '../i18n';
import { renderApp } from '../../test/render';
import { catalogHandlers } from '../../test/fixtures';
import { server } from '../../test/server';
import { testResources } from '../../test/i18n';

/** A fresh i18next with the app's options, as on a first visit. */
async function detect(): Promise<string> {
  const instance = i18next.createInstance().use(LanguageDetector);
  await instance.init(i18nOptions(testResources));
  return instance.language;
}

function setNavigatorLanguages(languages: string[]) {
  Object.defineProperty(window.navigator, 'languages', { value: languages, configurable: true });
  Object.defineProperty(window.navigator, 'language', {
    value: languages[0],
    configurable: true,
  });
}

describe('language', () => {
  beforeEach(() => server.use(...catalogHandlers()));
  afterEach(() => {
    setNavigatorLanguages(['en-US']);
    window.history.replaceState(null, '', '/');
    document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  test('when the visitor presses UA, then the page turns Ukrainian, <html lang> is uk and the choice is kept in local storage', async () => {
    const { user } = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: /Gespendete Möbel/ });
    const banner = screen.getByRole('banner');
    await user.click(within(banner).getByRole('button', { name: 'UA Українська' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: /Подаровані меблі/ }),
    ).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('uk');
    expect(localStorage.getItem('i18nextLng')).toBe('uk');
    expect(within(banner).getByRole('button', { name: 'UA Українська' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await user.click(within(banner).getByRole('button', { name: 'DE Deutsch' }));
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem('i18nextLng')).toBe('de');
  });

  test('when a choice is stored, then the next visit starts in it, before the browser language', async () => {
    setNavigatorLanguages(['de-DE']);
    localStorage.setItem('i18nextLng', 'uk');
    expect(await detect()).toBe('uk');
  });

  test('when the browser speaks uk-UA and nothing is stored, then Ukrainian is chosen', async () => {
    setNavigatorLanguages(['uk-UA', 'de-DE']);
    expect(await detect()).toBe('uk');
  });

  test('when the address says ?lng=ua, then it wins over storage and cookie and means Ukrainian', async () => {
    localStorage.setItem('i18nextLng', 'de');
    document.cookie = 'i18next=de; path=/';
    window.history.replaceState(null, '', '/?lng=ua');
    expect(await detect()).toBe('uk');
  });

  test('when the cookie names a language, then it wins over local storage', async () => {
    localStorage.setItem('i18nextLng', 'de');
    document.cookie = 'i18next=uk; path=/';
    expect(await detect()).toBe('uk');
  });

  test('when the browser speaks only an unsupported language, then German is the fallback', async () => {
    setNavigatorLanguages(['en-US', 'fr-FR']);
    expect(await detect()).toBe('de');
  });
});
