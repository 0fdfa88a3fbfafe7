import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ArrowLeft,
  ExternalLink,
  Mail,
  MessageCircle,
  PackagePlus,
  Phone,
  Printer,
  RotateCcw,
} from 'lucide-react';
import type { DonationStatus } from '@furniture/contracts/enums';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { conditionText } from '../../../../lib/lot-condition';
import { formatPhone, whatsappLink } from '../../applications';
import { useGetAdminCategoriesQuery } from '../../categories';
import { useAppStore } from '../../../../app/hooks';
import { DonorPickupSection } from '../../handovers';
import { errorText } from '../../lib/errors';
import { useToast } from '../../ui/Toasts';
import { downloadLabelSheet } from '../../warehouse';
import { formatDate, formatDay } from '../../lib/dates';
import { MessagesSection } from '../../messages';
import { useFamilyT } from '../../lib/family-language';
import { DonationStatusBadge } from '../../ui/StatusBadges';
import { useGetDonationQuery, type Donation, type DonationItem } from '../api/donations-api';
import { canMakeLot, nextStatuses, photoUrls } from '../lib/donation-rules';
import { DonationStatusDialog } from './DonationStatusDialog';

/** Every lot made of the donation's items on one A4 sheet of labels (issue 45). */
function LabelSheetButton({ lotIds }: { lotIds: number[] }) {
  const { t } = useTranslation('admin');
  const store = useAppStore();
  const toast = useToast();
  if (lotIds.length === 0) return null;
  const print = async () => {
    try {
      await downloadLabelSheet(store, lotIds);
    } catch (error) {
      toast('error', errorText(error, t('warehouse.labelFailed')));
    }
  };
  return (
    <button type="button" className="btn-secondary" onClick={() => void print()}>
      <Printer aria-hidden="true" className="size-4" />
      {t('warehouse.printSheet', { count: lotIds.length })}
    </button>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card p-4 sm:p-5" aria-label={title}>
      <h2 className="mb-2 text-lg font-bold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-slate-600">{label}:</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

function ItemCard({ donation, item, n }: { donation: Donation; item: DonationItem; n: number }) {
  const { t } = useTranslation('admin');
  const categories = useGetAdminCategoriesQuery();
  const category = categories.data?.find((c) => c.id === item.category_id);
  const title = t('donations.itemTitle', { n });
  return (
    <li className="card flex flex-col gap-3 p-4 sm:p-5" aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-bold text-slate-900">
          {title}{' '}
          <span className="font-normal text-slate-700">
            · {category ? category.name.de : `#${item.category_id}`}
          </span>
        </h3>
        {item.lot_id ? (
          <Link to={`/admin/lots/${item.lot_id}`} className="btn-secondary">
            <ExternalLink aria-hidden="true" className="size-4" />
            {t('donations.viewLot', { id: item.lot_id })}
          </Link>
        ) : canMakeLot(donation, item) ? (
          <Link to={`/admin/donations/${donation.id}/items/${item.id}/lot`} className="btn-primary">
            <PackagePlus aria-hidden="true" className="size-4" />
            {t('donations.makeLot')}
            <span className="sr-only"> ({title})</span>
          </Link>
        ) : null}
      </div>
      <p className="whitespace-pre-line text-slate-900" lang={donation.language}>
        {item.description}
      </p>
      <dl className="grid gap-1 text-sm sm:grid-cols-3">
        <Fact label={t('donations.dimensions')}>{item.dimensions || '—'}</Fact>
        <Fact label={t('donations.condition')}>
          {item.condition ? conditionText(item.condition, t) : '—'}
        </Fact>
        <Fact label={t('donations.canDisassemble')}>
          {item.can_disassemble ? t('ui.yes') : t('ui.no')}
        </Fact>
      </dl>
      {item.photos.length > 0 ? (
        <ul
          className="grid grid-cols-3 gap-2 sm:grid-cols-5"
          aria-label={t('donations.photosOf', { n })}
        >
          {item.photos.map((photo, i) => {
            const urls = photoUrls(photo);
            return (
              <li key={`${urls.large}-${i}`}>
                <a href={urls.large} target="_blank" rel="noreferrer" className="block">
                  <img
                    src={urls.thumbnail}
                    alt={t('donations.photoN', { n: i + 1, item: n })}
                    className="aspect-square w-full rounded-lg object-cover"
                    loading="lazy"
                  />
                </a>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">{t('donations.noPhotos')}</p>
      )}
    </li>
  );
}

/** /admin/donations/{id}: donor, pickup, items with photos, history and the status actions. */
export default function DonationDetailPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const { donationId } = useParams();
  const id = Number(donationId);
  const valid = Number.isInteger(id) && id > 0;
  const donation = useGetDonationQuery(id, { skip: !valid, refetchOnMountOrArgChange: true });
  const donorT = useFamilyT(donation.data?.language ?? lang);
  const [action, setAction] = useState<DonationStatus | null>(null);

  const back = (
    <Link to="/admin/donations" className="btn-secondary">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('donations.backToList')}
    </Link>
  );

  if (valid && donation.isLoading) return <Spinner label={t('ui.loading')} />;
  if (!valid || donation.error || !donation.data) {
    return (
      <div role="alert" className="card flex flex-col items-center gap-4 px-4 py-10 text-center">
        <p className="text-lg font-bold text-slate-900">{t('donations.notFound')}</p>
        <div className="flex flex-wrap justify-center gap-2">
          {valid && (
            <button type="button" className="btn-primary" onClick={() => void donation.refetch()}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('ui.retry')}
            </button>
          )}
          {back}
        </div>
      </div>
    );
  }

  const data = donation.data;
  const title = t('donations.detailTitle', { id: data.id });
  // newest first
  const history = [...data.history].reverse();

  return (
    <div>
      <Link
        to="/admin/donations"
        className="mb-3 inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('donations.backToList')}
      </Link>
      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-3">
          <title>{`${title} – Möbelbrücke Admin`}</title>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          <DonationStatusBadge status={data.status} />
        </div>
        <div className="flex flex-wrap gap-2">
          {nextStatuses(data.status).map((status) => (
            <button
              key={status}
              type="button"
              className={
                status === 'declined' || status === 'cancelled' ? 'btn-secondary' : 'btn-primary'
              }
              onClick={() => setAction(status)}
            >
              {t(`donations.actions.${status}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <Section title={t('donations.donor')}>
          <p className="font-semibold text-slate-900">
            {data.donor_name || <span className="italic">{t('donations.erased')}</span>}
          </p>
          {data.donor_phone && (
            <ul className="mt-2 flex flex-col gap-1">
              <li className="flex items-center gap-2">
                <Phone aria-hidden="true" className="size-4 text-slate-500" />
                <a href={`tel:${data.donor_phone}`} className="text-blue-800 hover:underline">
                  <span className="sr-only">{t('donations.phone')}: </span>
                  {formatPhone(data.donor_phone)}
                </a>
              </li>
              <li className="flex items-center gap-2">
                <MessageCircle aria-hidden="true" className="size-4 text-slate-500" />
                <a
                  href={whatsappLink(
                    data.donor_phone,
                    // in the donor's language, whatever language staff work in
                    donorT('donations.whatsappMessage', { name: data.donor_name, id: data.id }),
                  )}
                  target="_blank"
                  rel="noreferrer"
                  className="font-medium text-green-800 hover:underline"
                >
                  {t('applications.whatsapp', { phone: formatPhone(data.donor_phone) })}
                </a>
              </li>
              {data.donor_email && (
                <li className="flex items-center gap-2">
                  <Mail aria-hidden="true" className="size-4 text-slate-500" />
                  <a
                    href={`mailto:${data.donor_email}`}
                    className="break-all text-blue-800 hover:underline"
                  >
                    {data.donor_email}
                  </a>
                </li>
              )}
            </ul>
          )}
          <dl className="mt-3 flex flex-col gap-1 text-sm">
            <Fact label={t('donations.languageLabel')}>
              {t(`donations.language.${data.language}`)}
            </Fact>
            <Fact label={t('donations.namePublic')}>
              {data.donor_name_public ? t('ui.yes') : t('ui.no')}
            </Fact>
          </dl>
        </Section>
        <Section title={t('donations.pickup')}>
          <dl className="flex flex-col gap-1">
            <Fact label={t('donations.address')}>
              {data.address}, {data.city}
            </Fact>
            <Fact label={t('donations.floor')}>
              {data.floor === null || data.floor === undefined
                ? '—'
                : data.floor === 0
                  ? t('donations.groundFloor')
                  : String(data.floor)}
              {data.has_elevator ? ` · ${t('donations.elevator')}` : ''}
            </Fact>
            <Fact label={t('donations.availableUntil')}>
              {formatDay(data.available_until, lang)}
            </Fact>
            <Fact label={t('donations.createdAt')}>{formatDate(data.created_at, lang)}</Fact>
          </dl>
        </Section>
      </div>

      {data.status === 'accepted' && (
        <div className="mt-5">
          <DonorPickupSection donationId={data.id} availableUntil={data.available_until} />
        </div>
      )}

      <div className="mt-6 mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-bold text-slate-900">
          {t('donations.itemsTitle', { n: data.items.length })}
        </h2>
        <LabelSheetButton lotIds={data.items.flatMap((i) => (i.lot_id ? [i.lot_id] : []))} />
      </div>
      <ol className="flex flex-col gap-4">
        {data.items.map((item, i) => (
          <ItemCard key={item.id} donation={data} item={item} n={i + 1} />
        ))}
      </ol>

      <div className="mt-6">
        <Section title={t('donations.history')}>
          {history.length === 0 ? (
            <p className="text-slate-700">{t('donations.noHistory')}</p>
          ) : (
            <ol className="flex flex-col gap-3">
              {history.map((entry, i) => (
                <li key={`${entry.at}-${i}`} className="border-l-4 border-slate-300 pl-3">
                  <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                    <time dateTime={entry.at}>{formatDate(entry.at, lang)}</time>
                    <DonationStatusBadge status={entry.to} />
                    <span>
                      {entry.by?.name || entry.by?.email || t(`donations.cause.${entry.cause}`)}
                    </span>
                  </p>
                  {entry.reason && (
                    <p className="mt-1 text-slate-900" lang={data.language}>
                      <span className="font-medium" lang={lang}>
                        {t('donations.reason')}:
                      </span>{' '}
                      {entry.reason}
                    </p>
                  )}
                  {entry.note && (
                    <p className="mt-1 text-slate-900">
                      <span className="font-medium">{t('donations.note')}:</span> {entry.note}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          )}
        </Section>
      </div>
      <div className="mt-6">
        <MessagesSection thread={{ donation_id: data.id }} />
      </div>
      {action && (
        <DonationStatusDialog donation={data} status={action} onClose={() => setAction(null)} />
      )}
    </div>
  );
}
