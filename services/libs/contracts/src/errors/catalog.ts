import type { ErrorDefinition } from './types';

/** Catalog errors (categories and lots). */
export const catalogErrors = {
  CATEGORY_NOT_FOUND: {
    status: 404,
    de: 'Kategorie nicht gefunden.',
    uk: 'Категорію не знайдено.',
  },
  CATEGORY_INVALID_ID: {
    status: 400,
    de: 'Unbekannte Kategorie: {id}.',
    uk: 'Невідома категорія: {id}.',
  },
  CATEGORY_DUPLICATE_NAME: {
    status: 409,
    de: 'Eine Kategorie mit diesem Namen existiert bereits.',
    uk: 'Категорія з такою назвою вже існує.',
  },
  /** The back-office reads "n lots are associated" from this message (back-office §8). */
  CATEGORY_HAS_LOTS: {
    status: 409,
    de: 'Cannot delete category: {count} lots are associated with it. Die Kategorie kann nicht gelöscht werden, {count} Lots sind ihr zugeordnet.',
    uk: 'Cannot delete category: {count} lots are associated with it. Категорію не можна видалити: з нею пов’язано лотів: {count}.',
  },
  LOT_NOT_FOUND: {
    status: 404,
    de: 'Lot nicht gefunden',
    uk: 'Лот не знайдено',
  },
  /** the lot form names a category that does not exist (answered as a field error) */
  LOT_CATEGORY_NOT_FOUND: {
    status: 422,
    de: 'Die gewählte Kategorie existiert nicht.',
    uk: 'Обраної категорії не існує.',
  },
  /** the warehouse (issue 45) */
  STORAGE_PLACE_NOT_FOUND: {
    status: 404,
    de: 'Lagerplatz nicht gefunden.',
    uk: 'Місце на складі не знайдено.',
  },
  /** two places of one location with the same name (the unique key said so) */
  STORAGE_PLACE_DUPLICATE_NAME: {
    status: 409,
    de: 'An diesem Ort gibt es schon einen Lagerplatz mit diesem Namen.',
    uk: 'У цьому місці вже є місце на складі з такою назвою.',
  },
  /** a move names a place that does not exist (answered as a field error) */
  LOT_STORAGE_PLACE_NOT_FOUND: {
    status: 422,
    de: 'Der gewählte Lagerplatz existiert nicht.',
    uk: 'Обраного місця на складі не існує.',
  },
  /** GET /scan/{code}: no lot and no place has this code */
  LABEL_NOT_FOUND: {
    status: 404,
    de: 'Zu diesem Code gibt es weder ein Lot noch einen Lagerplatz. Bitte den Code prüfen.',
    uk: 'За цим кодом немає ні лота, ні місця на складі. Перевірте, будь ласка, код.',
  },
} as const satisfies Record<string, ErrorDefinition>;
