import type { ErrorDefinition } from './types';

/**
 * Photo upload errors. Each refusal has its own stable code, so the SPA can show the spec's
 * wording (back-office §5); the texts here are the server's own German and Ukrainian versions.
 * Upload refusal → spec category: PHOTO_FILE_MISSING no file; PHOTO_TOO_LARGE size;
 * PHOTO_INVALID_TYPE and PHOTO_TYPE_MISMATCH type; PHOTO_INVALID_EXTENSION extension;
 * PHOTO_TOO_SMALL too small; PHOTO_CORRUPT and PHOTO_TOO_MANY_PIXELS corrupt / not usable;
 * PHOTO_LIMIT_REACHED too many photos.
 */
export const mediaErrors = {
  PHOTO_NOT_FOUND: { status: 404, de: 'Foto nicht gefunden.', uk: 'Фото не знайдено.' },
  PHOTO_FILE_MISSING: {
    status: 400,
    de: 'Keine Datei ausgewählt.',
    uk: 'Файл не вибрано',
  },
  PHOTO_SINGLE_FILE_ONLY: {
    status: 400,
    de: 'Bitte genau eine Datei pro Anfrage im Feld „file“ senden.',
    uk: 'Надсилайте рівно один файл за запит у полі «file».',
  },
  PHOTO_TOO_LARGE: {
    status: 413,
    de: 'Die Datei ist zu groß. Erlaubt sind höchstens {max_mb} MB pro Foto.',
    uk: 'Файл занадто великий. Максимальний розмір — {max_mb} МБ.',
  },
  PHOTO_INVALID_EXTENSION: {
    status: 400,
    de: 'Ungültige Dateiendung. Erlaubt sind .jpg, .jpeg, .png und .webp.',
    uk: 'Неприпустиме розширення файлу. Дозволені .jpg, .jpeg, .png та .webp.',
  },
  PHOTO_INVALID_TYPE: {
    status: 415,
    de: 'Ungültiger Dateityp. Erlaubt sind JPEG, PNG und WebP.',
    uk: 'Неприпустимий тип файлу. Дозволені JPEG, PNG та WebP.',
  },
  PHOTO_TYPE_MISMATCH: {
    status: 400,
    de: 'Dateiendung, Dateityp und Inhalt der Datei passen nicht zusammen (erkannt: {detected}). Erlaubt sind JPEG, PNG und WebP.',
    uk: 'Розширення, тип і вміст файлу не збігаються (виявлено: {detected}). Дозволені JPEG, PNG та WebP.',
  },
  PHOTO_TOO_SMALL: {
    status: 400,
    de: 'Das Bild ist zu klein ({width}x{height} px). Mindestens {min_width}x{min_height} px.',
    uk: 'Зображення занадто мале ({width}x{height} px). Мінімум {min_width}x{min_height} px.',
  },
  PHOTO_TOO_MANY_PIXELS: {
    status: 400,
    de: 'Das Bild hat zu viele Pixel ({width}x{height}). Erlaubt sind höchstens {max_megapixels} Megapixel.',
    uk: 'Зображення має забагато пікселів ({width}x{height}). Дозволено не більше {max_megapixels} мегапікселів.',
  },
  PHOTO_CORRUPT: {
    status: 400,
    de: 'Die Datei ist beschädigt oder kein Bild.',
    uk: 'Файл пошкоджений або не є зображенням.',
  },
  PHOTO_LIMIT_REACHED: {
    status: 409,
    de: 'Maximale Anzahl von {max} Fotos würde überschritten. Sie können {remaining} weitere Fotos hinzufügen.',
    uk: 'Буде перевищено максимальну кількість фото ({max}). Ви можете додати ще {remaining} фото.',
  },
  PHOTO_PROCESSING_TIMEOUT: {
    status: 422,
    de: 'Das Bild konnte nicht rechtzeitig verarbeitet werden. Bitte laden Sie eine kleinere Version hoch.',
    uk: 'Не вдалося вчасно обробити зображення. Будь ласка, завантажте меншу версію.',
  },
  PHOTO_UPLOAD_INCOMPLETE: {
    status: 400,
    de: 'Der Upload wurde unterbrochen. Bitte versuchen Sie es erneut.',
    uk: 'Завантаження перервано. Будь ласка, спробуйте ще раз.',
  },
  PHOTO_UPLOADS_BUSY: {
    status: 503,
    de: 'Gerade werden sehr viele Fotos verarbeitet. Bitte versuchen Sie es in ein paar Sekunden erneut.',
    uk: 'Зараз обробляється дуже багато фото. Будь ласка, спробуйте ще раз за кілька секунд.',
  },
} as const satisfies Record<string, ErrorDefinition>;
