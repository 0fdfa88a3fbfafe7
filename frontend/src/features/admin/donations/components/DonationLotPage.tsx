import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Save } from 'lucide-react';
import { Spinner } from '../../../../components/Spinner';
import { errorText, serverFieldErrors } from '../../lib/errors';
import {
  bodyOf,
  LotFields,
  LOT_FIELD_ORDER,
  SERVER_FIELD,
  validateLot,
  type LotField,
  type LotFormValues,
} from '../../lots';
import { ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useCreateLotFromItemMutation, useGetDonationQuery } from '../api/donations-api';
import { canMakeLot, lotValuesOf, photoUrls } from '../lib/donation-rules';

/**
 * /admin/donations/{id}/items/{itemId}/lot, "Lot anlegen" of an item (issue 28): the lot form
 * filled from the item, its photos shown (they become the lot's); saving creates the lot from
 * the item and shows it.
 */
export default function DonationLotPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const toast = useToast();
  const params = useParams();
  const donationId = Number(params.donationId);
  const itemId = Number(params.itemId);
  const donation = useGetDonationQuery(donationId, {
    skip: !Number.isInteger(donationId),
    refetchOnMountOrArgChange: true,
  });
  const [createLot] = useCreateLotFromItemMutation();
  const [values, setValues] = useState<LotFormValues | null>(null);
  const [errors, setErrors] = useState<Partial<Record<LotField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const itemIndex = donation.data?.items.findIndex((i) => i.id === itemId) ?? -1;
  const item = itemIndex >= 0 ? donation.data?.items[itemIndex] : undefined;
  const backTo = `/admin/donations/${donationId}`;

  useEffect(() => {
    if (donation.data && item && values === null) setValues(lotValuesOf(donation.data, item));
  }, [donation.data, item, values]);

  if (donation.isLoading) return <Spinner label={t('ui.loading')} />;
  if (!donation.data || !item) {
    return (
      <div role="alert" className="card flex flex-col items-center gap-4 px-4 py-10 text-center">
        <p className="text-lg font-bold text-slate-900">{t('donations.itemNotFound')}</p>
        <Link to={backTo} className="btn-secondary">
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t('donations.backToDonation')}
        </Link>
      </div>
    );
  }
  // an item already made into a lot leads to its lot
  if (item.lot_id) return <Navigate to={`/admin/lots/${item.lot_id}`} replace />;
  if (!values) return <Spinner label={t('ui.loading')} />;

  const data = donation.data;
  const allowed = canMakeLot(data, item);
  const set = (field: LotField, value: string) => {
    setValues((v) => (v ? { ...v, [field]: value } : v));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const focusFirst = (found: Partial<Record<LotField, unknown>>) => {
    const first = LOT_FIELD_ORDER.find((f) => found[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const found = validateLot(values);
    setErrors(Object.fromEntries(Object.keys(found).map((f) => [f, t('validation.required')])));
    if (Object.keys(found).length > 0) return focusFirst(found);
    setSaving(true);
    setFailure(null);
    try {
      const lot = await createLot({ donationId, itemId, body: bodyOf(values) }).unwrap();
      toast('success', t('donations.lotCreated', { id: lot.id, name: lot.name.de }));
      void navigate(`/admin/lots/${lot.id}`);
    } catch (error) {
      const mapped: Partial<Record<LotField, string>> = {};
      for (const [path, msg] of Object.entries(serverFieldErrors(error))) {
        const field = SERVER_FIELD[path];
        if (field) mapped[field] = msg;
      }
      setErrors(mapped);
      setFailure(errorText(error, t('lots.saveFailed')));
      focusFirst(mapped);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <Link
        to={backTo}
        className="mb-3 inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('donations.backToDonation')}
      </Link>
      <PageHeader
        title={t('donations.lotTitle', { n: itemIndex + 1, id: data.id })}
        description={t('donations.lotLead')}
      />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        {!allowed && <ErrorBox>{t('donations.lotNotYet')}</ErrorBox>}
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <div className="card p-4 sm:p-5">
          <h2 className="mb-1 font-semibold text-slate-900">{t('donations.donorText')}</h2>
          <p className="whitespace-pre-line text-slate-800" lang={data.language}>
            {item.description}
          </p>
        </div>
        <LotFields
          values={values}
          errors={errors}
          onChange={set}
          locked={data.donor_name_public ? {} : { donor: t('donations.donorAnonymous') }}
        />
        <section className="card p-4 sm:p-6" aria-labelledby="donation-lot-photos">
          <h2 id="donation-lot-photos" className="text-lg font-bold text-slate-900">
            {t('photos.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {item.photos.length > 0 ? t('donations.photosCarried') : t('donations.noPhotos')}
          </p>
          {item.photos.length > 0 && (
            <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-5">
              {item.photos.map((photo, i) => {
                const urls = photoUrls(photo);
                return (
                  <li key={`${urls.large}-${i}`} className="relative">
                    <img
                      src={urls.thumbnail}
                      alt={t('photos.photoN', { n: i + 1 })}
                      className="aspect-[4/3] w-full rounded-lg border border-slate-200 object-cover"
                    />
                    {i === 0 && (
                      <span className="absolute top-2 left-2 rounded-full bg-blue-800 px-2 py-0.5 text-xs font-semibold text-white">
                        {t('photos.main')}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to={backTo} className="btn-secondary justify-center">
            {t('ui.cancel')}
          </Link>
          <button
            type="submit"
            className="btn-primary justify-center"
            disabled={saving || !allowed}
          >
            <Save aria-hidden="true" className="size-4" />
            {saving ? t('lots.saving') : t('lots.createSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}
