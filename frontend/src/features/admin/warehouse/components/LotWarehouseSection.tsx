import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Printer, ScanLine } from 'lucide-react';
import { formatLabelCode } from '@furniture/contracts/label-codes';
import { useAppStore } from '../../../../app/hooks';
import { errorText } from '../../lib/errors';
import { useToast } from '../../ui/Toasts';
import { useGetStoragePlacesQuery } from '../api/warehouse-api';
import { downloadLotLabel } from '../lib/labels';

/** The lot detail's warehouse box (issue 45): its code, its place, its label. */
export function LotWarehouseSection({
  lot,
}: {
  lot: { id: number; label_code?: string | null; storage_place_id?: number | null };
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const store = useAppStore();
  const places = useGetStoragePlacesQuery(undefined, { skip: !lot.storage_place_id });
  const place = places.data?.find((p) => p.id === lot.storage_place_id);
  const print = async () => {
    try {
      await downloadLotLabel(store, lot.id);
    } catch (error) {
      toast('error', errorText(error, t('warehouse.labelFailed')));
    }
  };
  return (
    <section className="card p-4 sm:p-5" aria-labelledby="lot-warehouse">
      <h2 id="lot-warehouse" className="mb-3 text-lg font-bold text-slate-900">
        {t('warehouse.title')}
      </h2>
      <dl className="grid gap-3">
        <div>
          <dt className="text-sm font-medium text-slate-600">{t('warehouse.code')}</dt>
          <dd className="font-mono text-slate-900">
            {lot.label_code ? formatLabelCode(lot.label_code) : '–'}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-600">{t('warehouse.place')}</dt>
          <dd className="text-slate-900">
            {lot.storage_place_id ? (place?.name ?? '…') : t('warehouse.noPlace')}
          </dd>
        </div>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-secondary" onClick={() => void print()}>
          <Printer aria-hidden="true" className="size-4" />
          {t('warehouse.printLabel')}
        </button>
        {lot.label_code && (
          <Link to={`/admin/scan/${lot.label_code}`} className="btn-secondary">
            <ScanLine aria-hidden="true" className="size-4" />
            {t('warehouse.scan.move')}
          </Link>
        )}
      </div>
    </section>
  );
}
