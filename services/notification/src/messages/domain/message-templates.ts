import type { Language } from '@furniture/contracts';
import type { MessageKind } from './message-types';

/**
 * The values a message's text is made of: nothing more personal than needed (public-site §5,
 * issue 30): the application's, wish's or donation's number, the lot's name and number, dates in
 * the family's language (the office's zone), a link on the public site or the family's handover
 * link, and the office's contact. Never the family's name or address.
 */
export type ParamName =
  | 'application'
  | 'ref'
  | 'donation'
  | 'lot'
  | 'lot_id'
  | 'queue'
  | 'date'
  | 'slot'
  | 'place'
  | 'link'
  | 'contact';

export interface MessageTemplate {
  /** the positional parameters {{1}}, {{2}}, … in this order */
  params: readonly ParamName[];
  /** the body in each language; `{site}` is the organisation's name (SITE_NAME) */
  de: string;
  uk: string;
}

const STOP = {
  de: ' Keine Nachrichten mehr? Antworten Sie STOP.',
  uk: ' Не бажаєте отримувати повідомлення? Надішліть СТОП.',
};

const t = (params: readonly ParamName[], de: string, uk: string): MessageTemplate => ({
  params,
  de: `{site}: ${de}${STOP.de}`,
  uk: `{site}: ${uk}${STOP.uk}`,
});

/**
 * Every message as WhatsApp template data (`mb_<kind>`, category UTILITY, positional body
 * parameters) in German and Ukrainian; the SMS carries the same text. A template never begins or
 * ends with a parameter (Meta refuses those).
 */
