import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ClipboardCheck, Plus, Printer, RotateCcw, Warehouse } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { formatLabelCode } from '@furniture/contracts/label-codes';
import { SelectField, TextField } from '../../../../components/TextField';
import { Spinner } from '../../../../components/Spinner';
import { useAppStore } from '../../../../app/hooks';
import { useGetLocationsQuery } from '../../handovers';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { EmptyState, ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useCreateStoragePlaceMutation, useGetStoragePlacesQuery } from '../api/warehouse-api';
import { downloadPlaceLabel } from '../lib/labels';

/** The new place's form: a free-text name at the chosen location. */
function NewPlaceForm({ locationId }: { locationId: number }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [create, creating] = useCreateStoragePlaceMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!name.trim()) {
      setError(t('warehouse.places.nameRequired'));
      return;
    }
    setError(null);
    try {
      const place = await create({ name: name.trim(), location_id: locationId }).unwrap();
      setName('');
      toast('success', t('warehouse.places.created', { name: place.name }));
    } catch (e) {
      setError(serverFieldErrors(e).name ?? null);
      setFailure(errorText(e, t('warehouse.places.createFailed')));
    }
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="card flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          className="min-w-0 flex-1"
          label={t('warehouse.places.name')}
          hint={t('warehouse.places.nameHint')}
          required
          maxLength={Limits.storagePlaceNameMax}
          value={name}
          error={error ?? undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="btn-primary mb-6" disabled={creating.isLoading}>
          <Plus aria-hidden="true" className="size-4" />
          {t('warehouse.places.add')}
        </button>
      </div>
      {failure && <ErrorBox>{failure}</ErrorBox>}
    </form>
  );
}

/**
 * /admin/storage-places (issue 45): the storage places of a pickup location, how many lots are
 * recorded on each, their labels and counts; staff add places.
 */
export default function StoragePlacesPage() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const store = useAppStore();
  const [params, setParams] = useSearchParams();
  const locations = useGetLocationsQuery(undefined, { refetchOnMountOrArgChange: true });
  const asked = Number(params.get('location'));
  const list = locations.data ?? [];
  const locationId = list.some((l) => l.id === asked) ? asked : list[0]?.id;
  const places = useGetStoragePlacesQuery(locationId, {
    skip: locationId === undefined,
    refetchOnMountOrArgChange: true,
  });
  const print = async (id: number) => {
    try {
      await downloadPlaceLabel(store, id);
    } catch (error) {
      toast('error', errorText(error, t('warehouse.labelFailed')));
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t('warehouse.places.title')} description={t('warehouse.places.lead')} />
      {locations.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : locations.error && !locations.data ? (
        <div role="alert" className="card flex flex-col items-center gap-3 px-4 py-8 text-center">
          <p className="font-semibold text-slate-900">
            {errorText(locations.error, t('warehouse.places.loadFailed'))}
          </p>
          <button type="button" className="btn-primary" onClick={() => void locations.refetch()}>
            <RotateCcw aria-hidden="true" className="size-4" />
            {t('ui.retry')}
          </button>
        </div>
      ) : locationId === undefined ? (
        <EmptyState
          icon={<Warehouse aria-hidden="true" className="size-8" />}
          title={t('warehouse.places.noLocations')}
          text={t('warehouse.places.noLocationsText')}
        />
      ) : (
        <>
          <SelectField
            className="max-w-sm"
            label={t('warehouse.places.location')}
            value={locationId}
            onChange={(e) => setParams({ location: e.target.value }, { replace: true })}
          >
            {list.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
          <NewPlaceForm locationId={locationId} />
          {places.isLoading ? (
            <Spinner label={t('ui.loading')} />
          ) : (places.data ?? []).length === 0 ? (
            <EmptyState title={t('warehouse.places.empty')} />
          ) : (
            <ul className="grid gap-3 lg:grid-cols-2" aria-label={t('warehouse.places.list')}>
              {(places.data ?? []).map((place) => (
                <li
                  key={place.id}
                  className="card flex flex-col gap-2 p-4"
                  aria-labelledby={`place-${place.id}`}
                >
                  <h2 id={`place-${place.id}`} className="text-lg font-bold text-slate-900">
                    <Link to={`/admin/scan/${place.code}`} className="text-blue-800 underline">
                      {place.name}
                    </Link>
                  </h2>
                  <p className="text-slate-700">
                    <span className="font-mono">{formatLabelCode(place.code)}</span> ·{' '}
                    {t('warehouse.places.lotCount', { count: place.lot_count })}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn-secondary"
                      onClick={() => void print(place.id)}
                    >
                      <Printer aria-hidden="true" className="size-4" />
                      {t('warehouse.printLabel')}
                      <span className="sr-only"> {place.name}</span>
                    </button>
                    <Link to={`/admin/storage-places/${place.id}/count`} className="btn-secondary">
                      <ClipboardCheck aria-hidden="true" className="size-4" />
                      {t('warehouse.count.start')}
                      <span className="sr-only"> {place.name}</span>
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
