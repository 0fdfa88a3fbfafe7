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
} as const satisfies Record<string, ErrorDefinition>;
