import type { LocalizedText } from './errors/types';
import { formatMessage } from './errors';
import type { Language } from './enums';

/**
 * Field-level validation messages. Schemas name one of these keys as their custom message
 * (`z.string().min(1, 'required')`); everything else is translated from the zod issue code.
 */
export const ValidationMessages = {
  required: { de: 'Dieses Feld ist erforderlich', uk: "Це поле обов'язкове" },
  too_short: { de: 'Mindestens {count} Zeichen', uk: 'Щонайменше {count} символів' },
  too_long: { de: 'Höchstens {count} Zeichen', uk: 'Не більше {count} символів' },
  too_small_number: { de: 'Mindestens {count}', uk: 'Щонайменше {count}' },
  too_big_number: { de: 'Höchstens {count}', uk: 'Не більше {count}' },
  too_many_items: { de: 'Höchstens {count} Einträge', uk: 'Не більше {count} елементів' },
  invalid_type: { de: 'Ungültiger Wert', uk: 'Неприпустиме значення' },
  invalid_value: { de: 'Ungültiger Wert', uk: 'Неприпустиме значення' },
  invalid_email: { de: 'Ungültige E-Mail-Adresse', uk: 'Неправильний формат електронної пошти' },
  invalid_phone: { de: 'Ungültige Telefonnummer', uk: 'Неправильний формат номера телефону' },
  invalid_whatsapp: { de: 'Ungültige WhatsApp-Nummer', uk: 'Неправильний формат номера WhatsApp' },
  invalid_date: { de: 'Ungültiges Datum', uk: 'Неправильна дата' },
  invalid_role: { de: 'Ungültige Rolle', uk: 'Неправильна роль' },
  invalid_status: { de: 'Ungültiger Status', uk: 'Неправильний статус' },
  invalid_channel: { de: 'Ungültiger Kanal', uk: 'Неправильний канал' },
  invalid_template: { de: 'Unbekannte Nachrichtenvorlage', uk: 'Невідомий шаблон повідомлення' },
  thread_required: {
    de: 'Genau eine Bewerbung, ein Wunsch oder eine Spende ist anzugeben',
    uk: 'Потрібно вказати рівно одну заявку, одне побажання або одну пожертву',
  },
  agency_required: {
    de: 'Eine Partnerorganisation ist erforderlich',
    uk: "Організація-партнер обов'язкова",
  },
  city_required: { de: 'Ort ist erforderlich', uk: "Місто обов'язкове" },
  unknown_field: { de: 'Unbekanntes Feld', uk: 'Невідоме поле' },
  name_required: { de: 'Name ist erforderlich', uk: "Ім'я обов'язкове" },
  email_required: { de: 'E-Mail ist erforderlich', uk: "Електронна пошта обов'язкова" },
  password_required: { de: 'Passwort ist erforderlich', uk: "Пароль обов'язковий" },
  password_too_short: {
    de: 'Passwort muss mindestens 12 Zeichen haben',
    uk: 'Пароль має містити щонайменше 12 символів',
  },
  note_empty: { de: 'Notiz darf nicht leer sein', uk: 'Нотатка не може бути порожньою' },
  note_too_long: {
    de: 'Notiz darf höchstens 1000 Zeichen haben',
    uk: 'Нотатка може містити не більше 1000 символів',
  },
  reason_required_for_decline: {
    de: 'Für eine Absage ist ein Grund erforderlich',
    uk: 'Для відмови потрібно вказати причину',
  },
  consent_required: {
    de: 'Bitte stimmen Sie den Datenschutzhinweisen zu',
    uk: 'Будь ласка, погодьтеся з умовами захисту даних',
  },
  date_in_past: {
    de: 'Das Datum darf nicht in der Vergangenheit liegen',
    uk: 'Дата не може бути в минулому',
  },
  unknown_category: { de: 'Unbekannte Kategorie', uk: 'Невідома категорія' },
  note_required_for_rejection: {
    de: 'Für eine Ablehnung ist eine Notiz erforderlich',
    uk: 'Для відхилення потрібна нотатка',
  },
  name_de_required: { de: 'Deutscher Name ist erforderlich', uk: "Німецька назва обов'язкова" },
  name_uk_required: {
    de: 'Ukrainischer Name ist erforderlich',
    uk: "Українська назва обов'язкова",
  },
} as const satisfies Record<string, LocalizedText>;

export type ValidationMessageKey = keyof typeof ValidationMessages;

/** One field error as the spec's client reads it: `detail: [{loc, msg}]`. */
export interface FieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The subset of a zod v4 issue we translate (kept structural so the frontend needs no zod types). */
export interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
}

function isKey(message: string): message is ValidationMessageKey {
  return Object.prototype.hasOwnProperty.call(ValidationMessages, message);
}

/** A message key with the count it names, if any. */
function keyed(
  key: ValidationMessageKey,
  count?: number | bigint,
): { key: ValidationMessageKey; params: Record<string, number> } {
  return { key, params: count === undefined ? {} : { count: Number(count) } };
}

/** Translates one issue into the message key and parameters a UI shows. */
export function issueMessage(issue: IssueLike): ReturnType<typeof keyed> {
  if (isKey(issue.message)) return keyed(issue.message, issue.minimum ?? issue.maximum);
  switch (issue.code) {
    case 'invalid_type':
      return keyed(issue.input === undefined || issue.input === null ? 'required' : 'invalid_type');
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? keyed('required') : keyed('too_short', issue.minimum);
      return issue.origin === 'array'
        ? keyed('required')
        : keyed('too_small_number', issue.minimum);
    case 'too_big':
      if (issue.origin === 'string') return keyed('too_long', issue.maximum);
      if (issue.origin === 'array') return keyed('too_many_items', issue.maximum);
      return keyed('too_big_number', issue.maximum);
    case 'invalid_format':
      if (issue.format === 'email') return keyed('invalid_email');
      if (issue.format === 'datetime' || issue.format === 'date') return keyed('invalid_date');
      return keyed('invalid_value');
    case 'unrecognized_keys':
      return keyed('unknown_field');
    default:
      return keyed('invalid_value');
  }
}

export function translateIssue(
  issue: IssueLike,
  lang: Language,
  prefix: string[] = ['body'],
): FieldError {
  const { key, params } = issueMessage(issue);
  return {
    loc: [...prefix, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    msg: formatMessage(ValidationMessages[key][lang], params),
    type: key,
  };
}
