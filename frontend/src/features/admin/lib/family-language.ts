import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import type { Language } from '@furniture/contracts/enums';
import { i18n } from '../../../app/i18n';

/**
 * The back-office's texts in the family's language (issue 19): WhatsApp messages go out in the
 * language of the page the family used, whatever language staff work in. The other language's
 * bundle is loaded on first use.
 */
export function useFamilyT(language: Language): TFunction<'admin'> {
  const [, setLoaded] = useState(0);
  const ready = i18n.hasResourceBundle(language, 'admin');
  useEffect(() => {
    if (ready) return;
    let live = true;
    void i18n.loadLanguages(language).then(() => {
      if (live) setLoaded((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [language, ready]);
  return i18n.getFixedT(ready ? language : i18n.language, 'admin');
}
