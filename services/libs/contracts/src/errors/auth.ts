import type { ErrorDefinition } from './types';

export const authErrors = {
  INVALID_CREDENTIALS: {
    status: 401,
    de: 'E-Mail oder Passwort ist falsch.',
    uk: 'Неправильна електронна пошта або пароль.',
  },
  LOGIN_THROTTLED: {
    status: 429,
    de: 'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in {minutes} Minuten erneut.',
    uk: 'Забагато невдалих спроб входу. Спробуйте ще раз через {minutes} хв.',
  },
  SESSION_EXPIRED: {
    status: 401,
    de: 'Session expired',
    uk: 'Сесія закінчилася',
  },
  CURRENT_PASSWORD_WRONG: {
    status: 400,
    de: 'Das aktuelle Passwort ist falsch.',
    uk: 'Поточний пароль неправильний.',
  },
  PASSWORD_UNCHANGED: {
    status: 422,
    de: 'Neues Passwort muss sich vom aktuellen unterscheiden',
    uk: 'Новий пароль має відрізнятися від поточного',
  },
  PASSWORD_TOO_WEAK: {
    status: 422,
    de: 'Dieses Passwort ist zu leicht zu erraten. Bitte wählen Sie ein längeres, ungewöhnlicheres.',
    uk: 'Цей пароль занадто легко вгадати. Оберіть довший і незвичніший.',
  },
  EMAIL_TAKEN: {
    status: 409,
    de: 'Diese E-Mail-Adresse wird bereits verwendet.',
    uk: 'Ця електронна адреса вже використовується.',
  },
  AGENCY_NOT_FOUND: {
    status: 404,
    de: 'Partnerorganisation nicht gefunden.',
    uk: 'Організацію-партнера не знайдено.',
  },
  AGENCY_TAKEN: {
    status: 409,
    de: 'Eine Partnerorganisation mit diesem Namen gibt es bereits.',
    uk: 'Організація-партнер з такою назвою вже існує.',
  },
  AGENCY_INACTIVE: {
    status: 403,
    de: 'Ihre Partnerorganisation ist nicht mehr aktiv. Bitte wenden Sie sich an das Team.',
    uk: 'Ваша організація-партнер більше не активна. Зверніться до команди.',
  },
  INVITATION_NOT_FOUND: {
    status: 404,
    de: 'Diese Einladung gibt es nicht oder sie wurde schon verwendet.',
    uk: 'Це запрошення не існує або вже використане.',
  },
  USER_NOT_FOUND: { status: 404, de: 'Benutzer nicht gefunden.', uk: 'Користувача не знайдено.' },
  CANNOT_DELETE_SELF: {
    status: 409,
    de: 'Sie können Ihr eigenes Konto nicht löschen.',
    uk: 'Ви не можете видалити власний обліковий запис.',
  },
  LAST_ADMIN: {
    status: 409,
    de: 'Der letzte Administrator kann nicht entfernt oder herabgestuft werden.',
    uk: 'Останнього адміністратора не можна видалити або понизити.',
  },
} as const satisfies Record<string, ErrorDefinition>;
