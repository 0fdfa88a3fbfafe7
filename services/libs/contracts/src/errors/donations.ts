import type { DonationStatus } from '../enums';
import type { ErrorDefinition, LocalizedText } from './types';

/** A donation's status as the donor and staff read it (the placeholders of the errors below). */
export const DonationStatusLabels: Record<DonationStatus, LocalizedText> = {
  submitted: { de: 'eingegangen', uk: 'отримано' },
  accepted: { de: 'angenommen', uk: 'прийнято' },
  declined: { de: 'abgelehnt', uk: 'відхилено' },
  collected: { de: 'abgeholt', uk: 'забрано' },
  cancelled: { de: 'storniert', uk: 'скасовано' },
  expired: { de: 'abgelaufen', uk: 'прострочено' },
};

/** Donation errors (issue 28). */
export const donationErrors = {
  DONATION_NOT_FOUND: { status: 404, de: 'Spende nicht gefunden.', uk: 'Пожертву не знайдено.' },
  DONATION_ITEM_NOT_FOUND: {
    status: 404,
    de: 'Diesen Gegenstand gibt es in der Spende nicht.',
    uk: 'Такого предмета в пожертві немає.',
  },
  /** a status change DonationTransitions does not allow (`from`, `to`: status labels) */
  DONATION_TRANSITION_NOT_ALLOWED: {
    status: 409,
    de: 'Die Spende ist „{from}“ und kann nicht auf „{to}“ gesetzt werden.',
    uk: 'Пожертва має статус «{from}», її не можна змінити на «{to}».',
  },
  DONATION_NOT_ACCEPTED: {
    status: 409,
    de: 'Ein Lot kann erst angelegt werden, wenn die Spende angenommen ist (jetzt: „{status}“).',
    uk: 'Лот можна створити лише після того, як пожертву прийнято (зараз: «{status}»).',
  },
  DONATION_ITEM_HAS_LOT: {
    status: 409,
    de: 'Aus diesem Gegenstand wurde bereits Lot {lot_id} angelegt.',
    uk: 'З цього предмета вже створено лот {lot_id}.',
  },
  /** no, a wrong or an expired X-Donation-Token on a photo upload */
  DONATION_TOKEN_INVALID: {
    status: 401,
    de: 'Der Link zum Hochladen der Fotos ist ungültig oder abgelaufen. Fotos können nur in der ersten Stunde nach dem Absenden hinzugefügt werden.',
    uk: 'Посилання для завантаження фото недійсне або застаріло. Фото можна додати лише протягом години після надсилання.',
  },
} as const satisfies Record<string, ErrorDefinition>;
