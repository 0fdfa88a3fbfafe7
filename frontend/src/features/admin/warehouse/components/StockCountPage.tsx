import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, ClipboardCheck, Wrench, X } from 'lucide-react';
import { formatLabelCode } from '@furniture/contracts/label-codes';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { errorText } from '../../lib/errors';
import { CodeScanner } from '../../ui/CodeScanner';
import { EmptyState, ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useCountPlaceMutation,
  useGetStoragePlacesQuery,
  useMoveLotMutation,
  type StockCountAnswer,
} from '../api/warehouse-api';

type CountedLot = StockCountAnswer['missing'][number];

/**
 * /admin/storage-places/{id}/count, "Inventur" (issue 45): every label on the place is scanned
 * (or typed); the server compares with what is recorded there; staff correct both lists in one
 * step (moves, each in the activity log), and the place is counted again.
 */
export default function StockCountPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const id = Number(useParams().placeId);
  const places = useGetStoragePlacesQuery(undefined, { refetchOnMountOrArgChange: true });
  const place = places.data?.find((p) => p.id === id);
  const placeName = (placeId: number | null | undefined) =>
    places.data?.find((p) => p.id === placeId)?.name ?? null;
  const [codes, setCodes] = useState<string[]>([]);
  const [result, setResult] = useState<StockCountAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [count, counting] = useCountPlaceMutation();
  const [move] = useMoveLotMutation();
  const [correcting, setCorrecting] = useState(false);

  const add = (code: string) => {
    setResult(null);
    setCodes((list) => (list.includes(code) ? list : [...list, code]));
  };
  const evaluate = async () => {
    setFailure(null);
    try {
      setResult(await count({ placeId: id, codes }).unwrap());
    } catch (error) {
      setFailure(errorText(error, t('warehouse.count.failed')));
    }
  };
  const correct = async () => {
    if (!result) return;
    setCorrecting(true);
    setFailure(null);
    try {
      for (const lot of result.unexpected) await move({ lotId: lot.id, placeId: id }).unwrap();
      for (const lot of result.missing) await move({ lotId: lot.id, placeId: null }).unwrap();
      toast('success', t('warehouse.count.corrected'));
      setResult(await count({ placeId: id, codes }).unwrap());
    } catch (error) {
      setFailure(errorText(error, t('warehouse.count.correctFailed')));
    } finally {
      setCorrecting(false);
    }
  };
  const lotLine = (lot: CountedLot, extra?: string | null) => {
    const name = localize(lot.name, lang);
    return (
      <li key={lot.id} className="flex flex-wrap items-center gap-x-2 py-2">
        <Link to={`/admin/lots/${lot.id}`} className="text-blue-800 underline">
          <span lang={name.lang}>{name.text}</span>
        </Link>
        <span className="text-slate-700">{t('warehouse.lotN', { id: lot.id })}</span>
        {extra && <span className="text-sm text-slate-700">({extra})</span>}
      </li>
    );
  };

  if (places.isLoading) return <Spinner label={t('ui.loading')} />;
  if (!place)
    return (
      <div>
        <PageHeader title={t('warehouse.count.title')} />
        <EmptyState title={t('warehouse.count.noPlace')} />
      </div>
    );
  const clean =
    result &&
    result.missing.length === 0 &&
    result.unexpected.length === 0 &&
    result.unknown_codes.length === 0;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t('warehouse.count.titleOf', { name: place.name })}
        description={t('warehouse.count.lead', { count: place.lot_count })}
      />
      <section className="card p-4" aria-labelledby="count-scan">
        <h2 id="count-scan" className="mb-2 text-lg font-bold text-slate-900">
          {t('warehouse.count.scanTitle')}
        </h2>
        <CodeScanner
          label={t('warehouse.scanner.code')}
          submitLabel={t('warehouse.count.add')}
          onCode={add}
        />
      </section>
      <section className="card flex flex-col gap-3 p-4" aria-labelledby="count-scanned">
        <h2 id="count-scanned" className="text-lg font-bold text-slate-900">
          {t('warehouse.count.scanned', { count: codes.length })}
        </h2>
        {codes.length > 0 && (
          <ul className="flex flex-wrap gap-2">
            {codes.map((code) => (
              <li
                key={code}
                className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 font-mono text-slate-900"
              >
                {formatLabelCode(code)}
                <button
                  type="button"
                  className="inline-flex size-11 items-center justify-center rounded-full hover:bg-slate-200"
                  aria-label={t('warehouse.count.remove', { code: formatLabelCode(code) })}
                  onClick={() => {
                    setResult(null);
                    setCodes((list) => list.filter((c) => c !== code));
                  }}
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        )}
        <div>
          <button
            type="button"
            className="btn-primary"
            disabled={counting.isLoading}
            onClick={() => void evaluate()}
          >
            <ClipboardCheck aria-hidden="true" className="size-4" />
            {t('warehouse.count.evaluate')}
          </button>
        </div>
        {failure && <ErrorBox>{failure}</ErrorBox>}
      </section>
      {result && (
        <section className="card flex flex-col gap-3 p-4" aria-labelledby="count-result">
          <h2 id="count-result" className="text-lg font-bold text-slate-900">
            {t('warehouse.count.result')}
          </h2>
          {clean ? (
            <p role="status" className="flex items-center gap-2 font-medium text-green-800">
              <CheckCircle2 aria-hidden="true" className="size-5" />
              {t('warehouse.count.allGood')}
            </p>
          ) : (
            <>
              <h3 className="font-bold text-slate-900">
                {t('warehouse.count.missing', { count: result.missing.length })}
              </h3>
              {result.missing.length > 0 && (
                <ul className="divide-y divide-slate-200">
                  {result.missing.map((lot) => lotLine(lot))}
                </ul>
              )}
              <h3 className="font-bold text-slate-900">
                {t('warehouse.count.unexpected', { count: result.unexpected.length })}
              </h3>
              {result.unexpected.length > 0 && (
                <ul className="divide-y divide-slate-200">
                  {result.unexpected.map((lot) =>
                    lotLine(
                      lot,
                      placeName(lot.storage_place_id)
                        ? t('warehouse.count.recordedAt', {
                            place: placeName(lot.storage_place_id),
                          })
                        : t('warehouse.noPlace'),
                    ),
                  )}
                </ul>
              )}
              {result.unknown_codes.length > 0 && (
                <p className="text-slate-700">
                  {t('warehouse.count.unknown', {
                    codes: result.unknown_codes.join(', '),
                  })}
                </p>
              )}
              {(result.missing.length > 0 || result.unexpected.length > 0) && (
                <div>
                  <p className="mb-2 text-sm text-slate-700">{t('warehouse.count.correctHint')}</p>
                  <button
                    type="button"
                    className="btn-primary"
                    disabled={correcting}
                    onClick={() => void correct()}
                  >
                    <Wrench aria-hidden="true" className="size-4" />
                    {t('warehouse.count.correct')}
                  </button>
                </div>
              )}
            </>
          )}
        </section>
      )}
    </div>
  );
}
