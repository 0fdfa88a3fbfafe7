import { useTranslation } from 'react-i18next';
import { CalendarCheck, CalendarClock, MessageCircle } from 'lucide-react';
import { formatSlot } from '../../../../lib/berlin-time';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { whatsappLink } from '../../applications';
import { useFamilyT } from '../../lib/family-language';
import { CopyButton } from '../../ui/CopyButton';
import { useGetFamilyHandoverQuery } from '../api/handovers-api';

/** The parts of a staff application answer this section reads (issue 29 adds `handover_url`). */
export interface HandoverApplication {
  id: number;
  status: string;
  applicant_name: string;
  applicant_phone: string;
  applicant_whatsapp: string | null;
  language: 'de' | 'uk';
  lot: { name: { de: string; uk: string } } | null;
  handover_url?: string | null;
}

/** The token is the link's last part (/handover/{token}). */
function tokenOf(url: string): string | null {
  try {
    const last = new URL(url, 'http://x').pathname.split('/').filter(Boolean).pop();
    return last && /^[A-Za-z0-9_-]{20,100}$/.test(last) ? last : null;
  } catch {
    return null;
  }
}

/**
 * An approved application's booking link (issue 29): to copy or to send by WhatsApp in the
 * family's language, and the slot the family booked, if any.
 */
export function HandoverLinkSection({ application }: { application: HandoverApplication }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const familyT = useFamilyT(application.language);
  const url = application.handover_url ?? null;
  const token = url ? tokenOf(url) : null;
  const family = useGetFamilyHandoverQuery(token ?? '', { skip: !token });
  if (application.status !== 'approved' || !url) return null;
  const absolute = new URL(url, window.location.origin).toString();
  const whatsapp = application.applicant_whatsapp || application.applicant_phone;
  const erased = application.applicant_phone.startsWith('erased:');
  const lot = application.lot ? localize(application.lot.name, application.language).text : '';
  const message = familyT('handovers.link.whatsappMessage', {
    name: application.applicant_name,
    lot,
    url: absolute,
  });
  const booking = family.data?.booking ?? null;
  return (
    <section
      className="mt-3 rounded-lg bg-slate-50 px-3 py-3 text-sm"
      aria-label={t('handovers.link.title')}
    >
      <p className="font-semibold text-slate-900">{t('handovers.link.title')}</p>
      <p className="mt-1 font-mono break-all text-slate-800">{absolute}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <CopyButton text={absolute} label={t('handovers.link.copy')} />
        {!erased && (
          <a
            href={whatsappLink(whatsapp, message)}
            target="_blank"
            rel="noreferrer"
            className="btn-secondary text-green-900"
          >
            <MessageCircle aria-hidden="true" className="size-4" />
            {t('handovers.link.whatsapp')}
          </a>
        )}
      </div>
      {token && (
        <p className="mt-2 flex items-start gap-2 text-slate-900">
          {booking ? (
            <>
              <CalendarCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" />
              {t('handovers.link.booked', {
                kind: t(`handovers.kind.${booking.kind}`),
                when: formatSlot(booking.starts_at, booking.ends_at, lang),
                place: booking.location.name,
              })}
            </>
          ) : family.isSuccess ? (
            <>
              <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-600" />
              {t('handovers.link.notBooked')}
            </>
          ) : null}
        </p>
      )}
    </section>
  );
}
