import { useEffect, useRef } from 'react';
import type { Language } from '@furniture/contracts/enums';
import { currentLanguage, i18n } from '../../../app/i18n';

/** Set for this tab once the visitor picked the other language on a handover page. */
const CHOSEN_KEY = 'handover-language-chosen';

function chosen(): boolean {
  try {
    return window.sessionStorage.getItem(CHOSEN_KEY) === '1';
  } catch {
    return false;
  }
}

function remember(): void {
  try {
    window.sessionStorage.setItem(CHOSEN_KEY, '1');
  } catch {
    // storage blocked: the choice holds until the page is left
  }
}

/**
 * The handover page opens in the family's language (the answer says which), unless the visitor
 * switched to the other one (then their choice holds in this tab, also after a reload).
 */
export function useFamilyLanguage(language: Language | undefined): void {
  const applied = useRef(false);
  useEffect(() => {
    if (!language) return;
    const onChange = (lng: string) => {
      if (applied.current && lng !== language) remember();
    };
    i18n.on('languageChanged', onChange);
    if (!applied.current) {
      applied.current = true;
      if (!chosen() && currentLanguage() !== language) void i18n.changeLanguage(language);
    }
    return () => i18n.off('languageChanged', onChange);
  }, [language]);
}
