import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, RotateCcw } from 'lucide-react';
import { CategoryIcons, DEFAULT_CATEGORY_ICON } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { TextAreaField, TextField } from '../../../../components/TextField';
import { apiErrorOf, errorText, serverFieldErrors } from '../../lib/errors';
import { DraftNotice, useFormDraft } from '../../lib/form-draft';
import { ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useCreateCategoryMutation,
  useGetAdminCategoryQuery,
  useUpdateCategoryMutation,
  type AdminCategory,
  type CategoryBody,
} from '../api/categories-api';

const EMPTY: CategoryBody = {
  name: { de: '', uk: '' },
  description: { de: '', uk: '' },
  icon: DEFAULT_CATEGORY_ICON,
};

type FieldKey = 'name.de' | 'name.uk' | 'description.de' | 'description.uk';

const bodyOf = (c: AdminCategory): CategoryBody => ({
  name: { ...c.name },
  description: { ...c.description },
  icon: c.icon || DEFAULT_CATEGORY_ICON,
});

/** The 20 emojis of back-office §3 as a group of radio buttons. */
function IconPicker({ value, onChange }: { value: string; onChange: (icon: string) => void }) {
  const { t } = useTranslation('admin');
  return (
    <fieldset>
      <legend className="field-label">{t('categories.icon')}</legend>
      <div className="grid grid-cols-4 gap-2 sm:grid-cols-5 lg:grid-cols-10">
        {CategoryIcons.map(({ icon, key }) => (
          <label
            key={key}
            title={t(`categories.icons.${key}`)}
            className={`flex cursor-pointer flex-col items-center gap-1 rounded-lg border p-2 text-center text-xs has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-blue-600 ${
              value === icon
                ? 'border-blue-800 bg-blue-50 ring-2 ring-blue-800'
                : 'border-slate-300 bg-white hover:bg-slate-50'
            }`}
          >
            <input
              type="radio"
              name="category-icon"
              value={icon}
              checked={value === icon}
              onChange={() => onChange(icon)}
              className="sr-only"
            />
            <span aria-hidden="true" className="text-2xl">
              {icon}
            </span>
            <span className="leading-tight text-slate-800">{t(`categories.icons.${key}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** /admin/categories/new and /admin/categories/{id}/edit (back-office §2 Category form). */
export default function CategoryFormPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const toast = useToast();
  const { categoryId } = useParams();
  const id = categoryId ? Number(categoryId) : null;
  const loaded = useGetAdminCategoryQuery(id ?? 0, {
    skip: id === null,
    refetchOnMountOrArgChange: true,
  });
  const [create, creating] = useCreateCategoryMutation();
  const [update, updating] = useUpdateCategoryMutation();
  const [values, setValues] = useState<CategoryBody>(EMPTY);
  const [version, setVersion] = useState(1);
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const busy = creating.isLoading || updating.isLoading;

  useEffect(() => {
    if (loaded.data) {
      setValues(bodyOf(loaded.data));
      setVersion(loaded.data.version);
    }
  }, [loaded.data]);

  // after the load above: a draft of an earlier visit wins over the loaded category
  const initial = useMemo(
    () => (id === null ? EMPTY : loaded.data ? bodyOf(loaded.data) : null),
    [id, loaded.data],
  );
  // a draft of an edit keeps the version it was typed over: saved, it meets the version check
  const restoreDraft = useCallback((draftValues: CategoryBody, from?: number) => {
    setValues(draftValues);
    if (from !== undefined) setVersion((current) => Math.min(current, from));
  }, []);
  const draft = useFormDraft({
    name: id === null ? 'category:new' : `category:${id}`,
    values,
    initial,
    restore: restoreDraft,
    meta: id === null ? undefined : version,
  });

  const setText = (field: FieldKey, value: string) => {
    const [group, lang] = field.split('.') as ['name' | 'description', 'de' | 'uk'];
    setValues((v) => ({ ...v, [group]: { ...v[group], [lang]: value } }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!values.name.de.trim()) found['name.de'] = t('validation.nameDeRequired');
    if (!values.name.uk.trim()) found['name.uk'] = t('validation.nameUkRequired');
    setErrors(found);
    setFailure(null);
    setStale(false);
    if (Object.keys(found).length > 0) return;
    const body: CategoryBody = {
      name: { de: values.name.de.trim(), uk: values.name.uk.trim() },
      description: { de: values.description.de.trim(), uk: values.description.uk.trim() },
      icon: values.icon,
    };
    try {
      if (id === null) await create(body).unwrap();
      else await update({ id, body: { ...body, version } }).unwrap();
      draft.clear();
      toast(
        'success',
        t(id === null ? 'categories.created' : 'categories.updated', { name: body.name.de }),
      );
      void navigate('/admin/categories');
    } catch (error) {
      const api = apiErrorOf(error);
      setErrors(serverFieldErrors(error) as typeof errors);
      if (api?.code === 'STALE_VERSION') setStale(true);
      setFailure(errorText(error, t('categories.saveFailed')));
    }
  };

  const reloadLatest = async () => {
    const latest = await loaded.refetch();
    if (latest.data) {
      setValues(bodyOf(latest.data));
      setVersion(latest.data.version);
      setStale(false);
      setFailure(null);
    }
  };

  if (id !== null && loaded.isLoading) return <Spinner label={t('ui.loading')} />;
  if (id !== null && loaded.error) {
    return (
      <ErrorState
        message={errorText(loaded.error, t('categories.loadOneFailed'))}
        onRetry={() => void loaded.refetch()}
      />
    );
  }

  return (
    <div>
      <Link
        to="/admin/categories"
        className="mb-3 inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('categories.backToList')}
      </Link>
      <PageHeader
        title={
          id === null
            ? t('categories.newTitle')
            : t('categories.editTitle', { name: loaded.data?.name.de ?? '' })
        }
      />
      <form onSubmit={onSubmit} noValidate className="card flex flex-col gap-5 p-4 sm:p-6">
        <DraftNotice draft={draft} />
        {failure && (
          <ErrorBox>
            <p>{failure}</p>
            {stale && (
              <button
                type="button"
                className="btn-secondary mt-3"
                onClick={() => void reloadLatest()}
              >
                <RotateCcw aria-hidden="true" className="size-4" />
                {t('categories.reloadLatest')}
              </button>
            )}
          </ErrorBox>
        )}
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label={t('categories.nameDe')}
            required
            lang="de"
            maxLength={Limits.categoryNameMax}
            value={values.name.de}
            onChange={(e) => setText('name.de', e.target.value)}
            error={errors['name.de']}
          />
          <TextField
            label={t('categories.nameUk')}
            required
            lang="uk"
            maxLength={Limits.categoryNameMax}
            value={values.name.uk}
            onChange={(e) => setText('name.uk', e.target.value)}
            error={errors['name.uk']}
          />
          <TextAreaField
            label={t('categories.descriptionDe')}
            lang="de"
            rows={3}
            maxLength={Limits.categoryDescriptionMax}
            value={values.description.de}
            onChange={(e) => setText('description.de', e.target.value)}
            error={errors['description.de']}
          />
          <TextAreaField
            label={t('categories.descriptionUk')}
            lang="uk"
            rows={3}
            maxLength={Limits.categoryDescriptionMax}
            value={values.description.uk}
            onChange={(e) => setText('description.uk', e.target.value)}
            error={errors['description.uk']}
          />
        </div>
        <IconPicker value={values.icon} onChange={(icon) => setValues((v) => ({ ...v, icon }))} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to="/admin/categories" className="btn-secondary justify-center">
            {t('ui.cancel')}
          </Link>
          <button type="submit" className="btn-primary justify-center" disabled={busy}>
            {id === null ? t('categories.createSubmit') : t('ui.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
