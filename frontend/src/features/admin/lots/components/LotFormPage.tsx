import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, RotateCcw, Save } from 'lucide-react';
import type { Photo } from '@furniture/contracts/api/media';
import { useAppStore } from '../../../../app/hooks';
import { Spinner } from '../../../../components/Spinner';
import { apiErrorOf, errorText, serverFieldErrors } from '../../lib/errors';
import { DraftNotice, useFormDraft } from '../../lib/form-draft';
import { ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useCreateLotMutation,
  useGetAdminLotQuery,
  useLazyGetAdminLotQuery,
  useSetLotPhotosMutation,
  useUpdateLotMutation,
  type AdminLot,
} from '../api/lots-api';
import {
  bodyOf,
  changedFields,
  EMPTY_LOT,
  LOT_FIELD_ORDER,
  SERVER_FIELD,
  validateLot,
  valuesOf,
  type LotField,
  type LotFormValues,
} from '../lib/lot-form';
import { galleryUrlOf, listUrlOf } from '../lib/photo-list';
import { sendPhoto, waiting, type QueuedUpload } from '../../../../lib/upload-queue';
import { lotPhotoName, uploadLotPhoto } from '../lib/upload';
import { LotFields } from './LotFields';
import { EditLotPhotos, PendingLotPhotos, type PendingPhoto } from './LotPhotos';
import { uploadFailure } from './PhotoUploads';

/** What the new-lot form hands to the edit form when some photos did not upload. */
interface FormLocationState {
  uploadErrors?: string[];
  /** the failed uploads themselves (their files), to be sent again there */
  failedUploads?: QueuedUpload[];
}

