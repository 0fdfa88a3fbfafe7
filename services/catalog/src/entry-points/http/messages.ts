import type { Request } from 'express';
import type { LocalizedText } from '@furniture/contracts';
import { requestLanguage } from '@furniture/platform';

/** The `message` of success answers, in the request's language. */
const Messages = {
  category_loaded: { de: 'Kategorie geladen.', uk: 'Категорію завантажено.' },
  category_created: { de: 'Kategorie wurde erstellt.', uk: 'Категорію створено.' },
  category_updated: { de: 'Kategorie wurde gespeichert.', uk: 'Категорію збережено.' },
  category_deleted: { de: 'Kategorie wurde gelöscht.', uk: 'Категорію видалено.' },
  lot_deleted: { de: 'Lot wurde gelöscht.', uk: 'Лот видалено.' },
} as const satisfies Record<string, LocalizedText>;

export type MessageKey = keyof typeof Messages;

export function message(req: Request, key: MessageKey): string {
  return Messages[key][requestLanguage(req)];
}
