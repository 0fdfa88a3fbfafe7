import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startEarlyLoads } from './app/early-loads';
import { initI18n } from './app/i18n';
import { earlyLoaders } from './app/router';
import './index.css';

/** The longest the first render waits for a deep link's page code and data (slow connections). */
const EARLY_PAGE_WAIT_MS = 1500;

const translations = initI18n();
// after i18next's own first tick, which detects the language the API calls are made in
const page = new Promise<void>((resolve) => {
  setTimeout(() => {
    void startEarlyLoads(window.location.pathname, earlyLoaders).then(resolve);
    setTimeout(resolve, EARLY_PAGE_WAIT_MS);
  }, 0);
});

// The first render waits for the translation files and the page's code and data, which load side
// by side: a first render without them would show the Suspense fallback or the page's spinner,
// and React holds back the content replacing a fallback for up to 300 ms. Nothing but a spinner
// would paint earlier, and the content replacing it later is what Lighthouse's LCP waits for.
// The render runs as a transition, which React splits into slices of a few milliseconds with
// the browser free in between; a plain first render is one long task of 100 to 300 ms on a slow
// phone (Lighthouse's Total Blocking Time).
void Promise.all([translations.catch(() => undefined), page]).then(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