/** /admin/lots/new and /admin/lots/{id}/edit (back-office §2 Lot form). */
export default function LotFormPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const store = useAppStore();
  const { lotId } = useParams();
  const id = lotId ? Number(lotId) : null;
  const lot = useGetAdminLotQuery(id ?? 0, { skip: id === null, refetchOnMountOrArgChange: true });
  const [fetchLatest] = useLazyGetAdminLotQuery();
  const [createLot] = useCreateLotMutation();
  const [updateLot] = useUpdateLotMutation();
  const [setPhotos] = useSetLotPhotosMutation();
  const [uploads, setUploads] = useState<QueuedUpload[]>([]);

  const [values, setValues] = useState<LotFormValues>(EMPTY_LOT);
  /** the lot as the form was filled from it: its version goes with the save */
  const [base, setBase] = useState<AdminLot | null>(null);
  const [pending, setPending] = useState<PendingPhoto[]>([]);
  const [errors, setErrors] = useState<Partial<Record<LotField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ latest: AdminLot; fields: LotField[] } | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const handedOver = location.state as FormLocationState | null;
  const uploadErrors = handedOver?.uploadErrors ?? [];
  // the typed text outlives an ended session (photos chosen but not yet uploaded do not)
  const initial = useMemo(
    () => (id === null ? EMPTY_LOT : base ? valuesOf(base) : null),
    [id, base],
  );
  // a draft of an edit goes on from the lot it was typed over: saved, it meets the version check
  const restoreDraft = useCallback((draftValues: LotFormValues, from?: AdminLot | null) => {
    setValues(draftValues);
    if (from) setBase((current) => (current && from.version < current.version ? from : current));
  }, []);
  const draft = useFormDraft({
    name: id === null ? 'lot:new' : `lot:${id}`,
    values,
    initial,
    restore: restoreDraft,
    meta: base,
  });

  useEffect(() => {
    if (lot.data && (!base || base.id !== lot.data.id)) {
      setValues(valuesOf(lot.data));
      setBase(lot.data);
    }
  }, [lot.data, base]);

  // back-office §2: if the lot cannot be loaded for editing, back to the list
  useEffect(() => {
    if (id !== null && lot.error) {
      toast('error', errorText(lot.error, t('lots.loadOneFailed')));
      void navigate('/admin/lots', { replace: true });
    }
  }, [id, lot.error, navigate, toast, t]);

  const set = (field: LotField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const focusFirst = (found: Partial<Record<LotField, unknown>>) => {
    const first = LOT_FIELD_ORDER.find((f) => found[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const showSaveError = (error: unknown) => {
    const byServer = serverFieldErrors(error);
    const mapped: Partial<Record<LotField, string>> = {};
    for (const [path, msg] of Object.entries(byServer)) {
      const field = SERVER_FIELD[path];
      if (field) mapped[field] = msg;
    }
    setErrors(mapped);
    setFailure(errorText(error, t('lots.saveFailed')));
    focusFirst(mapped);
  };

  /**
   * Uploads the chosen photos to the new lot one after the other (each shrunk first, with its
   * bar), then gives the lot their addresses in the chosen order. Answers the failed uploads
   * and what went wrong, in words.
   */
  const uploadPending = async (
    lotIdCreated: number,
  ): Promise<{ failed: QueuedUpload[]; errors: string[] }> => {
    const queued = pending.map((p) => waiting<QueuedUpload>({ key: p.key, file: p.file }));
    setUploads(queued);
    const uploaded: Photo[] = [];
    const failed: QueuedUpload[] = [];
    for (const upload of queued) {
      let latest = upload;
      const sent = await sendPhoto(
        upload,
        (_upload, file, onProgress) => uploadLotPhoto(store, lotIdCreated, file, onProgress),
        (patch) => {
          latest = { ...latest, ...patch };
          setUploads((all) => all.map((u) => (u.key === upload.key ? latest : u)));
        },
        lotPhotoName,
      );
      if (sent) uploaded.push(sent.result);
      else failed.push(latest);
    }
    const errors = failed.map((u) => uploadFailure(t, u));
    if (uploaded.length > 0) {
      try {
        await setPhotos({
          id: lotIdCreated,
          photos: uploaded.map((p) => listUrlOf(p.urls)),
          gallery_photos: uploaded.map((p) => galleryUrlOf(p.urls)),
        }).unwrap();
      } catch (error) {
        errors.push(errorText(error, t('photos.orderFailed')));
      }
    }
    return { failed, errors };
  };

  const save = async (version: number | null) => {
    const body = bodyOf(values);
    setSaving(true);
    setFailure(null);
    try {
      if (id === null) {
        const created = await createLot(body).unwrap();
        draft.clear();
        const { failed, errors } = await uploadPending(created.id);
        toast('success', t('lots.created', { name: body.name.de }));
        if (errors.length > 0) {
          void navigate(`/admin/lots/${created.id}/edit`, {
            state: { uploadErrors: errors, failedUploads: failed } satisfies FormLocationState,
          });
        } else {
          void navigate('/admin/lots');
        }
        return;
      }
      await updateLot({ id, body: { ...body, version: version ?? base?.version ?? 1 } }).unwrap();
      draft.clear();
      toast('success', t('lots.updated', { name: body.name.de }));
      void navigate('/admin/lots');
    } catch (error) {
      if (id !== null && base && apiErrorOf(error)?.code === 'STALE_VERSION') {
        const latest = await fetchLatest(id, false)
          .unwrap()
          .catch(() => null);
        if (latest) {
          setConflict({ latest, fields: changedFields(base, latest) });
          return;
        }
      }
      showSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const found = validateLot(values);
    setErrors(
      Object.fromEntries(Object.entries(found).map(([f]) => [f, t('validation.required')])),
    );
    setConflict(null);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    void save(null);
  };

  const keepMine = () => {
    if (!conflict) return;
    setBase(conflict.latest);
    const version = conflict.latest.version;
    setConflict(null);
    void save(version);
  };

  const takeTheirs = () => {
    if (!conflict) return;
    setValues(valuesOf(conflict.latest));
    setBase(conflict.latest);
    setConflict(null);
    setErrors({});
  };

  if (id !== null && !base) return <Spinner label={t('ui.loading')} />;

  return (
    <div>
      <Link
        to="/admin/lots"
        className="mb-3 inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('lots.backToList')}
      </Link>
      <PageHeader title={id === null ? t('lots.newTitle') : t('lots.editTitle', { id })} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <DraftNotice draft={draft} />
        {uploadErrors.length > 0 && (
          <ErrorBox>
            <p>{t('lots.someUploadsFailed')}</p>
            <ul className="mt-1 list-disc pl-5">
              {uploadErrors.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </ErrorBox>
        )}
        {failure && <ErrorBox>{failure}</ErrorBox>}
        {conflict && (
          <div
            role="alert"
            className="rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950"
          >
            <p className="font-bold">{t('lots.conflictTitle')}</p>
            <p className="mt-1">{t('lots.conflictText')}</p>
            <p className="mt-1">
              {conflict.fields.length > 0
                ? t('lots.conflictFields', {
                    fields: conflict.fields.map((f) => t(`lots.fields.${f}`)).join(', '),
                  })
                : t('lots.conflictPhotosOnly')}
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <button type="button" className="btn-primary" onClick={keepMine} disabled={saving}>
                <Save aria-hidden="true" className="size-4" />
                {t('lots.conflictKeepMine')}
              </button>
              <button
                type="button"
                className="btn-secondary"
                onClick={takeTheirs}
                disabled={saving}
              >
                <RotateCcw aria-hidden="true" className="size-4" />
                {t('lots.conflictTakeTheirs')}
              </button>
            </div>
          </div>
        )}
        <LotFields values={values} errors={errors} onChange={(f, v) => set(f)(v)} />
        <div className="card p-4 sm:p-6">
          {id !== null && lot.data ? (
            <EditLotPhotos lot={lot.data} handedOver={handedOver?.failedUploads} />
          ) : (
            <PendingLotPhotos pending={pending} onChange={setPending} uploads={uploads} />
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to="/admin/lots" className="btn-secondary justify-center">
            {t('ui.cancel')}
          </Link>
          <button type="submit" className="btn-primary justify-center" disabled={saving}>
            <Save aria-hidden="true" className="size-4" />
            {saving ? t('lots.saving') : id === null ? t('lots.createSubmit') : t('ui.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
