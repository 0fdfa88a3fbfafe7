import type { Language } from '@furniture/contracts';
import { dayIn, writer, type Body, type MailContext } from './mail-blocks';
import type { DonationMailKind } from './mail-types';

/** What one mail to a donor is about (from the donation event). */
export interface DonationMailFacts {
  kind: DonationMailKind;
  language: Language;
  donorName: string;
  donationId: number;
  itemCount: number;
  /** the last day the donor keeps the furniture for us (YYYY-MM-DD); the offer's mail only */
  availableUntil: string | null;
  /** the staff's words for the donor (a decline's reason); never the internal note */
  reason: string | null;
}

const ITEMS: Record<Language, Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }> = {
  de: { one: 'Möbelstück', other: 'Möbelstücke' },
  uk: { one: 'предмет', few: 'предмети', many: 'предметів', other: 'предмета' },
};

/** "3 Möbelstücke", "5 предметів": the count with its noun in the mail's language. */
function items(n: number, lang: Language): string {
  const words = ITEMS[lang];
  return `${n} ${words[new Intl.PluralRules(lang).select(n)] ?? words.other}`;
}

/**
 * The donor's mails (wave 3): the offer received, accepted (staff will call), declined (with the
 * staff's reason), collected (thanks), cancelled (the donor may give the furniture elsewhere) and
 * expired. Each names the donation's number, in the subject as in the text.
 */
