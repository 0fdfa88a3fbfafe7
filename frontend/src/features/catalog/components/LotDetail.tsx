import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Clock, Mail, Phone } from 'lucide-react';
import type { LotStatus } from '@furniture/contracts/enums';
import { isApiError } from '../../../app/api';
import { contactPhoneHref, env } from '../../../config/env';
import { Breadcrumb } from '../../../components/Breadcrumb';
import { Spinner } from '../../../components/Spinner';
import { useLanguage } from '../../../lib/language';
import { conditionText } from '../../../lib/lot-condition';
import { localize, type LocalizedText } from '../../../lib/localized';
import { useCategories, useGetLotQuery } from '../api/catalog-api';
import { Gallery } from './Gallery';
import { LotNotFound } from './LotNotFound';
import { LotStatusBadge } from './LotStatusBadge';

/** What the parts of the page that act on a lot (apply, queue) need to know of it. */
export interface LotSummary {
  id: number;
  name: LocalizedText;
  status: LotStatus;
}

/**
 * /lots/{lotId}: gallery, name, status, id, descriptions, details and contact. The apply action
 * and the queue panel come from the applications feature (`actions`, `queue`).
 */
export function LotDetail({
  lotId,
  actions,
  queue,
}: {
  lotId: number;
  actions: (lot: LotSummary) => ReactNode;
  queue: (lot: LotSummary) => ReactNode;
}) {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const { data: lot, isLoading, isError, error, refetch } = useGetLotQuery(lotId);
  const { data: categories } = useCategories();

  if (isLoading) return <Spinner label={t('lot.loading')} className="min-h-[50vh]" />;
  if (isError || !lot) {
    const missing = isApiError(error) && (error.status === 404 || error.status === 400);
    return <LotNotFound onRetry={missing ? undefined : () => void refetch()} />;
  }

  const name = localize(lot.name, lang);
  const description = localize(lot.description, lang);
  const detailed = localize(lot.detailedDescription, lang);
  const category = categories?.find((c) => c.id === lot.categoryId);
  const categoryName = category ? localize(category.name, lang) : null;
  const summary: LotSummary = { id: lot.id, name: lot.name, status: lot.status };
  const details = (
    [
      ['dimensions', lot.dimensions],
      ['condition', conditionText(lot.condition, t)],
      ['location', lot.location],
      ['donor', lot.donor],
    ] as const
  ).filter(([, value]) => value.trim() !== '');

  return (
    <div className="container-page py-6 sm:py-8">
      <title>{`${name.text} – ${t('common:app.name')}`}</title>
      <Breadcrumb
        items={[
          { label: t('common:nav.home'), to: '/' },
          { label: t('categories.title'), to: '/categories' },
          ...(categoryName
            ? [
                {
                  label: categoryName.text,
                  to: `/categories/${lot.categoryId}`,
                  lang: categoryName.lang,
                },
              ]
            : []),
          { label: name.text, lang: name.lang },
        ]}
      />

      <div className="mt-4 grid gap-6 lg:grid-cols-2 lg:gap-10">
        <Gallery
          photos={lot.photos}
          large={lot.galleryPhotos}
          name={name.text}
          nameLang={name.lang}
        />

        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <LotStatusBadge status={lot.status} />
            <span className="text-slate-600">{t('lot.id', { id: lot.id })}</span>
          </div>
          <h1 lang={name.lang} className="text-2xl font-bold sm:text-3xl">
            {name.text}
          </h1>
          {description.text && (
            <p lang={description.lang} className="text-lg text-slate-800">
              {description.text}
            </p>
          )}
          <div>{actions(summary)}</div>
          {queue(summary)}
        </div>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-2 lg:gap-10">
        <section aria-labelledby="lot-details" className="card p-5">
          <h2 id="lot-details" className="text-xl font-semibold">
            {t('lot.detailsTitle')}
          </h2>
          {detailed.text && detailed.text !== description.text && (
            <p lang={detailed.lang} className="mt-3 whitespace-pre-line text-slate-800">
              {detailed.text}
            </p>
          )}
          {details.length > 0 ? (
            <dl className="mt-4 grid gap-3 sm:grid-cols-2">
              {details.map(([key, value]) => (
                <div key={key}>
                  <dt className="text-sm font-medium text-slate-600">{t(`lot.${key}`)}</dt>
                  <dd className="text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          ) : (
            !detailed.text && <p className="mt-3 text-slate-700">{t('lot.noDetails')}</p>
          )}
        </section>

        <section id="contact" aria-labelledby="lot-contact" className="card p-5" tabIndex={-1}>
          <h2 id="lot-contact" className="text-xl font-semibold">
            {t('lot.contactTitle')}
          </h2>
          <p className="mt-2 text-slate-700">{t('lot.contactText', { id: lot.id })}</p>
          <ul className="mt-3 flex flex-col gap-2">
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 shrink-0 text-blue-800" />
              <span className="sr-only">{t('common:footer.phone')}: </span>
              <a className="text-blue-800 underline underline-offset-4" href={contactPhoneHref}>
                {env.contactPhone}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 shrink-0 text-blue-800" />
              <span className="sr-only">{t('common:footer.email')}: </span>
              <a
                className="break-all text-blue-800 underline underline-offset-4"
                href={`mailto:${env.contactEmail}?subject=${encodeURIComponent(t('lot.mailSubject', { id: lot.id }))}`}
              >
                {env.contactEmail}
              </a>
            </li>
            <li className="flex items-center gap-2 text-slate-700">
              <Clock aria-hidden="true" className="size-4 shrink-0 text-blue-800" />
              {t('common:footer.officeHours')}
            </li>
          </ul>
        </section>
      </div>
    </div>
  );
}
