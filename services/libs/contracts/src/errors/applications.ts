import type { ErrorDefinition } from './types';

/** Applications and wishes errors. */
export const applicationErrors = {
  /** The public client opens its duplicate dialog when the message holds one of these phrases. */
  ALREADY_APPLIED: {
    status: 409,
    de: 'Sie haben bereits eine Bewerbung für dieses Lot eingereicht.',
    uk: 'Ви вже подали заявку на цей лот.',
  },
  APPLICATION_NOT_FOUND: {
    status: 404,
    de: 'Bewerbung nicht gefunden.',
    uk: 'Заявку не знайдено.',
  },
  WISH_NOT_FOUND: { status: 404, de: 'Wunsch nicht gefunden', uk: 'Побажання не знайдено' },
} as const satisfies Record<string, ErrorDefinition>;
