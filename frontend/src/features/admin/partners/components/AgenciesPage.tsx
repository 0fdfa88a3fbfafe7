import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Building2, Mail, MapPin, Plus, Power, PowerOff, UserPlus } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { Badge } from '../../../../components/Badge';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { TextField } from '../../../../components/TextField';
import { emailProblem } from '../../session';
import { apiErrorOf, errorText, serverFieldErrors } from '../../lib/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState, ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useCreateAgencyMutation,
  useGetAgenciesQuery,
  useUpdateAgencyMutation,
  type Agency,
} from '../api/partners-api';
import { InviteDialog } from './InviteDialog';

type Field = 'name' | 'city' | 'contact_email';
const EMPTY: Record<Field, string> = { name: '', city: '', contact_email: '' };

/** The new agency's form: name, city, contact address; a taken name is said at the name. */
function NewAgencyForm() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, creating] = useCreateAgencyMutation();
  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: Partial<Record<Field, string>> = {};
    if (!values.name.trim()) found.name = t('validation.nameRequired');
    if (!values.city.trim()) found.city = t('agencies.cityRequired');
    const mail = emailProblem(values.contact_email);
    if (mail) found.contact_email = t(`validation.${mail}`);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const agency = await create({
        name: values.name.trim(),
        city: values.city.trim(),
        contact_email: values.contact_email.trim(),
      }).unwrap();
      setValues(EMPTY);
      toast('success', t('agencies.created', { name: agency.name }));
    } catch (error) {
      if (apiErrorOf(error)?.status === 409) {
        setErrors({ name: t('agencies.nameTaken') });
        return;
      }
      setErrors(serverFieldErrors(error));
      setFailure(errorText(error, t('agencies.createFailed')));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      className="card flex flex-col gap-3 p-4"
      aria-labelledby="new-agency-title"
    >
      <h2 id="new-agency-title" className="text-lg font-bold text-slate-900">
        {t('agencies.newTitle')}
      </h2>
      {failure && <ErrorBox>{failure}</ErrorBox>}
      <div className="grid gap-3 lg:grid-cols-3">
        <TextField
          label={t('agencies.name')}
          required
          maxLength={Limits.nameMax}
          value={values.name}
          error={errors.name}
          onChange={(e) => set('name')(e.target.value)}
        />
        <TextField
          label={t('agencies.city')}
          required
          maxLength={Limits.nameMax}
          value={values.city}
          error={errors.city}
          onChange={(e) => set('city')(e.target.value)}
        />
        <TextField
          label={t('agencies.contactEmail')}
          required
          type="email"
          value={values.contact_email}
          error={errors.contact_email}
          onChange={(e) => set('contact_email')(e.target.value)}
        />
      </div>
      <div>
        <button type="submit" className="btn-primary" disabled={creating.isLoading}>
          <Plus aria-hidden="true" className="size-4" />
          {t('agencies.create')}
        </button>
      </div>
    </form>
  );
}

/** One agency: its contact, active or not, the invitation and the switch. */
function AgencyItem({
  agency,
  onInvite,
  onToggle,
}: {
  agency: Agency;
  onInvite: () => void;
  onToggle: () => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <li className="card flex flex-col gap-2 p-4" aria-labelledby={`agency-${agency.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`agency-${agency.id}`} className="text-lg font-bold text-slate-900">
          {agency.name}
        </h2>
        <Badge tone={agency.active ? 'green' : 'slate'}>
          {t(agency.active ? 'agencies.active' : 'agencies.inactive')}
        </Badge>
      </div>
      <p className="flex items-center gap-2 text-slate-700">
        <MapPin aria-hidden="true" className="size-4 shrink-0" />
        {agency.city}
      </p>
      <p className="flex items-center gap-2 break-all text-slate-700">
        <Mail aria-hidden="true" className="size-4 shrink-0" />
        {agency.contact_email}
      </p>
      <div className="flex flex-wrap gap-2">
        {agency.active && (
          <button type="button" className="btn-primary" onClick={onInvite}>
            <UserPlus aria-hidden="true" className="size-4" />
            {t('agencies.invite')}
            <span className="sr-only"> ({agency.name})</span>
          </button>
        )}
        <button type="button" className="btn-secondary" onClick={onToggle}>
          {agency.active ? (
            <PowerOff aria-hidden="true" className="size-4" />
          ) : (
            <Power aria-hidden="true" className="size-4" />
          )}
          {t(agency.active ? 'agencies.deactivate' : 'agencies.activate')}
          <span className="sr-only"> ({agency.name})</span>
        </button>
      </div>
    </li>
  );
}

/**
 * /admin/agencies (issue 44, administrators): the partner agencies whose social workers refer
 * families; an agency is made, switched off and on, and its referrers are invited by e-mail.
 */
export default function AgenciesPage() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const agencies = useGetAgenciesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [update, updating] = useUpdateAgencyMutation();
  const [inviting, setInviting] = useState<Agency | null>(null);
  const [toggling, setToggling] = useState<Agency | null>(null);
  const [toggleError, setToggleError] = useState<string | null>(null);

  const toggle = async (agency: Agency) => {
    setToggleError(null);
    try {
      await update({ id: agency.id, body: { active: !agency.active } }).unwrap();
      setToggling(null);
      toast(
        'success',
        t(agency.active ? 'agencies.deactivated' : 'agencies.activated', { name: agency.name }),
      );
    } catch (error) {
      setToggleError(errorText(error, t('agencies.updateFailed')));
    }
  };

  const list = agencies.data ?? [];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t('agencies.title')} description={t('agencies.lead')} />
      <NewAgencyForm />
      {agencies.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : agencies.error && !agencies.data ? (
        <ErrorState
          message={errorText(agencies.error, t('agencies.loadFailed'))}
          onRetry={() => void agencies.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Building2 aria-hidden="true" className="size-8" />}
          title={t('agencies.empty')}
        />
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label={t('agencies.list')}>
          {list.map((agency) => (
            <AgencyItem
              key={agency.id}
              agency={agency}
              onInvite={() => setInviting(agency)}
              onToggle={() => {
                setToggleError(null);
                setToggling(agency);
              }}
            />
          ))}
        </ul>
      )}
      {inviting && <InviteDialog agency={inviting} onClose={() => setInviting(null)} />}
      <ConfirmDialog
        open={toggling !== null}
        title={t(toggling?.active ? 'agencies.deactivateTitle' : 'agencies.activateTitle', {
          name: toggling?.name ?? '',
        })}
        confirmLabel={t(toggling?.active ? 'agencies.deactivate' : 'agencies.activate')}
        danger={toggling?.active ?? false}
        busy={updating.isLoading}
        error={toggleError}
        onConfirm={() => toggling && void toggle(toggling)}
        onClose={() => setToggling(null)}
      >
        {t(toggling?.active ? 'agencies.deactivateText' : 'agencies.activateText')}
      </ConfirmDialog>
    </div>
  );
}
