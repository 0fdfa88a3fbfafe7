import type { ErrorDefinition } from './types';

export const commonErrors = {
  VALIDATION_FAILED: {
    status: 422,
    de: 'Bitte überprüfen Sie Ihre Eingaben und versuchen Sie es erneut.',
    uk: 'Будь ласка, перевірте введені дані та спробуйте ще раз.',
  },
  BAD_REQUEST: { status: 400, de: 'Ungültige Anfrage.', uk: 'Некоректний запит.' },
  INVALID_JSON: {
    status: 400,
    de: 'Der Anfrageinhalt ist kein gültiges JSON.',
    uk: 'Тіло запиту не є коректним JSON.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    de: 'Die Anfrage ist zu groß.',
    uk: 'Запит завеликий.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    de: 'Nicht unterstützter Inhaltstyp.',
    uk: 'Непідтримуваний тип вмісту.',
  },
  AUTH_REQUIRED: { status: 401, de: 'Authentication required', uk: 'Потрібна автентифікація' },
  TOKEN_INVALID: {
    status: 401,
    de: 'Ungültiges Token. Bitte melden Sie sich erneut an.',
    uk: 'Недійсний токен. Будь ласка, увійдіть знову.',
  },
  TOKEN_EXPIRED: {
    status: 401,
    de: 'Die Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
    uk: 'Сесія закінчилася. Будь ласка, увійдіть знову.',
  },
  FORBIDDEN: {
    status: 403,
    de: 'Keine Berechtigung für diese Aktion.',
    uk: 'Немає дозволу на цю дію.',
  },
  NOT_FOUND: { status: 404, de: 'Nicht gefunden.', uk: 'Не знайдено.' },
  ROUTE_NOT_FOUND: {
    status: 404,
    de: 'Diese Adresse gibt es nicht.',
    uk: 'Такої адреси не існує.',
  },
  METHOD_NOT_ALLOWED: { status: 405, de: 'Methode nicht erlaubt.', uk: 'Метод не дозволено.' },
  CONFLICT: {
    status: 409,
    de: 'Konflikt mit dem aktuellen Zustand.',
    uk: 'Конфлікт із поточним станом.',
  },
  STALE_VERSION: {
    status: 409,
    de: 'Dieser Eintrag wurde inzwischen von jemand anderem geändert. Bitte laden Sie ihn neu und übernehmen Sie Ihre Änderungen erneut.',
    uk: 'Цей запис тим часом змінив хтось інший. Будь ласка, перезавантажте його та внесіть зміни ще раз.',
  },
  RATE_LIMITED: {
    status: 429,
    de: 'Zu viele Anfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
    uk: 'Забагато запитів. Будь ласка, зачекайте трохи та спробуйте ще раз.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    de: 'Der Dienst ist vorübergehend nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
    uk: 'Сервіс тимчасово недоступний. Будь ласка, спробуйте ще раз за хвилину.',
  },
  /** shed under load (issue 48): answered at once with Retry-After instead of a long wait */
  SERVICE_BUSY: {
    status: 503,
    de: 'Gerade sind sehr viele Besucher hier. Wir versuchen es gleich noch einmal.',
    uk: 'Зараз тут дуже багато відвідувачів. Ми спробуємо ще раз за мить.',
  },
  /** the gateway could not complete a request (an error on its way through): that one only */
  BAD_GATEWAY: {
    status: 502,
    de: 'Die Anfrage konnte nicht bearbeitet werden. Bitte versuchen Sie es noch einmal.',
    uk: 'Не вдалося обробити запит. Будь ласка, спробуйте ще раз.',
  },
  INTERNAL: {
    status: 500,
    de: 'Ein unerwarteter Fehler ist aufgetreten.',
    uk: 'Сталася неочікувана помилка.',
  },
} as const satisfies Record<string, ErrorDefinition>;
