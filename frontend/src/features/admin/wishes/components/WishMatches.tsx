import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BellRing, MessageCircle } from 'lucide-react';
import type { Language } from '@furniture/contracts/enums';
import type { WishMatchLot } from '@furniture/contracts/api/applications';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { whatsappLink } from '../../applications';
import { formatDate } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { useFamilyT } from '../../lib/family-language';
import { useToast } from '../../ui/Toasts';
import { useGetLotWishMatchesQuery, useNotifyWishMutation, type Wish } from '../api/wishes-api';
import { truncate } from '../lib/wish-rules';

/**
 * Tells a wisher about a lot (issue 19): the server mails a family that gave an address, in its
 * language; otherwise the answer says so and staff send the prefilled WhatsApp message, also in
 * the family's language. Either way the wish gets a note and the log an entry.
 */
export function NotifyWishButton({
  wish,
  lot,
}: {
  wish: Pick<Wish, 'id' | 'applicant_name' | 'applicant_whatsapp' | 'language'>;
  lot: { id: number; name: { de: string; uk: string } };
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const familyT = useFamilyT(wish.language as Language);
  const [notify, { isLoading }] = useNotifyWishMutation();
  const [whatsapp, setWhatsapp] = useState<string | null>(null);

  const onNotify = async () => {
    try {
      const answer = await notify({ id: wish.id, lotId: lot.id }).unwrap();
      if (answer.channel === 'email') {
        toast('success', t('wishes.notifyMail'));
        return;
      }
      const url = `${window.location.origin}/lots/${lot.id}`;
      const message = familyT('wishes.matchWhatsappMessage', {
        name: wish.applicant_name,
        lot: lot.name[wish.language as Language] || lot.name.de,
        id: lot.id,
        url,
      });
      setWhatsapp(whatsappLink(wish.applicant_whatsapp, message));
      toast('success', t('wishes.notifyWhatsapp'));
    } catch (error) {
      toast('error', errorText(error, t('wishes.notifyFailed')));
    }
  };

  if (whatsapp) {
    return (
      <a
        href={whatsapp}
        target="_blank"
        rel="noreferrer"
        className="btn min-h-10 bg-green-700 px-3 text-sm text-white hover:bg-green-800"
      >
        <MessageCircle aria-hidden="true" className="size-4" />
        {t('wishes.openWhatsapp')}
      </a>
    );
  }
  return (
    <button
      type="button"
      onClick={() => void onNotify()}
      disabled={isLoading}
      className="btn min-h-10 border border-slate-300 bg-white px-3 text-sm text-slate-900 hover:bg-slate-100"
    >
      <BellRing aria-hidden="true" className="size-4" />
      {t('wishes.notify')}
    </button>
  );
}

/** The wish detail's matching lots: available lots of the wished category, each with notify. */
export function MatchingLots({ wish, lots }: { wish: Wish; lots: WishMatchLot[] }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  return (
    <section className="card p-4 sm:p-5" aria-labelledby="wish-matches">
      <h2 id="wish-matches" className="mb-1 text-lg font-bold text-slate-900">
        {t('wishes.matches')}
      </h2>
      {lots.length === 0 ? (
        <p className="text-slate-700">{t('wishes.noMatches')}</p>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-700">{t('wishes.matchesHint')}</p>
          <ul className="flex flex-col gap-2">
            {lots.map((lot) => (
              <li
                key={lot.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 p-3"
              >
                <Link to={`/admin/lots/${lot.id}`} className="font-medium text-blue-800 underline">
                  {lot.name[lang] || lot.name.de} <span className="text-slate-600">#{lot.id}</span>
                </Link>
                <NotifyWishButton wish={wish} lot={lot} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** The lot detail's matching wishes (issue 19): active wishes of its category, oldest first. */
export function LotWishMatches({
  lot,
}: {
  lot: { id: number; status: string; name: { de: string; uk: string } };
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const matches = useGetLotWishMatchesQuery(lot.id, { skip: lot.status !== 'available' });
  if (lot.status !== 'available') return null;
  const wishes = matches.data?.wishes ?? [];
  return (
    <section className="card p-4 sm:p-5" aria-labelledby="lot-wish-matches">
      <h2 id="lot-wish-matches" className="mb-1 text-lg font-bold text-slate-900">
        {t('lots.wishMatches')}
      </h2>
      {matches.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : wishes.length === 0 ? (
        <p className="text-slate-700">{t('lots.noWishMatches')}</p>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-700">{t('lots.wishMatchesHint')}</p>
          <ul className="flex flex-col gap-2">
            {wishes.map((wish) => (
              <li key={wish.id} className="rounded-lg border border-slate-200 p-3">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <Link
                      to={`/admin/wishes/${wish.id}`}
                      className="font-semibold text-blue-800 underline"
                    >
                      {wish.applicant_name}
                    </Link>{' '}
                    <span className="text-sm text-slate-600">
                      #{wish.id} · {formatDate(wish.created_at, lang, false)}
                    </span>
                    <p className="mt-1 text-slate-800">
                      {truncate(wish.furniture_description, 160)}
                    </p>
                  </div>
                  <NotifyWishButton wish={wish} lot={lot} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
