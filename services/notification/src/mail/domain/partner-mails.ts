import type { Language } from '@furniture/contracts';
import { dayIn, writer, type Body, type MailContext } from './mail-blocks';
import type { PartnerMailKind } from './mail-types';

/** A referred family's news, for its referrer (issue 44). */
export interface ReferralMailFacts {
  kind: Exclude<PartnerMailKind, 'referrer_invitation'>;
  language: Language;
  /** the referrer */
  name: string;
  familyName: string;
  applicationId: number;
  lotLabel: string;
  /** approved: the last pickup day (YYYY-MM-DD) */
  pickupBy: string | null;
  /** approved or booked: the family's booking link, to help it book */
  handoverUrl: string | null;
  /** booked: when and where */
  slot: { startsAt: string; location: string } | null;
}

/** The referrer's mail about a referred family's application. */
export function referralBody(f: ReferralMailFacts, ctx: MailContext): Body {
  const { say, para, link, mail } = writer(f.language, ctx);
  const who = f.familyName;
  const ref = say(`Bewerbung Nr. ${f.applicationId}`, `Заявка № ${f.applicationId}`);
  const helpBook = f.handoverUrl
    ? [
        para(
          'Die Familie hat ihren persönlichen Link zur Terminbuchung auch selbst bekommen. Sie können ihr beim Buchen helfen:',
          'Родина також сама отримала особисте посилання для бронювання. Ви можете допомогти їй забронювати час:',
        ),
        link(say('Termin buchen', 'Забронювати час'), f.handoverUrl),
      ]
    : [];
  switch (f.kind) {
    case 'referral_approved':
      return mail(
        say(`${who}: genehmigt (${f.lotLabel})`, `${who}: схвалено (${f.lotLabel})`),
        para(
          `die Bewerbung von ${who} um ${f.lotLabel} (${ref}) wurde genehmigt.${f.pickupBy ? ` Die Möbel können bis zum ${dayIn(f.pickupBy)} abgeholt werden.` : ''}`,
          `заявку ${who} на ${f.lotLabel} (${ref}) схвалено.${f.pickupBy ? ` Меблі можна забрати до ${dayIn(f.pickupBy)}.` : ''}`,
        ),
        ...helpBook,
      );
    case 'referral_rejected':
      return mail(
        say(`${who}: leider nicht genehmigt`, `${who}: на жаль, не схвалено`),
        para(
          `die Bewerbung von ${who} um ${f.lotLabel} (${ref}) konnte leider nicht berücksichtigt werden. Die Familie wurde ebenfalls informiert. Gern können Sie sie für ein anderes Angebot anmelden.`,
          `на жаль, заявку ${who} на ${f.lotLabel} (${ref}) не вдалося задовольнити. Родину також повідомлено. Ви можете подати заявку на іншу пропозицію.`,
        ),
      );
    case 'referral_booked':
      return mail(
        say(`${who}: Termin gebucht`, `${who}: час заброньовано`),
        para(
          `für ${who} ist ein Termin zur Übergabe von ${f.lotLabel} (${ref}) gebucht${f.slot ? `: ${f.slot.location}` : ''}.`,
          `для ${who} заброньовано час передачі ${f.lotLabel} (${ref})${f.slot ? `: ${f.slot.location}` : ''}.`,
        ),
        ...helpBook,
      );
    case 'referral_expired':
      return mail(
        say(`${who}: Vermittlung abgelaufen`, `${who}: термін направлення минув`),
        para(
          `die Bewerbung von ${who} um ${f.lotLabel} (${ref}) wurde 30 Tage lang nicht entschieden und ist damit abgelaufen. Die Familie wurde ebenfalls informiert. Gern können Sie sie erneut anmelden.`,
          `заявку ${who} на ${f.lotLabel} (${ref}) не було розглянуто протягом 30 днів, тому термін направлення минув. Родину також повідомлено. Ви можете подати заявку знову.`,
        ),
      );
    case 'referral_handed_over':
      return mail(
        say(`${who}: Möbel übergeben`, `${who}: меблі передано`),
        para(
          `${who} hat ${f.lotLabel} (${ref}) erhalten. Vielen Dank für Ihre Begleitung!`,
          `Меблі ${f.lotLabel} (${ref}) передано родині: ${who}. Дякуємо за Ваш супровід!`,
        ),
      );
  }
}

/** What one mail to a partner agency's referrer is about (issue 44). */
export interface PartnerMailFacts {
  kind: 'referrer_invitation';
  language: Language;
  /** whom it greets: '' before the invitee has said its name */
  name: string;
  agencyName: string;
  /** the invitation's personal link */
  inviteUrl: string;
  /** the last day the link works (YYYY-MM-DD) */
  validUntil: string;
}

/** The invitation: the agency, the personal link, until when it works. */
export function partnerBody(f: PartnerMailFacts, ctx: MailContext): Body {
  const { say, para, link, mail } = writer(f.language, ctx);
  return mail(
    say(
      `Einladung: Familien von ${f.agencyName} bei uns anmelden`,
      `Запрошення: реєструйте родини від ${f.agencyName} у нас`,
    ),
    para(
      `Sie wurden eingeladen, für ${f.agencyName} Familien, die Sie begleiten, für Möbel anzumelden und zu sehen, wie es für sie weitergeht.`,
      `Вас запросили від імені ${f.agencyName} подавати заявки на меблі для родин, яких Ви супроводжуєте, і бачити, що з ними відбувається далі.`,
    ),
    para(
      `Über den folgenden persönlichen Link legen Sie Ihren Namen und Ihr Passwort fest. Er gilt einmal und bis zum ${dayIn(f.validUntil)}.`,
      `За цим особистим посиланням Ви вкажете своє ім’я та пароль. Воно діє один раз і до ${dayIn(f.validUntil)}.`,
    ),
    link(say('Einladung annehmen', 'Прийняти запрошення'), f.inviteUrl),
    para(
      'Bitte leiten Sie diesen Link nicht weiter. Wenn Sie die Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
      'Будь ласка, не пересилайте це посилання. Якщо Ви не чекали на запрошення, просто проігноруйте цей лист.',
    ),
  );
}
