import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, ImageOff, Pencil, Trash2 } from 'lucide-react';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { conditionText } from '../../../../lib/lot-condition';
import { categoryLotCountText, useGetAdminCategoriesQuery } from '../../categories';
import { formatDate } from '../../lib/dates';
import { apiErrorOf, errorText } from '../../lib/errors';
import { EmptyState } from '../../ui/PageHeader';
import { LotStatusBadge } from '../../ui/StatusBadges';
import { useGetAdminLotQuery } from '../api/lots-api';
import { CategoryIconView } from '../../../catalog';
import { LotWishMatches } from '../../wishes';
import { LotWarehouseSection } from '../../warehouse';
import { DeleteLotDialog } from './DeleteLotDialog';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-slate-900">{children || '–'}</dd>
    </div>
  );
}

/** /admin/lots/{id} (back-office §2 Lot detail). */
export default function LotDetailPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const navigate = useNavigate();
  const { lotId } = useParams();
  const id = Number(lotId);
  const lot = useGetAdminLotQuery(id, {
    skip: !Number.isInteger(id) || id <= 0,
    refetchOnMountOrArgChange: true,
  });
  const categories = useGetAdminCategoriesQuery();
  const [deleting, setDeleting] = useState(false);

  if (lot.isLoading) return <Spinner label={t('ui.loading')} />;
  const notFound = !Number.isInteger(id) || id <= 0 || apiErrorOf(lot.error)?.status === 404;
  if (notFound || !lot.data) {
    return (
      <div className="flex flex-col items-start gap-4">
        {notFound ? (
          <EmptyState title={t('lots.notFound')} text={t('lots.notFoundText')} />
        ) : (
          <ErrorState
            message={errorText(lot.error, t('lots.loadOneFailed'))}
            onRetry={() => void lot.refetch()}
          />
        )}
        <Link to="/admin/lots" className="btn-secondary">
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t('lots.backToList')}
        </Link>
      </div>
    );
  }

  const data = lot.data;
  const category = categories.data?.find((c) => c.id === data.category_id);
  const detailDiffers = (l: 'de' | 'uk') =>
    data.detailed_description[l].trim() !== '' &&
    data.detailed_description[l].trim() !== data.description[l].trim();
  const gallery = data.gallery_photos.length > 0 ? data.gallery_photos : data.photos;

  return (
    <div>
      <Link
        to="/admin/lots"
        className="mb-3 inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('lots.backToList')}
      </Link>
      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <title>{`${data.name.de} – Möbelbrücke Admin`}</title>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{data.name.de}</h1>
            <LotStatusBadge status={data.status} />
          </div>
          {data.name.uk && (
            <p lang="uk" className="text-lg text-slate-700">
              {data.name.uk}
            </p>
          )}
          <p className="text-sm whitespace-nowrap text-slate-600">ID {data.id}</p>
        </div>
        <div className="flex gap-2">
          <Link to={`/admin/lots/${data.id}/edit`} className="btn-primary">
            <Pencil aria-hidden="true" className="size-4" />
            {t('ui.edit')}
          </Link>
          <button
            type="button"
            className="btn-secondary text-red-800"
            onClick={() => setDeleting(true)}
          >
            <Trash2 aria-hidden="true" className="size-4" />
            {t('ui.delete')}
          </button>
        </div>
      </div>

      <div className="grid gap-5 lg:grid-cols-[2fr_1fr]">
        <div className="flex flex-col gap-5">
          <section className="card p-4 sm:p-5" aria-labelledby="lot-gallery">
            <h2 id="lot-gallery" className="mb-3 text-lg font-bold">
              {t('photos.title')}
            </h2>
            {gallery.length === 0 ? (
              <p className="flex items-center gap-2 text-slate-700">
                <ImageOff aria-hidden="true" className="size-5" />
                {t('photos.none')}
              </p>
            ) : (
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {gallery.map((url, i) => (
                  <li key={url}>
                    <a
                      href={url}
                      target="_blank"
                      rel="noreferrer"
                      className="block overflow-hidden rounded-lg border border-slate-200"
                    >
                      <img
                        src={data.photos[i] ?? url}
                        alt={t('photos.photoN', { n: i + 1 })}
                        className="aspect-[4/3] w-full object-cover"
                        loading="lazy"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card p-4 sm:p-5" aria-labelledby="lot-descriptions">
            <h2 id="lot-descriptions" className="mb-3 text-lg font-bold">
              {t('lots.descriptions')}
            </h2>
            <div className="grid gap-4 md:grid-cols-2">
              {(['de', 'uk'] as const).map((l) => (
                <div key={l} lang={l}>
                  <h3 className="font-semibold text-slate-900">{t(`lots.language.${l}`)}</h3>
                  <p className="mt-1 whitespace-pre-line text-slate-800">
                    {data.description[l] || '–'}
                  </p>
                  {detailDiffers(l) && (
                    <>
                      <h4 className="mt-3 text-sm font-semibold text-slate-700">
                        {t('lots.detailed')}
                      </h4>
                      <p className="mt-1 whitespace-pre-line text-slate-800">
                        {data.detailed_description[l]}
                      </p>
                    </>
                  )}
                </div>
              ))}
            </div>
          </section>
        </div>
        <div className="flex flex-col gap-5">
          <section className="card p-4 sm:p-5" aria-labelledby="lot-facts">
            <h2 id="lot-facts" className="mb-3 text-lg font-bold">
              {t('lots.facts')}
            </h2>
            <dl className="grid gap-3">
              <Fact label={t('lots.fields.categoryId')}>
                {category ? (
                  <span className="inline-flex items-center gap-2">
                    <CategoryIconView category={category} className="size-5" />
                    {category.name.de}
                  </span>
                ) : (
                  `#${data.category_id}`
                )}
              </Fact>
              <Fact label={t('lots.fields.dimensions')}>{data.dimensions}</Fact>
              <Fact label={t('lots.fields.condition')}>{conditionText(data.condition, t)}</Fact>
              <Fact label={t('lots.fields.donor')}>{data.donor}</Fact>
              <Fact label={t('lots.fields.location')}>{data.location}</Fact>
              <Fact label={t('lots.createdAt')}>{formatDate(data.created_at, lang)}</Fact>
              <Fact label={t('lots.updatedAt')}>{formatDate(data.updated_at, lang)}</Fact>
              <Fact label={t('lots.createdBy')}>
                {data.created_by_user_id === null
                  ? t('lots.system')
                  : t('lots.userN', { id: data.created_by_user_id })}
              </Fact>
            </dl>
          </section>
          <LotWarehouseSection lot={data} />
          <LotWishMatches lot={data} />
          {category && (
            <section className="card bg-blue-50 p-4 sm:p-5" aria-labelledby="lot-category">
              <h2 id="lot-category" className="mb-2 text-lg font-bold">
                {t('lots.categoryInfo')}
              </h2>
              <p className="flex items-center gap-2 font-semibold">
                <CategoryIconView category={category} className="size-7" />
                {category.name.de}
                <span lang="uk" className="font-normal text-slate-700">
                  / {category.name.uk}
                </span>
              </p>
              {category.description.de && (
                <p className="mt-2 text-slate-800">{category.description.de}</p>
              )}
              <p className="mt-2 text-sm text-slate-700">{categoryLotCountText(t, category)}</p>
            </section>
          )}
        </div>
      </div>
      <DeleteLotDialog
        lot={deleting ? data : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/admin/lots')}
      />
    </div>
  );
}
