import type { Language, LocalizedText } from '@furniture/contracts';
import { donationBody, type DonationMailFacts } from './donation-mails';
import { handoverBody, type HandoverMailFacts } from './handover-mails';
import {
  partnerBody,
  referralBody,
  type PartnerMailFacts,
  type ReferralMailFacts,
} from './partner-mails';
import { dayIn, writer, type Block, type Body, type MailContext } from './mail-blocks';
import type { FamilyMailKind, NoticeMailKind } from './mail-types';

export type { MailContext } from './mail-blocks';

/** What one mail to a family is about (from the application or wish event). */
export interface MailFacts {
  kind: FamilyMailKind;
  /** contracts ApplicationChangeReasons; null for a submission */
  reason: string | null;
  language: Language;
  applicantName: string;
  applicationId: number;
  lotId: number;
  lotName: LocalizedText;
  queuePosition?: number;
  /** the last day to pick the lot up (YYYY-MM-DD) */
  pickupBy?: string | null;
  /** an approval's personal link to book the pickup or delivery slot (issue 29) */
  handoverUrl?: string | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Phrases {
  quote(s: string): string;
  greeting(name: string): string;
  signature(site: string): string[];
  automatic: string;
  contactTitle: string;
  email: string;
  phone: string;
  address: string;
  hours: string;
  checkStatus: string;
  browse: string;
}

const phrases: Record<Language, Phrases> = {
  de: {
    quote: (s) => `„${s}“`,
    greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    signature: (site) => ['Viele Grüße', `Ihr Team von ${site}`],
    automatic:
      'Diese E-Mail wurde automatisch versendet. Bei Fragen antworten Sie einfach auf diese E-Mail oder melden Sie sich bei uns.',
    contactTitle: 'So erreichen Sie uns',
    email: 'E-Mail',
    phone: 'Telefon',
    address: 'Adresse',
    hours: 'Bürozeiten',
    checkStatus: 'Den Stand Ihrer Bewerbung können Sie jederzeit mit Ihrer Telefonnummer prüfen:',
    browse: 'Aktuelle Möbelangebote:',
  },
  uk: {
    quote: (s) => `«${s}»`,
    greeting: (name) => (name ? `Доброго дня, ${name}!` : 'Доброго дня!'),
    signature: (site) => ['З найкращими побажаннями,', `команда ${site}`],
    automatic:
      'Цей лист надіслано автоматично. Якщо у Вас є запитання, просто дайте відповідь на цей лист або зверніться до нас.',
    contactTitle: 'Як з нами зв’язатися',
    email: 'Ел. пошта',
    phone: 'Телефон',
    address: 'Адреса',
    hours: 'Години роботи',
    checkStatus: 'Перевірити статус заявки за номером телефону можна будь-коли:',
    browse: 'Актуальні пропозиції меблів:',
  },
};

/** The lot's name in the mail's language; the other language when that one was left empty. */
export function lotNameIn(name: LocalizedText, lang: Language, lotId: number): string {
  const other: Language = lang === 'de' ? 'uk' : 'de';
  return name[lang].trim() || name[other].trim() || `#${lotId}`;
}

function body(f: MailFacts, ctx: MailContext, lot: string): Body {
  const p = phrases[f.language];
  const { say, para, link, mail } = writer(f.language, ctx);
  const q = p.quote(lot);
  const id = f.applicationId;
  const statusLink = link(p.checkStatus, '/check-status');
  const browseLink = link(p.browse, '/categories');
  switch (f.kind) {
    case 'submitted':
      return mail(
        say(`Bewerbung Nr. ${id} eingegangen: ${lot}`, `Заявку № ${id} отримано: ${lot}`),
        para(
          `vielen Dank für Ihre Bewerbung für ${q} (Lot-Nr. ${f.lotId}). Ihre Bewerbungsnummer ist ${id}.`,
          `Дякуємо за Вашу заявку на ${q} (лот № ${f.lotId}). Номер Вашої заявки: ${id}.`,
        ),
        para(
          `Ihr Platz in der Warteschlange: ${f.queuePosition ?? '–'}. Bewerbungen werden in der Reihenfolge ihres Eingangs bearbeitet und von unserem Team einzeln geprüft. Sobald über Ihre Bewerbung entschieden ist, bekommen Sie eine weitere E-Mail.`,
          `Ваше місце в черзі: ${f.queuePosition ?? '–'}. Заявки розглядаються в порядку надходження, кожну з них перевіряє наша команда. Щойно буде ухвалено рішення, Ви отримаєте ще один лист.`,
        ),
        para('Alle Möbel werden kostenlos abgegeben.', 'Усі меблі передаються безкоштовно.'),
        statusLink,
      );
    case 'approved':
      return mail(
        say(
          `Gute Nachricht: ${q} ist für Sie reserviert`,
          `Гарна новина: ${q} зарезервовано для Вас`,
        ),
        para(
          `Ihre Bewerbung Nr. ${id} wurde angenommen. ${q} (Lot-Nr. ${f.lotId}) ist jetzt für Sie reserviert.`,
          `Вашу заявку № ${id} схвалено. ${q} (лот № ${f.lotId}) тепер зарезервовано для Вас.`,
        ),
        ...(f.pickupBy
          ? [
              para(
                `Bitte holen Sie es bis zum ${dayIn(f.pickupBy)} ab (oder vereinbaren Sie bis dahin eine Lieferung). Danach geben wir es an die nächste Familie in der Warteschlange weiter.`,
                `Будь ласка, заберіть його до ${dayIn(f.pickupBy)} (або домовтеся до цієї дати про доставку). Після цього ми передамо його наступній родині в черзі.`,
              ),
            ]
          : []),
        ...(f.handoverUrl
          ? [
              link(
                say(
                  'Termin für Abholung oder Lieferung wählen (Ihr persönlicher Link, bitte nicht weitergeben):',
                  'Обрати час самовивозу або доставки (Ваше особисте посилання, будь ласка, не передавайте його іншим):',
                ),
                f.handoverUrl,
              ),
            ]
          : []),
        para('So geht es weiter:', 'Що далі:'),
        {
          type: 'steps',
          items: [
            f.handoverUrl
              ? say(
                  'Wählen Sie über den Link oben einen freien Termin für die Abholung oder die Lieferung. Dort können Sie ihn auch später ändern oder absagen und in Ihren Kalender übernehmen.',
                  'Оберіть за посиланням вище вільний час для самовивозу або доставки. Там же Ви зможете пізніше змінити чи скасувати запис і додати його до свого календаря.',
                )
              : say(
                  'Wir melden uns in den nächsten Tagen telefonisch oder per WhatsApp bei Ihnen und vereinbaren mit Ihnen einen Termin für die Abholung oder die Lieferung.',
                  'Найближчими днями ми зв’яжемося з Вами телефоном або через WhatsApp і домовимося про час самовивозу чи доставки.',
                ),
            say(
              `Bitte nennen Sie bei der Übergabe Ihre Bewerbungsnummer ${id}.`,
              `Під час отримання, будь ласка, назвіть номер Вашої заявки: ${id}.`,
            ),
            say(
              'Wenn Sie das Möbelstück nicht mehr brauchen, sagen Sie uns bitte kurz Bescheid, damit eine andere Familie es bekommen kann.',
              'Якщо меблі Вам більше не потрібні, будь ласка, повідомте нас, щоб їх могла отримати інша родина.',
            ),
          ],
        },
        para(
          `Bei Fragen erreichen Sie uns ${ctx.office.hours.de}; die Kontaktdaten stehen unten.`,
          `Якщо у Вас є запитання, ми на зв’язку ${ctx.office.hours.uk}; контакти — нижче.`,
        ),
      );
    case 'rejected': {
      const why = f.reason ?? 'staff';
      const first =
        why === 'competitor_approved'
          ? para(
              `${q} wurde inzwischen einer anderen Familie zugesagt. Deshalb können wir Ihre Bewerbung Nr. ${id} leider nicht berücksichtigen.`,
              `${q} вже закріплено за іншою родиною. Тому, на жаль, ми не можемо задовольнити Вашу заявку № ${id}.`,
            )
          : why === 'lot_closed' || why === 'lot_deleted'
            ? para(
                `${q} ist leider nicht mehr verfügbar. Deshalb können wir Ihre Bewerbung Nr. ${id} nicht berücksichtigen.`,
                `На жаль, ${q} більше не доступний. Тому ми не можемо задовольнити Вашу заявку № ${id}.`,
              )
            : why === 'referral_expired'
              ? para(
                  `Ihre Bewerbung Nr. ${id} für ${q} wurde 30 Tage lang nicht entschieden und ist damit abgelaufen. Gern können Sie sich erneut bewerben.`,
                  `Вашу заявку № ${id} на ${q} не було розглянуто протягом 30 днів, тому її термін минув. Ви можете подати заявку знову.`,
                )
              : why === 'pickup_lapsed'
                ? para(
                    `die Abholfrist für ${q} (Bewerbung Nr. ${id}) ist abgelaufen. Deshalb haben wir das Lot an die nächste Familie in der Warteschlange weitergegeben.`,
                    `Термін, до якого потрібно було забрати ${q} (заявка № ${id}), минув. Тому ми передали лот наступній родині в черзі.`,
                  )
                : para(
                    `leider können wir Ihre Bewerbung Nr. ${id} für ${q} nicht berücksichtigen.`,
                    `На жаль, ми не можемо задовольнити Вашу заявку № ${id} на ${q}.`,
                  );
      return mail(
        say(
          `Ihre Bewerbung Nr. ${id}: leider keine Zusage`,
          `Ваша заявка № ${id}: на жаль, не схвалено`,
        ),
        first,
        para(
          'Bitte lassen Sie sich nicht entmutigen: Es kommen regelmäßig neue Möbel hinzu. Sie können sich gern wieder bewerben oder uns einen Wunsch schicken, welche Möbel Sie brauchen.',
          'Будь ласка, не засмучуйтеся: нові меблі з’являються регулярно. Ви можете подати нову заявку або надіслати нам побажання, які меблі Вам потрібні.',
        ),
        browseLink,
      );
    }
    case 'completed':
      return mail(
        say(`Übergabe abgeschlossen: ${lot}`, `Передачу завершено: ${lot}`),
        para(
          `die Übergabe von ${q} (Bewerbung Nr. ${id}) ist abgeschlossen. Wir hoffen, dass Ihnen die Möbel gute Dienste leisten, und wünschen Ihnen und Ihrer Familie alles Gute!`,
          `Передачу ${q} (заявка № ${id}) завершено. Сподіваємося, що меблі добре Вам послужать, і бажаємо Вам та Вашій родині всього найкращого!`,
        ),
        para(
          'Wenn Sie weitere Möbel brauchen, finden Sie neue Angebote auf unserer Seite.',
          'Якщо Вам потрібні ще меблі, нові пропозиції Ви знайдете на нашому сайті.',
        ),
        browseLink,
      );
    case 'reservation_cancelled':
      return mail(
        say(`Reservierung aufgehoben: ${lot}`, `Бронювання скасовано: ${lot}`),
        f.reason === 'reservation_failed'
          ? para(
              `leider ist ${q} doch nicht mehr verfügbar. Die Zusage zu Ihrer Bewerbung Nr. ${id} müssen wir deshalb zurücknehmen. Bitte entschuldigen Sie das Versehen.`,
              `На жаль, ${q} все ж таки більше не доступний. Тому ми змушені скасувати схвалення Вашої заявки № ${id}. Просимо вибачення за незручності.`,
            )
          : para(
              `die Reservierung von ${q} für Ihre Bewerbung Nr. ${id} wurde aufgehoben.`,
              `Бронювання ${q} за Вашою заявкою № ${id} скасовано.`,
            ),
        para(
          'Ihre Bewerbung ist wieder offen und wartet in der Warteschlange. Wir melden uns, sobald es Neuigkeiten gibt. Wenn Sie Fragen haben, sprechen Sie uns gern an.',
          'Ваша заявка знову відкрита й очікує в черзі. Ми повідомимо Вас, щойно будуть новини. Якщо у Вас є запитання, будь ласка, зверніться до нас.',
        ),
        statusLink,
      );
    case 'reconsidered': {
      const back = f.reason === 'reservation_cancelled';
      return mail(
        back
          ? say(`Wieder in der Warteschlange: ${lot}`, `Знову в черзі: ${lot}`)
          : say(
              `Ihre Bewerbung Nr. ${id} wird erneut geprüft`,
              `Вашу заявку № ${id} розглядають повторно`,
            ),
        back
          ? para(
              `gute Nachricht: Die Reservierung von ${q} (Lot-Nr. ${f.lotId}) für eine andere Familie wurde aufgehoben. Ihre Bewerbung Nr. ${id} ist deshalb wieder offen, an ihrem bisherigen Platz in der Warteschlange.`,
              `Гарна новина: бронювання ${q} (лот № ${f.lotId}) для іншої родини скасовано. Тому Ваша заявка № ${id} знову відкрита й займає своє попереднє місце в черзі.`,
            )
          : para(
              `Ihre Bewerbung Nr. ${id} für ${q} (Lot-Nr. ${f.lotId}) wird erneut geprüft. Sie ist wieder offen und wartet in der Warteschlange.`,
              `Вашу заявку № ${id} на ${q} (лот № ${f.lotId}) розглядають повторно. Вона знову відкрита й очікує в черзі.`,
            ),
        para(
          'Sie müssen nichts weiter tun. Sobald über Ihre Bewerbung entschieden ist, bekommen Sie eine weitere E-Mail.',
          'Вам нічого не потрібно робити. Щойно буде ухвалено рішення, Ви отримаєте ще один лист.',
        ),
        statusLink,
      );
    }
    case 'pickup_extended':
    case 'pickup_reminder': {
      const day = f.pickupBy ? dayIn(f.pickupBy) : '–';
      const reminder = f.kind === 'pickup_reminder';
      return mail(
        reminder
          ? say(`Erinnerung: ${q} bis zum ${day} abholen`, `Нагадування: заберіть ${q} до ${day}`)
          : say(`Neue Abholfrist für ${q}: ${day}`, `Новий термін для ${q}: ${day}`),
        reminder
          ? para(
              `${q} (Lot-Nr. ${f.lotId}, Bewerbung Nr. ${id}) ist für Sie reserviert. Bitte denken Sie daran, es bis zum ${day} abzuholen oder bis dahin eine Lieferung mit uns zu vereinbaren.`,
              `${q} (лот № ${f.lotId}, заявка № ${id}) зарезервовано для Вас. Будь ласка, не забудьте забрати його до ${day} або домовитися з нами про доставку до цієї дати.`,
            )
          : para(
              `die Abholfrist für ${q} (Bewerbung Nr. ${id}) wurde bis zum ${day} verlängert.`,
              `Термін, до якого можна забрати ${q} (заявка № ${id}), продовжено до ${day}.`,
            ),
        para(
          'Wenn Sie das Möbelstück nicht mehr brauchen oder der Termin nicht passt, melden Sie sich bitte kurz bei uns.',
          'Якщо меблі Вам більше не потрібні або дата не підходить, будь ласка, повідомте нас.',
        ),
        statusLink,
      );
    }
    case 'wish_match':
      return mail(
        say(`Ein Lot passt zu Ihrem Wunsch: ${lot}`, `Лот відповідає Вашому побажанню: ${lot}`),
        para(
          `Sie haben uns geschrieben, welche Möbel Sie brauchen. Jetzt ist ${q} (Lot-Nr. ${f.lotId}) eingetroffen und könnte zu Ihrem Wunsch passen.`,
          `Ви писали нам, які меблі Вам потрібні. Тепер у нас є ${q} (лот № ${f.lotId}), який може відповідати Вашому побажанню.`,
        ),
        para(
          'Wenn Sie es haben möchten, bewerben Sie sich bitte auf der Seite des Lots. Bewerbungen werden in der Reihenfolge ihres Eingangs bearbeitet.',
          'Якщо Ви хочете його отримати, подайте, будь ласка, заявку на сторінці лота. Заявки розглядаються в порядку надходження.',
        ),
        link(say('Zum Lot:', 'До лота:'), `/lots/${f.lotId}`),
      );
  }
}

function contactBlock(ctx: MailContext, lang: Language): Block {
  const p = phrases[lang];
  const lines: [string, string, string?][] = [];
  if (ctx.office.email) lines.push([p.email, ctx.office.email, `mailto:${ctx.office.email}`]);
  if (ctx.office.phone)
    lines.push([p.phone, ctx.office.phone, `tel:${ctx.office.phone.replace(/[^\d+]/g, '')}`]);
  if (ctx.office.address) lines.push([p.address, ctx.office.address]);
  lines.push([p.hours, ctx.office.hours[lang]]);
  return { type: 'contact', title: p.contactTitle, lines };
}

/** Keeps a subject on one line, whatever a lot's name holds. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** A mail of the messages module: its subject and paragraphs as given (issue 30). */
export interface NoticeMailFacts {
  kind: NoticeMailKind;
  language: Language;
  /** whom it greets; '' greets without a name */
  name: string;
  subject: string;
  paragraphs: string[];
}

type AnyMailFacts =
  | MailFacts
  | DonationMailFacts
  | HandoverMailFacts
  | NoticeMailFacts
  | PartnerMailFacts
  | ReferralMailFacts;

/** Whom the mail greets, and what it says. */
function bodyOf(facts: AnyMailFacts, ctx: MailContext): [name: string, body: Body] {
  if ('paragraphs' in facts)
    return [
      facts.name,
      {
        subject: facts.subject,
        blocks: facts.paragraphs.map((text) => ({ type: 'p' as const, text })),
      },
    ];
  if ('donationId' in facts) return [facts.donorName, donationBody(facts, ctx)];
  if ('agencyName' in facts) return [facts.name, partnerBody(facts, ctx)];
  if ('familyName' in facts) return [facts.name, referralBody(facts, ctx)];
  const lot = oneLine(lotNameIn(facts.lotName, facts.language, facts.lotId));
  if ('slotKind' in facts) return [facts.applicantName, handoverBody(facts, ctx, lot)];
  return [facts.applicantName, body(facts, ctx, lot)];
}

/** Renders one mail in the family's (or the donor's) language, as plain text and as HTML. */
export function renderMail(facts: AnyMailFacts, ctx: MailContext): RenderedMail {
  const lang = facts.language;
  const p = phrases[lang];
  const [name, { subject, blocks }] = bodyOf(facts, ctx);
  const all: Block[] = [
    { type: 'p', text: p.greeting(oneLine(name)) },
    ...blocks,
    contactBlock(ctx, lang),
  ];
  const signature = p.signature(ctx.siteName);
  return {
    subject: oneLine(`${subject} – ${ctx.siteName}`),
    text: renderText(all, signature, p.automatic),
    html: renderHtml(all, signature, p.automatic, lang, oneLine(subject)),
  };
}

function renderText(blocks: Block[], signature: string[], automatic: string): string {
  const parts = blocks.map((b) => {
    switch (b.type) {
      case 'p':
        return b.text;
      case 'steps':
        return b.items.map((item, i) => `${i + 1}. ${item}`).join('\n');
      case 'link':
        return `${b.text}\n${b.url}`;
      case 'contact':
        return [`${b.title}:`, ...b.lines.map(([label, value]) => `${label}: ${value}`)].join('\n');
    }
  });
  return `${[...parts, signature.join('\n'), '--', automatic].join('\n\n')}\n`;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Names and lot titles are typed by people: everything goes into the HTML escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function renderHtml(
  blocks: Block[],
  signature: string[],
  automatic: string,
  lang: Language,
  title: string,
): string {
  const text = 'margin:0 0 16px;line-height:1.5';
  const parts = blocks.map((b) => {
    switch (b.type) {
      case 'p':
        return `<p style="${text}">${escapeHtml(b.text)}</p>`;
      case 'steps':
        return `<ol style="${text};padding-left:20px">${b.items
          .map((item) => `<li style="margin-bottom:8px">${escapeHtml(item)}</li>`)
          .join('')}</ol>`;
      case 'link':
        return `<p style="${text}">${escapeHtml(b.text)}<br><a href="${escapeHtml(b.url)}" style="color:#1d4ed8">${escapeHtml(b.url)}</a></p>`;
      case 'contact':
        return `<div style="margin:24px 0 16px;padding:12px 16px;background:#f3f4f6;border-radius:8px"><p style="margin:0 0 8px;font-weight:bold">${escapeHtml(b.title)}</p>${b.lines
          .map(
            ([label, value, href]) =>
              `<p style="margin:0 0 4px">${escapeHtml(label)}: ${
                href
                  ? `<a href="${escapeHtml(href)}" style="color:#1d4ed8">${escapeHtml(value)}</a>`
                  : escapeHtml(value)
              }</p>`,
          )
          .join('')}</div>`;
    }
  });
  return [
    '<!DOCTYPE html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:0;background:#ffffff">',
    '<div style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:Arial,Helvetica,sans-serif;font-size:16px;color:#111827">',
    ...parts,
    `<p style="${text}">${signature.map(escapeHtml).join('<br>')}</p>`,
    `<p style="margin:24px 0 0;font-size:13px;color:#6b7280">${escapeHtml(automatic)}</p>`,
    '</div></body></html>',
  ].join('\n');
}