export const MessageTemplates: Record<MessageKind, MessageTemplate> = {
  submitted: t(
    ['application', 'lot', 'lot_id', 'queue', 'link', 'contact'],
    'Ihre Bewerbung Nr. {{1}} für „{{2}}“ (Lot-Nr. {{3}}) ist eingegangen. Ihr Platz in der Warteschlange: {{4}}. Stand prüfen: {{5}} Fragen: {{6}}.',
    'Вашу заявку № {{1}} на «{{2}}» (лот № {{3}}) отримано. Ваше місце в черзі: {{4}}. Перевірити статус: {{5}} Запитання: {{6}}.',
  ),
  approved: t(
    ['application', 'lot', 'lot_id', 'date', 'link', 'contact'],
    'Gute Nachricht! Ihre Bewerbung Nr. {{1}} wurde angenommen: „{{2}}“ (Lot-Nr. {{3}}) ist für Sie reserviert. Bitte holen Sie es bis zum {{4}} ab oder vereinbaren Sie eine Lieferung. Termin und Details: {{5}} Fragen: {{6}}.',
    'Гарна новина! Вашу заявку № {{1}} схвалено: «{{2}}» (лот № {{3}}) зарезервовано для Вас. Будь ласка, заберіть його до {{4}} або домовтеся про доставку. Запис і деталі: {{5}} Запитання: {{6}}.',
  ),
  rejected: t(
    ['application', 'lot', 'link', 'contact'],
    'Leider können wir Ihre Bewerbung Nr. {{1}} für „{{2}}“ nicht berücksichtigen. Es kommen regelmäßig neue Möbel hinzu: {{3}} Fragen: {{4}}.',
    'На жаль, ми не можемо задовольнити Вашу заявку № {{1}} на «{{2}}». Нові меблі з’являються регулярно: {{3}} Запитання: {{4}}.',
  ),
  completed: t(
    ['application', 'lot', 'link', 'contact'],
    'Die Übergabe von „{{2}}“ (Bewerbung Nr. {{1}}) ist abgeschlossen. Alles Gute! Weitere Angebote: {{3}} Fragen: {{4}}.',
    'Передачу «{{2}}» (заявка № {{1}}) завершено. Всього найкращого! Інші пропозиції: {{3}} Запитання: {{4}}.',
  ),
  reservation_cancelled: t(
    ['application', 'lot', 'link', 'contact'],
    'Die Reservierung von „{{2}}“ für Ihre Bewerbung Nr. {{1}} wurde aufgehoben. Ihre Bewerbung wartet wieder in der Warteschlange. Stand prüfen: {{3}} Fragen: {{4}}.',
    'Бронювання «{{2}}» за Вашою заявкою № {{1}} скасовано. Ваша заявка знову очікує в черзі. Перевірити статус: {{3}} Запитання: {{4}}.',
  ),
  reconsidered: t(
    ['application', 'lot', 'link', 'contact'],
    'Ihre Bewerbung Nr. {{1}} für „{{2}}“ ist wieder offen und wartet in der Warteschlange. Stand prüfen: {{3}} Fragen: {{4}}.',
    'Ваша заявка № {{1}} на «{{2}}» знову відкрита й очікує в черзі. Перевірити статус: {{3}} Запитання: {{4}}.',
  ),
  pickup_extended: t(
    ['application', 'lot', 'date', 'link', 'contact'],
    'Die Abholfrist für „{{2}}“ (Bewerbung Nr. {{1}}) wurde bis zum {{3}} verlängert. Stand prüfen: {{4}} Fragen: {{5}}.',
    'Термін, до якого можна забрати «{{2}}» (заявка № {{1}}), продовжено до {{3}}. Перевірити статус: {{4}} Запитання: {{5}}.',
  ),
  pickup_reminder: t(
    ['application', 'lot', 'date', 'link', 'contact'],
    'Erinnerung: Bitte holen Sie „{{2}}“ (Bewerbung Nr. {{1}}) bis zum {{3}} ab oder vereinbaren Sie eine Lieferung. Stand prüfen: {{4}} Fragen: {{5}}.',
    'Нагадування: будь ласка, заберіть «{{2}}» (заявка № {{1}}) до {{3}} або домовтеся про доставку. Перевірити статус: {{4}} Запитання: {{5}}.',
  ),
  wish_match: t(
    ['lot', 'lot_id', 'link', 'contact'],
    'Ein Lot passt zu Ihrem Wunsch: „{{1}}“ (Lot-Nr. {{2}}). Bewerben Sie sich auf der Seite des Lots: {{3}} Fragen: {{4}}.',
    'Лот відповідає Вашому побажанню: «{{1}}» (лот № {{2}}). Подайте заявку на сторінці лота: {{3}} Запитання: {{4}}.',
  ),
  donation_received: t(
    ['donation', 'contact'],
    'Vielen Dank! Ihr Spendenangebot Nr. {{1}} ist eingegangen. Wir melden uns bei Ihnen. Fragen: {{2}}.',
    'Дякуємо! Вашу пропозицію пожертви № {{1}} отримано. Ми зв’яжемося з Вами. Запитання: {{2}}.',
  ),
  donation_accepted: t(
    ['donation', 'contact'],
    'Gute Nachricht: Wir nehmen Ihre Spende Nr. {{1}} gern an und rufen Sie an, um die Abholung zu vereinbaren. Fragen: {{2}}.',
    'Гарна новина: ми з радістю приймаємо Вашу пожертву № {{1}} і зателефонуємо Вам, щоб домовитися про вивезення. Запитання: {{2}}.',
  ),
  donation_declined: t(
    ['donation', 'contact'],
    'Vielen Dank für Ihr Angebot Nr. {{1}}. Leider können wir die Möbel nicht annehmen. Fragen: {{2}}.',
    'Дякуємо за Вашу пропозицію № {{1}}. На жаль, ми не можемо прийняти ці меблі. Запитання: {{2}}.',
  ),
  donation_collected: t(
    ['donation', 'contact'],
    'Danke! Wir haben die Möbel Ihrer Spende Nr. {{1}} abgeholt. Sie gehen kostenlos an Familien, die sie brauchen. Fragen: {{2}}.',
    'Дякуємо! Ми забрали меблі з Вашої пожертви № {{1}}. Вони безкоштовно дістануться родинам, яким потрібні. Запитання: {{2}}.',
  ),
  donation_cancelled: t(
    ['donation', 'contact'],
    'Leider können wir die Möbel Ihres Angebots Nr. {{1}} nicht abholen. Sie können wieder frei darüber verfügen. Fragen: {{2}}.',
    'На жаль, ми не зможемо забрати меблі з Вашої пропозиції № {{1}}. Ви можете вільно ними розпоряджатися. Запитання: {{2}}.',
  ),
  donation_expired: t(
    ['donation', 'contact'],
    'Ihr Angebot Nr. {{1}} ist abgelaufen, ohne dass wir die Möbel abholen konnten. Sie können es uns gern erneut anbieten. Fragen: {{2}}.',
    'Термін Вашої пропозиції № {{1}} минув, а ми не встигли забрати меблі. Ви можете запропонувати їх знову. Запитання: {{2}}.',
  ),
  handover_booked: t(
    ['application', 'lot', 'slot', 'place', 'link', 'contact'],
    'Ihr Termin für „{{2}}“ (Bewerbung Nr. {{1}}): {{3}}, {{4}}. Ändern oder absagen: {{5}} Fragen: {{6}}.',
    'Ваш запис на «{{2}}» (заявка № {{1}}): {{3}}, {{4}}. Змінити або скасувати: {{5}} Запитання: {{6}}.',
  ),
  handover_cancelled: t(
    ['application', 'lot', 'slot', 'link', 'contact'],
    'Ihr Termin am {{3}} für „{{2}}“ (Bewerbung Nr. {{1}}) wurde abgesagt. Das Lot bleibt für Sie reserviert. Neuen Termin wählen: {{4}} Fragen: {{5}}.',
    'Ваш запис на {{3}} для «{{2}}» (заявка № {{1}}) скасовано. Лот залишається зарезервованим для Вас. Обрати новий час: {{4}} Запитання: {{5}}.',
  ),
  handover_reminder: t(
    ['application', 'lot', 'slot', 'place', 'link', 'contact'],
    'Erinnerung an Ihren Termin für „{{2}}“ (Bewerbung Nr. {{1}}): {{3}}, {{4}}. Details: {{5}} Fragen: {{6}}.',
    'Нагадування про Ваш запис на «{{2}}» (заявка № {{1}}): {{3}}, {{4}}. Деталі: {{5}} Запитання: {{6}}.',
  ),
  staff_call_office: t(
    ['ref', 'contact'],
    'Bitte melden Sie sich bei uns wegen Ihrer Anfrage Nr. {{1}}: {{2}}. Vielen Dank!',
    'Будь ласка, зв’яжіться з нами щодо Вашого звернення № {{1}}: {{2}}. Дякуємо!',
  ),
  staff_still_interested: t(
    ['ref', 'lot', 'contact'],
    'Haben Sie noch Interesse an {{2}} (Anfrage Nr. {{1}})? Bitte geben Sie uns kurz Bescheid: {{3}}.',
    'Чи Ви ще зацікавлені в {{2}} (звернення № {{1}})? Будь ласка, дайте нам знати: {{3}}.',
  ),
  staff_pickup_reminder: t(
    ['ref', 'lot', 'date', 'contact'],
    'Erinnerung: Bitte holen Sie {{2}} (Anfrage Nr. {{1}}) bis zum {{3}} ab. Fragen: {{4}}.',
    'Нагадування: будь ласка, заберіть {{2}} (звернення № {{1}}) до {{3}}. Запитання: {{4}}.',
  ),
};

