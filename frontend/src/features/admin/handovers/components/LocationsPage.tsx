import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MapPin, Pencil, Plus, Power, RotateCcw } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { Badge } from '../../../../components/Badge';
import { Modal } from '../../../../components/Modal';
import { TextAreaField, TextField } from '../../../../components/TextField';
import { Spinner } from '../../../../components/Spinner';
import { osmSearchLink } from '../../../../lib/map-link';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { useSession } from '../../session';
import { CopyButton } from '../../ui/CopyButton';
import { DialogActions } from '../../ui/DialogActions';
import { EmptyState, ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useCreateLocationMutation,
  useGetLocationsQuery,
  useUpdateLocationMutation,
  type LocationAnswer,
} from '../api/handovers-api';

interface LocationValues {
  name: string;
  address: string;
  city: string;
  notes: string;
  active: boolean;
}

/** A feed address as staff paste it into a calendar: absolute. */
const absolute = (url: string) =>
  typeof window === 'undefined' ? url : new URL(url, window.location.origin).toString();

function LocationFormModal({
  location,
  onClose,
}: {
  location: LocationAnswer | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [values, setValues] = useState<LocationValues>({
    name: location?.name ?? '',
    address: location?.address ?? '',
    city: location?.city ?? '',
    notes: location?.notes ?? '',
    active: location?.active ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, creating] = useCreateLocationMutation();
  const [update, updating] = useUpdateLocationMutation();
  const change = (patch: Partial<LocationValues>) => setValues((v) => ({ ...v, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const field of ['name', 'address', 'city'] as const) {
      if (!values[field].trim()) found[field] = t('handovers.slots.required');
    }
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    const body = {
      name: values.name.trim(),
      address: values.address.trim(),
      city: values.city.trim(),
      notes: values.notes.trim() || null,
    };
    try {
      if (location)
        await update({ id: location.id, patch: { ...body, active: values.active } }).unwrap();
      else await create(body).unwrap();
      toast('success', t('handovers.locations.saved'));
      onClose();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      setFailure(errorText(error, t('handovers.locations.saveFailed')));
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={location ? t('handovers.locations.editTitle') : t('handovers.locations.newTitle')}
    >
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <TextField
          label={t('handovers.locations.name')}
          required
          maxLength={Limits.nameMax}
          value={values.name}
          error={errors.name}
          onChange={(e) => change({ name: e.target.value })}
        />
        <TextField
          label={t('handovers.locations.address')}
          required
          maxLength={Limits.addressMax}
          value={values.address}
          error={errors.address}
          onChange={(e) => change({ address: e.target.value })}
        />
        <TextField
          label={t('handovers.locations.city')}
          required
          maxLength={Limits.cityMax}
          value={values.city}
          error={errors.city}
          onChange={(e) => change({ city: e.target.value })}
        />
        <TextAreaField
          label={t('handovers.locations.notes')}
          maxLength={Limits.locationNotesMax}
          value={values.notes}
          error={errors.notes}
          hint={t('handovers.locations.notesHint')}
          onChange={(e) => change({ notes: e.target.value })}
        />
        {location && (
          <label className="flex min-h-11 items-center gap-2 font-medium text-slate-900">
            <input
              type="checkbox"
              className="size-4"
              checked={values.active}
              onChange={(e) => change({ active: e.target.checked })}
            />
            {t('handovers.locations.activeLabel')}
          </label>
        )}
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <DialogActions
          onCancel={onClose}
          busy={creating.isLoading || updating.isLoading}
          label={t('ui.save')}
        />
      </form>
    </Modal>
  );
}

/**
 * /admin/handovers/locations, "Orte": the pickup locations with their calendar feeds;
 * administrators create, edit and deactivate them.
 */
export default function LocationsPage() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const isAdmin = useSession().user?.role === 'admin';
  const locations = useGetLocationsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [update, updating] = useUpdateLocationMutation();
  const [editing, setEditing] = useState<LocationAnswer | 'new' | null>(null);

  const toggle = async (location: LocationAnswer) => {
    try {
      await update({ id: location.id, patch: { active: !location.active } }).unwrap();
      toast(
        'success',
        t(location.active ? 'handovers.locations.deactivated' : 'handovers.locations.activated', {
          name: location.name,
        }),
      );
    } catch (error) {
      toast('error', errorText(error, t('handovers.locations.saveFailed')));
    }
  };

  return (
    <div>
      <PageHeader
        title={t('handovers.locations.title')}
        description={t('handovers.locations.lead')}
        actions={
          isAdmin && (
            <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" className="size-4" />
              {t('handovers.locations.new')}
            </button>
          )
        }
      />
      {locations.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : locations.error && !locations.data ? (
        <div role="alert" className="card flex flex-col items-center gap-3 px-4 py-8 text-center">
          <p className="font-semibold text-slate-900">
            {errorText(locations.error, t('handovers.locations.loadFailed'))}
          </p>
          <button type="button" className="btn-primary" onClick={() => void locations.refetch()}>
            <RotateCcw aria-hidden="true" className="size-4" />
            {t('ui.retry')}
          </button>
        </div>
      ) : (locations.data ?? []).length === 0 ? (
        <EmptyState
          icon={<MapPin aria-hidden="true" className="size-8" />}
          title={t('handovers.locations.empty')}
          text={isAdmin ? t('handovers.locations.emptyAdmin') : undefined}
        />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {(locations.data ?? []).map((location) => (
            <li
              key={location.id}
              className="card flex flex-col gap-3 p-4"
              aria-labelledby={`location-${location.id}`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <h2 id={`location-${location.id}`} className="text-lg font-bold text-slate-900">
                  {location.name}
                </h2>
                <Badge tone={location.active ? 'green' : 'slate'}>
                  {location.active
                    ? t('handovers.locations.active')
                    : t('handovers.locations.inactive')}
                </Badge>
              </div>
              <p className="text-slate-900">
                {location.address}, {location.city}{' '}
                <a
                  href={osmSearchLink(location.address, location.city)}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="font-medium whitespace-nowrap text-blue-800 underline"
                >
                  {t('handovers.plan.map')}
                </a>
              </p>
              {location.notes && (
                <p className="whitespace-pre-line text-sm text-slate-700">{location.notes}</p>
              )}
              <div>
                <p className="field-label">{t('handovers.locations.feed')}</p>
                <p className="rounded-md bg-slate-100 px-2 py-1 font-mono text-sm break-all text-slate-900">
                  {absolute(location.calendar_url)}
                </p>
                <p className="field-hint">{t('handovers.locations.feedHint')}</p>
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  <CopyButton
                    text={absolute(location.calendar_url)}
                    label={t('handovers.locations.copyFeed', { name: location.name })}
                  />
                </div>
              </div>
              {isAdmin && (
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => setEditing(location)}
                  >
                    <Pencil aria-hidden="true" className="size-4" />
                    {t('ui.edit')}
                    <span className="sr-only"> {location.name}</span>
                  </button>
                  <button
                    type="button"
                    className="btn-secondary"
                    disabled={updating.isLoading}
                    onClick={() => void toggle(location)}
                  >
                    <Power aria-hidden="true" className="size-4" />
                    {location.active
                      ? t('handovers.locations.deactivate')
                      : t('handovers.locations.activate')}
                    <span className="sr-only"> {location.name}</span>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <LocationFormModal
          location={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
