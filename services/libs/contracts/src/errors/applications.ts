import type { ErrorDefinition } from './types';

/**
 * Applications and wishes errors.
 *
 * Only ALREADY_APPLIED may contain "bereits eine Bewerbung" / "вже подали заявку": the public
 * client opens its duplicate dialog for any message holding one of these phrases.
 */
export const applicationErrors = {
  REFERRAL_NOT_FOUND: {
    status: 404,
    de: 'Vermittlung nicht gefunden.',
    uk: 'Направлення не знайдено.',
  },
  /**
   * A referrer made REFERRALS_PER_REFERRER_PER_DAY referrals today (issue 44: what a stolen
   * referrer account can make the platform send is bounded). retry_after: seconds to midnight.
   */
  REFERRAL_DAILY_LIMIT: {
    status: 429,
    de: 'Sie haben heute schon {limit} Familien vermittelt, so viele wie an einem Tag möglich. Morgen geht es weiter; in dringenden Fällen wenden Sie sich bitte an das Team.',
    uk: 'Сьогодні ви вже направили {limit} родин — це денний максимум. Завтра можна продовжити; у термінових випадках зверніться, будь ласка, до команди.',
  },
  /** The public client opens its duplicate dialog when the message holds one of these phrases. */
  ALREADY_APPLIED: {
    status: 409,
    de: 'Sie haben bereits eine Bewerbung für dieses Lot eingereicht.',
    uk: 'Ви вже подали заявку на цей лот.',
  },
  /** an erasure waits until the phone's applications and wishes are closed */
  PRIVACY_OPEN_RECORDS: {
    status: 409,
    de: 'Zu dieser Telefonnummer gibt es noch {applications} offene Bewerbung(en), {wishes} aktive(n) Wunsch/Wünsche und {donations} offene Spende(n). Bitte zuerst ablehnen bzw. stornieren, dann löschen.',
    uk: 'Для цього номера ще є відкриті заявки ({applications}), активні побажання ({wishes}) та відкриті пожертви ({donations}). Спочатку відхиліть або скасуйте їх, потім видаляйте.',
  },
  /** the phone's data is being erased at this moment: what was just sent is erased with it */
  ERASURE_RUNNING: {
    status: 409,
    de: 'Die Daten zu dieser Telefonnummer werden gerade auf Wunsch gelöscht; Ihre Angaben wurden deshalb nicht gespeichert. Bitte versuchen Sie es in ein paar Minuten noch einmal.',
    uk: 'Дані для цього номера телефону саме зараз видаляються на запит, тому ваші дані не збережено. Будь ласка, спробуйте ще раз за кілька хвилин.',
  },
  APPLICATION_NOT_FOUND: {
    status: 404,
    de: 'Bewerbung nicht gefunden.',
    uk: 'Заявку не знайдено.',
  },
  /** The lot is reserved, taken, archived or deleted: no new applications, no approval. */
  LOT_NOT_AVAILABLE: {
    status: 409,
    de: 'Dieses Lot ist derzeit nicht verfügbar.',
    uk: 'Цей лот наразі недоступний.',
  },
  TOO_MANY_OPEN_APPLICATIONS: {
    status: 409,
    de: 'Mit dieser Telefonnummer sind schon {count} offene Bewerbungen vorhanden. Bitte warten Sie auf eine Entscheidung, bevor Sie sich um weitere Lots bewerben.',
    uk: 'На цей номер телефону вже є відкриті заявки ({count}). Будь ласка, дочекайтеся рішення, перш ніж подавати заявки на інші лоти.',
  },
  /**
   * Public writes (applications, wishes) of one phone number beyond its budget (the per-address
   * budget answers RATE_LIMITED). The answer carries retry_after and a Retry-After header.
   */
  PHONE_RATE_LIMITED: {
    status: 429,
    de: 'Mit dieser Telefonnummer wurden gerade zu viele Anfragen gesendet. Bitte warten Sie etwa {minutes} Minuten und versuchen Sie es dann erneut.',
    uk: 'З цього номера телефону щойно надіслано забагато запитів. Будь ласка, зачекайте приблизно {minutes} хв і спробуйте ще раз.',
  },
  /** Approve while another application of the same lot holds the reservation. */
  LOT_ALREADY_RESERVED: {
    status: 409,
    de: 'Für dieses Lot ist schon eine andere Bewerbung genehmigt. Heben Sie zuerst deren Reservierung auf.',
    uk: 'Для цього лота вже схвалено іншу заявку. Спочатку скасуйте її резервування.',
  },
  /** A status change while the catalog has not yet answered an approval request. */
  APPROVAL_IN_PROGRESS: {
    status: 409,
    de: 'Die Genehmigung dieser Bewerbung läuft gerade (das Lot wird reserviert). Bitte warten Sie einen Moment.',
    uk: 'Схвалення цієї заявки триває (лот резервується). Будь ласка, зачекайте хвилинку.',
  },
  /** A pickup date before today. */
  PICKUP_DATE_IN_PAST: {
    status: 422,
    de: 'Das Abholdatum darf nicht in der Vergangenheit liegen.',
    uk: 'Дата отримання не може бути в минулому.',
  },
  /** A pickup date or a lapse for an application that is not approved. */
  PICKUP_NOT_APPROVED: {
    status: 409,
    de: 'Nur eine genehmigte Bewerbung hat eine Abholfrist.',
    uk: 'Термін отримання є лише у схваленої заявки.',
  },
  /** A wish notified about a lot that is not in its category or not available. */
  WISH_LOT_NOT_MATCHING: {
    status: 409,
    de: 'Dieses Lot passt nicht zu dem Wunsch (andere Kategorie oder nicht verfügbar).',
    uk: 'Цей лот не відповідає побажанню (інша категорія або недоступний).',
  },
  /** An Idempotency-Key header that is not a short token. */
  INVALID_IDEMPOTENCY_KEY: {
    status: 400,
    de: 'Ungültiger Idempotency-Key (1 bis 100 Zeichen: Buchstaben, Ziffern, Binde- und Unterstriche).',
    uk: 'Недійсний Idempotency-Key (від 1 до 100 символів: літери, цифри, дефіси та підкреслення).',
  },
  APPLICATION_TRANSITION_NOT_ALLOWED: {
    status: 409,
    de: 'Der Status einer Bewerbung kann nicht von „{from}“ zu „{to}“ geändert werden.',
    uk: 'Статус заявки не можна змінити з «{from}» на «{to}».',
  },
  APPLICATION_COMPLETED: {
    status: 409,
    de: 'Abgeschlossene Bewerbungen können nicht mehr geändert werden.',
    uk: 'Завершені заявки більше не можна змінювати.',
  },
  /** Someone else changed the application between loading and saving. */
  APPLICATION_CHANGED: {
    status: 409,
    de: 'Die Bewerbung wurde inzwischen geändert (Status jetzt: „{status}“). Bitte laden Sie die Seite neu.',
    uk: 'Заявку тим часом змінено (поточний статус: «{status}»). Будь ласка, оновіть сторінку.',
  },
  WISH_NOT_FOUND: { status: 404, de: 'Wunsch nicht gefunden', uk: 'Побажання не знайдено' },
  /** back-office §4: fulfilled is final. */
  WISH_FULFILLED: {
    status: 409,
    de: 'Erfüllte Wünsche können nicht mehr geändert werden.',
    uk: 'Виконані побажання більше не можна змінювати.',
  },
  WISH_TRANSITION_NOT_ALLOWED: {
    status: 409,
    de: 'Der Status eines Wunsches kann nicht von „{from}“ zu „{to}“ geändert werden.',
    uk: 'Статус побажання не можна змінити з «{from}» на «{to}».',
  },
  /** a prepared message (issue 30) to a wish that is no longer active */
  WISH_NOT_ACTIVE: {
    status: 409,
    de: 'Dieser Wunsch ist nicht mehr aktiv; Nachrichten gehen nur zu aktiven Wünschen.',
    uk: 'Це побажання вже не активне; повідомлення надсилаються лише щодо активних побажань.',
  },
} as const satisfies Record<string, ErrorDefinition>;
