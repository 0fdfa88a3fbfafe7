import type { HandoverStatus } from '../enums';
import type { ErrorDefinition, LocalizedText } from './types';

/** A handover's status in both languages (HANDOVER_CLOSED names it). */
export const HandoverStatusLabels: Record<HandoverStatus, LocalizedText> = {
  booked: { de: 'gebucht', uk: 'заброньовано' },
  done: { de: 'erledigt', uk: 'виконано' },
  absent: { de: 'nicht angetroffen', uk: 'не застали' },
  cancelled: { de: 'abgesagt', uk: 'скасовано' },
  missed: { de: 'verpasst', uk: 'пропущено' },
};

/** Handover errors (issue 29): locations, slots, bookings and the day plan. */
export const handoverErrors = {
  LOCATION_NOT_FOUND: { status: 404, de: 'Ort nicht gefunden.', uk: 'Місце не знайдено.' },
  SLOT_NOT_FOUND: { status: 404, de: 'Termin nicht gefunden.', uk: 'Час не знайдено.' },
  /** a token that is unknown, or whose application is no longer approved: says nothing more */
  HANDOVER_NOT_FOUND: {
    status: 404,
    de: 'Dieser Link ist nicht (mehr) gültig. Bitte wenden Sie sich an uns.',
    uk: 'Це посилання недійсне (або вже не діє). Будь ласка, зверніться до нас.',
  },
  /** the slot's places are all taken (also when others booked at the same moment) */
  SLOT_FULL: {
    status: 409,
    de: 'Dieser Termin ist inzwischen ausgebucht. Bitte wählen Sie einen anderen.',
    uk: 'На цей час уже немає місць. Будь ласка, оберіть інший.',
  },
  /** a slot the family may not book: another kind, after the pickup date, past, or inactive */
  SLOT_NOT_OFFERED: {
    status: 422,
    de: 'Dieser Termin steht für Sie nicht zur Auswahl.',
    uk: 'Цей час вам недоступний.',
  },
  /** DELETE /slots/{id} while families are booked on it */
  SLOT_BOOKED: {
    status: 409,
    de: 'Für diesen Termin gibt es Buchungen ({booked}). Bitte zuerst die Buchungen verschieben.',
    uk: 'На цей час є бронювання ({booked}). Спочатку перенесіть їх.',
  },
  /** a change or cancellation later than HANDOVER_CHANGE_HOURS before the slot */
  HANDOVER_CHANGE_CLOSED: {
    status: 409,
    de: 'Der Termin kann weniger als {hours} Stunden vorher nicht mehr online geändert werden. Bitte rufen Sie uns an.',
    uk: 'Менш ніж за {hours} год. до зустрічі час уже не можна змінити онлайн. Будь ласка, зателефонуйте нам.',
  },
  /** an outcome for a stop that already has one, or was cancelled */
  HANDOVER_CLOSED: {
    status: 409,
    de: 'Für diesen Termin ist bereits „{status}“ eingetragen.',
    uk: 'Для цієї зустрічі вже зазначено «{status}».',
  },
  HANDOVER_STOP_NOT_FOUND: {
    status: 404,
    de: 'Termin im Tagesplan nicht gefunden.',
    uk: 'Зустріч у плані на день не знайдено.',
  },
  /** a donor pickup for a donation that is not accepted, or already has a booked pickup */
  DONATION_PICKUP_NOT_ALLOWED: {
    status: 409,
    de: 'Für diese Spende kann keine Abholung gebucht werden (Status: „{status}“).',
    uk: 'Для цієї пожертви не можна призначити вивезення (статус: «{status}»).',
  },
  /** the item scanned at the handover (issue 45) is another lot than the booked one */
  WRONG_ITEM: {
    status: 409,
    de: 'Das ist Lot {scanned_id} {scanned_name}, gebucht ist Lot {booked_id} {booked_name}.',
    uk: 'Це лот {scanned_id} {scanned_name}, а заброньовано лот {booked_id} {booked_name}.',
  },
  /** the code scanned at the handover is no lot's (a typo, a place's label) */
  UNKNOWN_ITEM: {
    status: 409,
    de: 'Der Code {code} gehört zu keinem Lot, gebucht ist Lot {booked_id} {booked_name}.',
    uk: 'Код {code} не належить жодному лоту, а заброньовано лот {booked_id} {booked_name}.',
  },
  /** a scan at a donor pickup, which hands over no lot */
  HANDOVER_NO_LOT: {
    status: 409,
    de: 'Bei diesem Termin wird kein Lot übergeben.',
    uk: 'На цій зустрічі лот не передається.',
  },
  SLOT_PATTERN_TOO_MANY: {
    status: 422,
    de: 'Das Muster ergäbe {count} Termine; höchstens {max} auf einmal.',
    uk: 'За цим шаблоном вийде {count} слотів; щонайбільше {max} за раз.',
  },
} as const satisfies Record<string, ErrorDefinition>;
