import type { Resource } from 'i18next';
import deCommon from '../../public/locales/de/common.json';
import dePublic from '../../public/locales/de/public.json';
import ukCommon from '../../public/locales/uk/common.json';
import ukPublic from '../../public/locales/uk/public.json';
import { i18n, initI18n } from '../app/i18n';

/** The translation files of the site, as the HTTP backend would load them. */
export const testResources: Resource = {
  de: { common: deCommon, public: dePublic },
  uk: { common: ukCommon, public: ukPublic },
};

/** Initialises the app's i18next synchronously from the JSON files (once per test file). */
export function initTestI18n() {
  if (!i18n.isInitialized) void initI18n({ resources: testResources });
  return i18n;
}
