import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, MessageCircle, RotateCcw } from 'lucide-react';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { useGetAdminCategoriesQuery } from '../../categories';
import { formatPhone, whatsappLink } from '../../applications';
import { formatDate } from '../../lib/dates';
import { useFamilyT } from '../../lib/family-language';
import { MessagesSection } from '../../messages';
import { WishStatusBadge } from '../../ui/StatusBadges';
import { useGetWishQuery } from '../api/wishes-api';
import { CategoryIconView } from '../../../catalog';
import { MatchingLots } from './WishMatches';
import { WishStatusDialog } from './WishStatusDialog';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card p-4 sm:p-5">
      <h2 className="mb-2 text-lg font-bold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/** /admin/wishes/{id} (back-office §2 Wish detail). */
export default function WishDetailPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const { wishId } = useParams();
  const id = Number(wishId);
  const valid = Number.isInteger(id) && id > 0;
  const wish = useGetWishQuery(id, { skip: !valid, refetchOnMountOrArgChange: true });
  const categories = useGetAdminCategoriesQuery();
  const [editing, setEditing] = useState(false);
  const familyT = useFamilyT(wish.data?.language ?? lang);

  const back = (
    <Link to="/admin/wishes" className="btn-secondary">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('wishes.backToList')}
    </Link>
  );

  if (valid && wish.isLoading) return <Spinner label={t('ui.loading')} />;
  if (!valid || wish.error || !wish.data) {
    return (
      <div role="alert" className="card flex flex-col items-center gap-4 px-4 py-10 text-center">
        <p className="text-lg font-bold text-slate-900">{t('wishes.notFound')}</p>
        <div className="flex flex-wrap justify-center gap-2">
          {valid && (
            <button type="button" className="btn-primary" onClick={() => void wish.refetch()}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('ui.retry')}
            </button>
          )}
          {back}
        </div>
      </div>
    );
  }

  const data = wish.data;
  const category = categories.data?.find((c) => c.id === data.furniture_category);
  const whatsapp = data.applicant_whatsapp || data.applicant_whatsapp_raw;
  // the family's data was erased (data protection): nothing more goes to it
  const erased = !whatsapp || whatsapp.startsWith('erased:');

  return (
    <div>
      <Link
        to="/admin/wishes"
        className="mb-3 inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('wishes.backToList')}
      </Link>
      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-3">
          <title>{`${t('wishes.detailTitle', { id: data.id })} – Möbelbrücke Admin`}</title>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
            {t('wishes.detailTitle', { id: data.id })}
          </h1>
          <WishStatusBadge status={data.status} />
        </div>
        <button type="button" className="btn-primary" onClick={() => setEditing(true)}>
          {t('wishes.changeStatus')}
        </button>
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <Section title={t('wishes.applicant')}>
          <p className="font-semibold text-slate-900">{data.applicant_name}</p>
          {whatsapp && (
            <a
              href={whatsappLink(
                whatsapp,
                // in the family's language (issue 19)
                familyT('wishes.whatsappMessage', {
                  name: data.applicant_name,
                }),
              )}
              target="_blank"
              rel="noreferrer"
              className="mt-1 inline-flex items-center gap-1 font-medium text-green-800 hover:underline"
            >
              <MessageCircle aria-hidden="true" className="size-4" />
              {t('applications.whatsapp', { phone: formatPhone(whatsapp) })}
            </a>
          )}
          {data.applicant_email && <p className="mt-1 text-slate-800">{data.applicant_email}</p>}
        </Section>
        <Section title={t('wishes.category')}>
          <p className="flex items-center gap-2 text-slate-900">
            {category ? (
              <>
                <CategoryIconView category={category} className="size-5" />
                {category.name.de}
              </>
            ) : (
              `#${data.furniture_category}`
            )}
          </p>
        </Section>
        <Section title={t('wishes.description')}>
          <p className="whitespace-pre-line text-slate-900">{data.furniture_description}</p>
        </Section>
        {data.admin_notes && (
          <Section title={t('wishes.adminNotes')}>
            <p className="whitespace-pre-line text-slate-900">{data.admin_notes}</p>
          </Section>
        )}
        <Section title={t('wishes.timeline')}>
          <ol className="flex flex-col gap-1 text-slate-800">
            <li>{t('wishes.createdOn', { date: formatDate(data.created_at, lang) })}</li>
            {data.updated_at !== data.created_at && (
              <li>{t('wishes.updatedOn', { date: formatDate(data.updated_at, lang) })}</li>
            )}
          </ol>
        </Section>
        {data.status === 'active' && <MatchingLots wish={data} lots={data.matching_lots ?? []} />}
        <MessagesSection
          thread={{ wish_id: data.id }}
          sendTo={erased ? undefined : { to: 'wish', id: data.id, language: data.language }}
          numbers={
            !erased
              ? [
                  {
                    phone: whatsapp,
                    label: t('messages.optOut.whatsappNumber', { phone: formatPhone(whatsapp) }),
                  },
                ]
              : []
          }
        />
      </div>
      {editing && <WishStatusDialog wish={data} onClose={() => setEditing(false)} />}
    </div>
  );
}
