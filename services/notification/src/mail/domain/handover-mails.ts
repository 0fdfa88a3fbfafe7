import type { Language, LocalizedText, SlotKind } from '@furniture/contracts';
import { slotTimeIn, writer, type Body, type Block, type MailContext } from './mail-blocks';
import type { HandoverMailKind } from './mail-types';

/** What one mail to a family about its handover slot is about (from the handover event). */
export interface HandoverMailFacts {
  kind: HandoverMailKind;
  language: Language;
  applicantName: string;
  applicationId: number;
  lotId: number;
  lotName: LocalizedText;
  slotKind: SlotKind;
  startsAt: string;
  endsAt: string;
  location: { name: string; address: string; city: string };
  /** the family's personal link (to book, change or cancel) */
  handoverUrl: string;
  /** booked: the booking moved here from another slot */
  moved: boolean;
  /** cancelled: who gave the slot back (a system cancellation is never mailed) */
  by: 'family' | 'staff' | null;
}

/**
 * The family's mails about its slot (issue 29): the booking confirmed (or moved), the slot given
 * back (by the family: a confirmation; by staff: please choose another), and the reminder the day
 * before. Each names the lot, the application's number, the kind, day and hours in the office's
 * zone, where (a pickup) and the personal link.
 */
export function handoverBody(f: HandoverMailFacts, ctx: MailContext, lot: string): Body {
  const { say, para, link, mail } = writer(f.language, ctx);
  const q = say(`„${lot}“`, `«${lot}»`);
  const id = f.applicationId;
  const when = slotTimeIn(f.startsAt, f.endsAt, f.language, ctx.timeZone);
  const pickup = f.slotKind !== 'delivery';
  const what = pickup ? say('Abholung', 'самовивіз') : say('Lieferung', 'доставка');
  const where = `${f.location.name}, ${f.location.address}, ${f.location.city}`;
  const details: Block = {
    type: 'steps',
    items: [
      say(`Was: ${what} von ${q} (Lot-Nr. ${f.lotId})`, `Що: ${what} ${q} (лот № ${f.lotId})`),
      say(`Wann: ${when.full}`, `Коли: ${when.full}`),
      pickup
        ? say(`Wo: ${where}`, `Де: ${where}`)
        : say(
            'Wo: bei Ihnen zu Hause (an der Adresse aus Ihrer Bewerbung)',
            'Де: у Вас удома (за адресою з Вашої заявки)',
          ),
    ],
  };
  const bring = pickup
    ? para(
        `Bitte nennen Sie bei der Abholung Ihre Bewerbungsnummer ${id}. Denken Sie an Helfer und ein passendes Fahrzeug für den Transport.`,
        `Під час отримання, будь ласка, назвіть номер Вашої заявки: ${id}. Подбайте про помічників і відповідний транспорт.`,
      )
    : para(
        `Bitte seien Sie in dieser Zeit zu Hause und telefonisch erreichbar. Nennen Sie bei der Übergabe Ihre Bewerbungsnummer ${id}.`,
        `Будь ласка, будьте в цей час удома й на зв’язку телефоном. Під час передачі назвіть номер Вашої заявки: ${id}.`,
      );
  const changeLink = link(
    say(
      'Termin ändern oder absagen (Ihr persönlicher Link, bitte nicht weitergeben):',
      'Змінити або скасувати запис (Ваше особисте посилання, будь ласка, не передавайте його іншим):',
    ),
    f.handoverUrl,
  );
  const chooseLink = link(
    say('Termin für Abholung oder Lieferung wählen:', 'Обрати час самовивозу або доставки:'),
    f.handoverUrl,
  );

  switch (f.kind) {
    case 'handover_booked':
      return mail(
        f.moved
          ? say(`Termin geändert: ${what} am ${when.day}`, `Запис змінено: ${what} ${when.day}`)
          : say(
              `Termin bestätigt: ${what} am ${when.day}`,
              `Запис підтверджено: ${what} ${when.day}`,
            ),
        f.moved
          ? para(
              `Ihr Termin für ${q} (Bewerbung Nr. ${id}) wurde verlegt. Ihr alter Termin gilt nicht mehr. Der neue Termin:`,
              `Ваш запис на ${q} (заявка № ${id}) перенесено. Попередній час більше не дійсний. Новий запис:`,
            )
          : para(
              `vielen Dank, Ihr Termin für ${q} (Bewerbung Nr. ${id}) ist gebucht:`,
              `Дякуємо, Ваш запис на ${q} (заявка № ${id}) підтверджено:`,
            ),
        details,
        bring,
        para(
          'Am Tag davor erinnern wir Sie noch einmal. Wenn der Termin nicht passt, ändern oder sagen Sie ihn bitte rechtzeitig ab, damit wir planen können.',
          'Напередодні ми Вам ще раз нагадаємо. Якщо час не підходить, будь ласка, змініть або скасуйте запис заздалегідь, щоб ми могли все спланувати.',
        ),
        changeLink,
      );
    case 'handover_cancelled':
      return f.by === 'family'
        ? mail(
            say(`Termin abgesagt: ${lot}`, `Запис скасовано: ${lot}`),
            para(
              `Sie haben Ihren Termin am ${when.full} für ${q} (Bewerbung Nr. ${id}) abgesagt.`,
              `Ви скасували свій запис на ${when.full} для ${q} (заявка № ${id}).`,
            ),
            para(
              `${q} bleibt bis zur Abholfrist für Sie reserviert. Bitte wählen Sie über Ihren persönlichen Link einen neuen Termin. Wenn Sie das Möbelstück nicht mehr brauchen, sagen Sie uns bitte kurz Bescheid.`,
              `${q} залишається зарезервованим для Вас до кінцевого терміну. Будь ласка, оберіть новий час за Вашим особистим посиланням. Якщо меблі Вам більше не потрібні, будь ласка, повідомте нас.`,
            ),
            chooseLink,
          )
        : mail(
            say(`Ihr Termin am ${when.day} wurde abgesagt`, `Ваш запис на ${when.day} скасовано`),
            para(
              `leider mussten wir Ihren Termin am ${when.full} für ${q} (Bewerbung Nr. ${id}) absagen. Bitte entschuldigen Sie die Umstände.`,
              `На жаль, нам довелося скасувати Ваш запис на ${when.full} для ${q} (заявка № ${id}). Просимо вибачення за незручності.`,
            ),
            para(
              `${q} bleibt für Sie reserviert. Bitte wählen Sie über Ihren persönlichen Link einen neuen Termin, oder melden Sie sich bei uns.`,
              `${q} залишається зарезервованим для Вас. Будь ласка, оберіть новий час за Вашим особистим посиланням або зверніться до нас.`,
            ),
            chooseLink,
          );
    case 'handover_reminder':
      return mail(
        say(
          `Erinnerung: ${what} am ${when.day}, ${when.from}`,
          `Нагадування: ${what} ${when.day} о ${when.from}`,
        ),
        para(
          `wir erinnern Sie an Ihren Termin für ${q} (Bewerbung Nr. ${id}):`,
          `Нагадуємо про Ваш запис на ${q} (заявка № ${id}):`,
        ),
        details,
        bring,
        para(
          'Wenn Sie nicht kommen können, melden Sie sich bitte so bald wie möglich bei uns (Kontakt unten), damit wir den Termin einer anderen Familie geben können.',
          'Якщо Ви не зможете, будь ласка, якомога швидше зверніться до нас (контакти нижче), щоб ми могли віддати цей час іншій родині.',
        ),
        link(say('Ihr Termin im Überblick:', 'Ваш запис:'), f.handoverUrl),
      );
  }
}
