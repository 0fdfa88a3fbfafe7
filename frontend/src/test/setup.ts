import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { i18n } from '../app/i18n';
import { initTestI18n } from './i18n';
import { server } from './server';

initTestI18n();

// lazy pages and msw answers can take a while on a busy machine: the first test of a file loads
// its lazy page while make test runs the browser and fault suites beside it (seen over 3 s)
configure({ asyncUtilTimeout: 10000 });

// jsdom has no layout: scroll restoration and headless UI's observers need stand-ins
window.scrollTo = () => undefined;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  await i18n.changeLanguage('de');
  // after the change, which caches its language: every test starts as a first visit
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
