import type { ErrorDefinition } from './types';

/** Photo upload errors; the SPA maps the codes to the spec's messages. */
export const mediaErrors = {
  PHOTO_NOT_FOUND: { status: 404, de: 'Foto nicht gefunden.', uk: 'Фото не знайдено.' },
} as const satisfies Record<string, ErrorDefinition>;
