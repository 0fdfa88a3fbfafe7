import { useTranslation } from 'react-i18next';
import { SUPPORTED_LANGUAGES, currentLanguage, type AppLanguage } from '../i18n';

/** Labels of the switch as families know them: DE and UA (the code behind UA is 'uk'). */
const LABELS: Record<AppLanguage, string> = { de: 'DE', uk: 'UA' };
/** Each language names itself, whatever the page language is. */
const NAMES: Record<AppLanguage, string> = { de: 'Deutsch', uk: 'Українська' };

/** DE / UA switch; the detector caches the choice in local storage. */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const active = currentLanguage();
  return (
    <div
      role="group"
      aria-label={t('language.label')}
      className={`inline-flex rounded-lg border border-slate-300 bg-white p-0.5 ${className}`}
    >
      {SUPPORTED_LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          aria-pressed={active === lng}
          onClick={() => void i18n.changeLanguage(lng)}
          className={`min-h-9 min-w-10 rounded-md px-2 text-sm font-semibold ${
            active === lng ? 'bg-blue-800 text-white' : 'text-slate-800 hover:bg-slate-100'
          }`}
        >
          {LABELS[lng]}
          {/* the name starts with what the button shows, so voice control finds "UA" (WCAG 2.5.3) */}
          <span className="sr-only"> {NAMES[lng]}</span>
        </button>
      ))}
    </div>
  );
}
