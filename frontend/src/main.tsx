import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startEarlyLoads } from './app/early-loads';
import { initI18n } from './app/i18n';
import { earlyLoaders } from './app/router';
import './index.css';

void initI18n();
// after i18next's own first tick, which detects the language the API calls are made in
setTimeout(() => startEarlyLoads(window.location.pathname, earlyLoaders), 0);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
