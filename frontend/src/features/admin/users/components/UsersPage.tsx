import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pencil, Plus, Trash2, UserX } from 'lucide-react';
import { Roles, type Role } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { useDebouncedValue } from '../../../../lib/use-debounced-value';
import { formatDate } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { type StaffUser, useSession } from '../../session';
import { Badge } from '../../../../components/Badge';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { FilterInput, FilterSelect, RefreshButton } from '../../ui/Filters';
import { Pagination } from '../../ui/Pagination';
import { useToast } from '../../ui/Toasts';
import { USERS_PAGE_SIZE, useDeleteUserMutation, useGetUsersQuery } from '../api/users-api';
import { UserFormModal } from './UserFormModal';

/** /admin/users (administrators only, back-office §2 Users page). */
export default function UsersPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const { user: me } = useSession();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [page, setPage] = useState(1);
  const debounced = useDebouncedValue(search, Limits.searchDebounceMs);
  const { data, isLoading, isFetching, error, refetch } = useGetUsersQuery({
    page,
    search: debounced,
    role,
  });
  const [editing, setEditing] = useState<StaffUser | 'new' | null>(null);
  const [deleting, setDeleting] = useState<StaffUser | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [remove, removal] = useDeleteUserMutation();

  const onDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await remove(deleting.id).unwrap();
      toast('success', t('users.deleted', { name: deleting.name }));
      setDeleting(null);
    } catch (e) {
      setDeleteError(errorText(e, t('users.deleteFailed')));
    }
  };

  const users = data?.users ?? [];
  const actions = (u: StaffUser) => (
    <div className="flex justify-end gap-1">
      <button
        type="button"
        className="inline-flex size-10 items-center justify-center rounded-lg text-blue-800 hover:bg-blue-50"
        onClick={() => setEditing(u)}
        aria-label={t('users.editUser', { name: u.name })}
      >
        <Pencil aria-hidden="true" className="size-5" />
      </button>
      {u.id !== me?.id && (
        <button
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50"
          onClick={() => {
            setDeleteError(null);
            setDeleting(u);
          }}
          aria-label={t('users.deleteUser', { name: u.name })}
        >
          <Trash2 aria-hidden="true" className="size-5" />
        </button>
      )}
    </div>
  );

  return (
    <div>
      <PageHeader
        title={t('users.title')}
        actions={
          <>
            <RefreshButton onClick={() => void refetch()} busy={isFetching} />
            <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" className="size-4" />
              {t('users.add')}
            </button>
          </>
        }
      />
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-[1fr_14rem]">
        <FilterInput
          label={t('ui.search')}
          type="search"
          value={search}
          placeholder={t('users.searchPlaceholder')}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        <FilterSelect
          label={t('users.role')}
          value={role}
          onChange={(value) => {
            setRole(value as Role | '');
            setPage(1);
          }}
          options={Roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
        />
      </div>

      {isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : error ? (
        <ErrorState
          message={errorText(error, t('users.loadFailed'))}
          onRetry={() => void refetch()}
        />
      ) : users.length === 0 ? (
        <EmptyState
          icon={<UserX className="size-8" aria-hidden="true" />}
          title={t('users.empty')}
        />
      ) : (
        <div className="card overflow-hidden">
          <table className="w-full text-left">
            <thead className="hidden bg-slate-100 text-sm text-slate-700 md:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('users.name')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('users.email')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('users.role')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('users.createdAt')}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {t('users.actions')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {users.map((u) => (
                <tr
                  key={u.id}
                  className="flex flex-wrap items-center gap-x-3 px-4 py-3 md:table-row md:p-0"
                >
                  <td className="min-w-0 flex-1 font-semibold text-slate-900 md:px-4 md:py-3">
                    {u.name}
                    {u.id === me?.id && (
                      <span className="ml-2 text-sm font-normal text-slate-600">
                        ({t('users.you')})
                      </span>
                    )}
                  </td>
                  <td className="order-3 w-full break-all text-slate-700 md:order-none md:w-auto md:px-4 md:py-3">
                    {u.email}
                  </td>
                  <td className="order-4 md:order-none md:px-4 md:py-3">
                    <Badge tone={u.role === 'admin' ? 'violet' : 'sky'}>
                      {t(`roles.${u.role}`)}
                    </Badge>
                  </td>
                  <td className="order-5 text-sm text-slate-700 md:order-none md:px-4 md:py-3">
                    {formatDate(u.created_at, lang, false)}
                  </td>
                  <td className="md:px-4 md:py-2">{actions(u)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        page={page}
        total={data?.total ?? 0}
        pageSize={USERS_PAGE_SIZE}
        onPage={setPage}
        rangeKey="users.range"
      />

      {editing && (
        <UserFormModal user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('users.deleteTitle')}
        confirmLabel={t('ui.delete')}
        onConfirm={() => void onDelete()}
        onClose={() => setDeleting(null)}
        busy={removal.isLoading}
        error={deleteError}
      >
        {t('users.deleteText', { name: deleting?.name ?? '', email: deleting?.email ?? '' })}
      </ConfirmDialog>
    </div>
  );
}
