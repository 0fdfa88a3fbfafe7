import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Pencil, Plus, SearchX, Trash2 } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { ErrorState } from '../../../../components/ErrorState';
import { CategoryIconView } from '../../../catalog';
import { Modal } from '../../../../components/Modal';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { useDebouncedValue } from '../../../../lib/use-debounced-value';
import { formatDate } from '../../lib/dates';
import { apiErrorOf, errorText } from '../../lib/errors';
import { usePersistedState } from '../../lib/persisted-state';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FilterInput, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useDeleteCategoryMutation,
  useGetAdminCategoriesQuery,
  type AdminCategory,
} from '../api/categories-api';
import { associatedLotCount, categoryLotCountText, matchesCategory } from '../category-rules';

const FILTERS = { search: '' };

/** /admin/categories: the category card grid (back-office §2 Categories list). */
export default function CategoriesPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const [filters, setFilters] = usePersistedState('category-management', FILTERS);
  const search = useDebouncedValue(filters.search, Limits.searchDebounceMs);
  const { data = [], isLoading, isFetching, error, refetch } = useGetAdminCategoriesQuery();
  const [remove, removal] = useDeleteCategoryMutation();
  const [deleting, setDeleting] = useState<AdminCategory | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<{ category: AdminCategory; count: number } | null>(null);

  const shown = data.filter((c) => matchesCategory(c, search));

  const onDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await remove(deleting.id).unwrap();
      toast('success', t('categories.deleted', { name: deleting.name.de }));
      setDeleting(null);
    } catch (e) {
      const count =
        apiErrorOf(e)?.status === 409 ? associatedLotCount(apiErrorOf(e)?.message) : null;
      if (count !== null) {
        setBlocked({ category: deleting, count });
        setDeleting(null);
      } else {
        setDeleteError(t('categories.deleteFailed'));
      }
    }
  };

  return (
    <div>
      <PageHeader
        title={t('categories.title')}
        description={t('categories.lead')}
        actions={
          <>
            <RefreshButton onClick={() => void refetch()} busy={isFetching} />
            <Link to="/admin/categories/new" className="btn-primary">
              <Plus aria-hidden="true" className="size-4" />
              {t('categories.create')}
            </Link>
          </>
        }
      />
      <div className="card mb-4 p-4">
        <FilterInput
          label={t('ui.search')}
          className="max-w-xl"
          type="search"
          value={filters.search}
          placeholder={t('categories.searchPlaceholder')}
          onChange={(e) => setFilters({ search: e.target.value })}
        />
      </div>
      {isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : error ? (
        <ErrorState
          message={errorText(error, t('categories.loadFailed'))}
          onRetry={() => void refetch()}
        />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<SearchX aria-hidden="true" className="size-8" />}
          title={data.length === 0 ? t('categories.empty') : t('categories.noMatch')}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((c) => (
            <li key={c.id} className="card flex flex-col p-4">
              <div className="flex items-start gap-3">
                <span
                  aria-hidden="true"
                  className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-blue-50 text-blue-900"
                >
                  <CategoryIconView category={c} className="size-7" />
                </span>
                <div className="min-w-0 flex-1">
                  <h2 className="font-bold text-slate-900">{c.name.de}</h2>
                  <p lang="uk" className="text-slate-700">
                    {c.name.uk}
                  </p>
                </div>
                <span className="shrink-0 rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-semibold text-slate-800">
                  {categoryLotCountText(t, c)}
                </span>
              </div>
              <p className="mt-3 line-clamp-2 min-h-12 text-slate-700">
                {c.description.de || t('categories.noDescription')}
              </p>
              <div className="mt-3 flex items-center justify-between gap-2 border-t border-slate-100 pt-3">
                <span className="text-sm text-slate-600">
                  {t('categories.createdAt', { date: formatDate(c.createdAt, lang, false) })}
                </span>
                <div className="flex gap-1">
                  <Link
                    to={`/admin/categories/${c.id}/edit`}
                    className="inline-flex size-10 items-center justify-center rounded-lg text-blue-800 hover:bg-blue-50"
                    aria-label={t('categories.editOne', { name: c.name.de })}
                  >
                    <Pencil aria-hidden="true" className="size-5" />
                  </Link>
                  <button
                    type="button"
                    className="inline-flex size-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50"
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(c);
                    }}
                    aria-label={t('categories.deleteOne', { name: c.name.de })}
                  >
                    <Trash2 aria-hidden="true" className="size-5" />
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title={t('categories.deleteTitle')}
        confirmLabel={t('ui.delete')}
        onConfirm={() => void onDelete()}
        onClose={() => setDeleting(null)}
        busy={removal.isLoading}
        error={deleteError}
      >
        {t('categories.deleteText', { name: deleting?.name.de ?? '' })}
      </ConfirmDialog>
      <Modal
        open={blocked !== null}
        onClose={() => setBlocked(null)}
        title={t('categories.blockedTitle')}
        size="sm"
        role="alertdialog"
      >
        <p className="text-slate-800">
          {t('categories.blockedText', {
            name: blocked?.category.name.de ?? '',
            n: blocked?.count ?? 0,
          })}
        </p>
        <div className="mt-6 flex justify-end">
          <button type="button" className="btn-primary" onClick={() => setBlocked(null)}>
            {t('categories.understood')}
          </button>
        </div>
      </Modal>
    </div>
  );
}