export function donationBody(f: DonationMailFacts, ctx: MailContext): Body {
  const { say, para, mail } = writer(f.language, ctx);
  const id = f.donationId;
  const reason = f.reason?.trim()
    ? [para(`Der Grund: ${f.reason.trim()}`, `Причина: ${f.reason.trim()}`)]
    : [];
  const askWithNumber = para(
    `Wenn Sie Fragen haben oder sich etwas ändert, melden Sie sich gern bei uns und nennen Sie Ihre Spendennummer ${id}.`,
    `Якщо у Вас є запитання або щось зміниться, зв’яжіться з нами й назвіть номер пожертви: ${id}.`,
  );
  switch (f.kind) {
    case 'donation_received':
      return mail(
        say(`Ihre Spende Nr. ${id} ist eingegangen`, `Вашу пожертву № ${id} отримано`),
        para(
          `vielen Dank, dass Sie Möbel spenden möchten! Ihr Angebot (${items(f.itemCount, 'de')}) ist bei uns eingegangen. Ihre Spendennummer ist ${id}.`,
          `Дякуємо, що хочете пожертвувати меблі! Ми отримали Вашу пропозицію (${items(f.itemCount, 'uk')}). Номер Вашої пожертви: ${id}.`,
        ),
        para('So geht es weiter:', 'Що далі:'),
        {
          type: 'steps',
          items: [
            say(
              'Unser Team sieht sich Ihr Angebot und die Fotos an und meldet sich bei Ihnen.',
              'Наша команда перегляне Вашу пропозицію та фото і зв’яжеться з Вами.',
            ),
            say(
              'Die Möbel bleiben bei Ihnen, bis wir sie abholen. Bis dahin müssen Sie nichts weiter tun.',
              'Меблі залишаються у Вас, доки ми їх не заберемо. До того Вам нічого не потрібно робити.',
            ),
            ...(f.availableUntil
              ? [
                  say(
                    `Ihr Angebot gilt bis zum ${dayIn(f.availableUntil)}. Können wir die Möbel bis dahin nicht abholen, endet es von selbst, und Sie bekommen eine kurze Nachricht.`,
                    `Ваша пропозиція дійсна до ${dayIn(f.availableUntil)}. Якщо ми не зможемо забрати меблі до цієї дати, вона завершиться сама, і Ви отримаєте коротке повідомлення.`,
                  ),
                ]
              : []),
          ],
        },
        askWithNumber,
      );
    case 'donation_accepted':
      return mail(
        say(
          `Ihre Spende Nr. ${id}: Wir nehmen Ihre Möbel gern an`,
          `Ваша пожертва № ${id}: ми з радістю приймаємо Ваші меблі`,
        ),
        para(
          `gute Nachricht: Wir nehmen Ihr Angebot Nr. ${id} gern an. Herzlichen Dank!`,
          `Гарна новина: ми з радістю приймаємо Вашу пропозицію № ${id}. Щиро дякуємо!`,
        ),
        para(
          'Wir rufen Sie an, um einen Termin für die Abholung zu vereinbaren. Bis dahin bleiben die Möbel bei Ihnen.',
          'Ми зателефонуємо Вам, щоб домовитися про час, коли заберемо меблі. До того меблі залишаються у Вас.',
        ),
        askWithNumber,
      );
    case 'donation_declined':
      return mail(
        say(
          `Ihre Spende Nr. ${id}: leider können wir sie nicht annehmen`,
          `Ваша пожертва № ${id}: на жаль, ми не можемо її прийняти`,
        ),
        para(
          `vielen Dank für Ihr Angebot Nr. ${id}. Leider können wir die Möbel nicht annehmen.`,
          `Дякуємо за Вашу пропозицію № ${id}. На жаль, ми не можемо прийняти ці меблі.`,
        ),
        ...reason,
        para(
          'Wir danken Ihnen trotzdem herzlich, dass Sie an uns gedacht haben. Gern können Sie uns später wieder Möbel anbieten.',
          'Щиро дякуємо, що Ви подумали про нас. Ви можете запропонувати нам меблі знову згодом.',
        ),
      );
    case 'donation_collected':
      return mail(
        say(`Danke für Ihre Spende Nr. ${id}!`, `Дякуємо за Вашу пожертву № ${id}!`),
        para(
          `wir haben die Möbel Ihrer Spende Nr. ${id} abgeholt. Herzlichen Dank! Sie gehen kostenlos an Familien, die sie dringend brauchen.`,
          `Ми забрали меблі з Вашої пожертви № ${id}. Щиро дякуємо! Вони безкоштовно дістануться родинам, яким дуже потрібні.`,
        ),
        para(
          'Wenn Sie wieder Möbel abzugeben haben, freuen wir uns über Ihr nächstes Angebot.',
          'Якщо у Вас знову будуть меблі, які Ви хочете віддати, ми будемо раді Вашій новій пропозиції.',
        ),
      );
    case 'donation_cancelled':
      return mail(
        say(
          `Ihre Spende Nr. ${id}: Abholung abgesagt`,
          `Ваша пожертва № ${id}: вивезення скасовано`,
        ),
        para(
          `leider können wir die Möbel Ihres Angebots Nr. ${id} nun doch nicht abholen.`,
          `На жаль, ми все ж не зможемо забрати меблі з Вашої пропозиції № ${id}.`,
        ),
        ...reason,
        para(
          'Bitte entschuldigen Sie die Umstände. Sie können über die Möbel wieder frei verfügen. Vielen Dank, dass Sie an uns gedacht haben.',
          'Просимо вибачення за незручності. Ви можете вільно розпоряджатися цими меблями. Дякуємо, що подумали про нас.',
        ),
      );
    case 'donation_expired':
      return mail(
        say(
          `Ihre Spende Nr. ${id}: Angebot abgelaufen`,
          `Ваша пожертва № ${id}: термін пропозиції минув`,
        ),
        para(
          `der Zeitraum, in dem Sie die Möbel Ihres Angebots Nr. ${id} für uns bereithalten wollten, ist abgelaufen, ohne dass wir sie abholen konnten. Das Angebot ist damit beendet, und Sie können über die Möbel wieder frei verfügen.`,
          `Термін, протягом якого Ви були готові зберігати для нас меблі з пропозиції № ${id}, минув, а ми не встигли їх забрати. Тому пропозицію завершено, і Ви можете вільно розпоряджатися цими меблями.`,
        ),
        para(
          'Wenn die Möbel noch da sind und Sie sie weiterhin spenden möchten, bieten Sie sie uns gern erneut an oder melden Sie sich bei uns.',
          'Якщо меблі ще у Вас і Ви й надалі хочете їх пожертвувати, запропонуйте їх нам знову або зв’яжіться з нами.',
        ),
      );
  }
}