export const MessageKinds = Object.keys(MessageTemplates) as MessageKind[];

/** The WhatsApp template's name of a kind. */
export const templateName = (kind: MessageKind): string => `mb_${kind}`;

/** A template's body for one language, with the organisation's name written in. */
export function templateBody(kind: MessageKind, lang: Language, siteName: string): string {
  return MessageTemplates[kind][lang].replace('{site}', siteName);
}

/**
 * A parameter's value as WhatsApp takes it: one line, no tabs, at most three spaces in a row
 * (the Cloud API refuses others), never empty.
 */
export function paramValue(value: string): string {
  const v = value
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {4,}/g, '   ')
    .trim();
  return v.length > 0 ? v.slice(0, 300) : '–';
}

/** The text a family reads: the body with its parameters written in. */
export function renderText(
  kind: MessageKind,
  lang: Language,
  siteName: string,
  params: readonly string[],
): string {
  return templateBody(kind, lang, siteName).replace(
    /\{\{(\d+)\}\}/g,
    (_m, n: string) => params[Number(n) - 1] ?? '',
  );
}

/** Example values of each parameter (a new template's submission needs them). */
export const ParamExamples: Record<ParamName, string> = {
  application: '1234',
  ref: '1234',
  donation: '56',
  lot: 'Ecksofa grau',
  lot_id: '789',
  queue: '2',
  date: '01.12.2026',
  slot: 'Dienstag, 01.12.2026, 10:00–12:00 Uhr',
  place: 'Lager Nord, Hafenweg 3, 13353 Berlin',
  link: 'https://example.org/check-status',
  contact: '+49 30 5550100',
};
