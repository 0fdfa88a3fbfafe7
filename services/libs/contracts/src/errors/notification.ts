import type { ErrorDefinition } from './types';

/** Activity log errors. */
export const notificationErrors = {
  ACTIVITY_DATE_RANGE_INVALID: {
    status: 422,
    de: 'Das Startdatum liegt nach dem Enddatum.',
    uk: 'Дата початку пізніша за дату завершення.',
  },
  ACTIVITY_DETAILS_TOO_LARGE: {
    status: 422,
    de: 'Die Details sind zu umfangreich (höchstens {max} Zeichen).',
    uk: 'Деталі занадто великі (не більше {max} символів).',
  },
  /** messages (issue 30) */
  MESSAGE_NOT_FOUND: {
    status: 404,
    de: 'Nachricht nicht gefunden.',
    uk: 'Повідомлення не знайдено.',
  },
  /** resend of a message that has not failed (sent, delivered, waiting) */
  MESSAGE_NOT_FAILED: {
    status: 409,
    de: 'Diese Nachricht ist nicht fehlgeschlagen und kann nicht erneut gesendet werden.',
    uk: 'Це повідомлення не завершилося помилкою, його не можна надіслати повторно.',
  },
  /** neither WhatsApp nor SMS is configured */
  MESSAGES_OFF: {
    status: 409,
    de: 'Der Versand per WhatsApp und SMS ist nicht eingerichtet.',
    uk: 'Надсилання через WhatsApp і SMS не налаштовано.',
  },
  /** a provider callback whose signature does not match (or a wrong verify token) */
  MESSAGE_CALLBACK_FORBIDDEN: {
    status: 403,
    de: 'Die Signatur der Anfrage ist ungültig.',
    uk: 'Підпис запиту недійсний.',
  },
} as const satisfies Record<string, ErrorDefinition>;
