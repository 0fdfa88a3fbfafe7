import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRightLeft, ClipboardCheck, Printer, PackageX, RotateCcw } from 'lucide-react';
import { formatLabelCode } from '@furniture/contracts/label-codes';
import { Spinner } from '../../../../components/Spinner';
import { useAppStore } from '../../../../app/hooks';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { HandoverLinkSection } from '../../handovers';
import { formatDay } from '../../lib/dates';
import { apiErrorOf, errorText } from '../../lib/errors';
import { CodeScanner } from '../../ui/CodeScanner';
import { PageHeader } from '../../ui/PageHeader';
import { LotStatusBadge } from '../../ui/StatusBadges';
import { useToast } from '../../ui/Toasts';
import {
  useGetLotApplicationsQuery,
  useLazyScanQuery,
  useMoveLotMutation,
  useScanQuery,
  type ScanAnswer,
} from '../api/warehouse-api';
import { downloadLotLabel, downloadPlaceLabel } from '../lib/labels';

type ScannedLot = Extract<ScanAnswer, { kind: 'lot' }>['lot'];
type ScannedPlace = Extract<ScanAnswer, { kind: 'place' }>;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

/** What happens next with the lot: its family, pickup date and booked slot (applications). */
function NextStep({ lotId }: { lotId: number }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const apps = useGetLotApplicationsQuery(lotId, { refetchOnMountOrArgChange: true });
  if (apps.isLoading) return <Spinner label={t('ui.loading')} />;
  const list = apps.data ?? [];
  const approved = list.find((a) => a.status === 'approved');
  const waiting = list.filter((a) => a.status === 'pending').length;
  return (
    <section className="card p-4" aria-labelledby="scan-next">
      <h3 id="scan-next" className="font-bold text-slate-900">
        {t('warehouse.scan.next')}
      </h3>
      {apps.error && !apps.data ? (
        <p className="text-slate-700">{errorText(apps.error, t('warehouse.scan.nextFailed'))}</p>
      ) : approved ? (
        <>
          <p className="text-slate-900">
            {t('warehouse.scan.family', { name: approved.applicant_name })}
            {approved.pickup_by && (
              <>
                {' · '}
                {t('warehouse.scan.pickupBy', { day: formatDay(approved.pickup_by, lang) })}
              </>
            )}
          </p>
          <HandoverLinkSection application={approved} />
        </>
      ) : (
        <p className="text-slate-900">
          {waiting > 0
            ? t('warehouse.scan.queue', { count: waiting })
            : t('warehouse.scan.noFamily')}
        </p>
      )}
    </section>
  );
}

/** A lot's answer: place, status, next step; "Umlagern" by scanning the new place. */
function LotResult({ lot }: { lot: ScannedLot }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const store = useAppStore();
  const [moving, setMoving] = useState(false);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [lookUp] = useLazyScanQuery();
  const [move, moved] = useMoveLotMutation();
  const name = localize(lot.name, lang);

  const moveTo = async (placeId: number | null, placeName: string | null) => {
    try {
      await move({ lotId: lot.id, placeId }).unwrap();
      setMoving(false);
      toast(
        'success',
        placeName ? t('warehouse.scan.moved', { place: placeName }) : t('warehouse.scan.takenOff'),
      );
    } catch (error) {
      setMoveError(errorText(error, t('warehouse.scan.moveFailed')));
    }
  };
  const placeScanned = async (code: string) => {
    setMoveError(null);
    try {
      const found = await lookUp(code).unwrap();
      if (found.kind !== 'place') {
        setMoveError(t('warehouse.scan.notAPlace'));
        return;
      }
      await moveTo(found.storage_place.id, found.storage_place.name);
    } catch (error) {
      setMoveError(errorText(error, t('warehouse.scan.moveFailed')));
    }
  };
  const print = async () => {
    try {
      await downloadLotLabel(store, lot.id);
    } catch (error) {
      toast('error', errorText(error, t('warehouse.labelFailed')));
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <section className="card flex flex-col gap-3 p-4" aria-labelledby="scan-lot">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="scan-lot" className="text-xl font-bold text-slate-900">
            <span lang={name.lang}>{name.text}</span>{' '}
            <span className="font-normal text-slate-700">
              · {t('warehouse.lotN', { id: lot.id })}
            </span>
          </h2>
          <LotStatusBadge status={lot.status} />
        </div>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Fact label={t('warehouse.place')}>
            <span data-testid="scan-lot-place">
              {lot.storage_place ? lot.storage_place.name : t('warehouse.noPlace')}
            </span>
          </Fact>
          <Fact label={t('warehouse.code')}>
            <span className="font-mono">
              {lot.label_code ? formatLabelCode(lot.label_code) : '–'}
            </span>
          </Fact>
        </dl>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-primary"
            aria-expanded={moving}
            onClick={() => {
              setMoveError(null);
              setMoving((m) => !m);
            }}
          >
            <ArrowRightLeft aria-hidden="true" className="size-4" />
            {t('warehouse.scan.move')}
          </button>
          {lot.storage_place && (
            <button
              type="button"
              className="btn-secondary"
              disabled={moved.isLoading}
              onClick={() => void moveTo(null, null)}
            >
              <PackageX aria-hidden="true" className="size-4" />
              {t('warehouse.scan.takeOff')}
            </button>
          )}
          <button type="button" className="btn-secondary" onClick={() => void print()}>
            <Printer aria-hidden="true" className="size-4" />
            {t('warehouse.printLabel')}
          </button>
          <Link to={`/admin/lots/${lot.id}`} className="btn-secondary">
            {t('warehouse.scan.openLot')}
          </Link>
        </div>
        {moving && (
          <section
            className="rounded-lg border border-slate-300 p-3"
            aria-labelledby="scan-move-title"
          >
            <h3 id="scan-move-title" className="mb-2 font-bold text-slate-900">
              {t('warehouse.scan.moveTitle')}
            </h3>
            <CodeScanner
              label={t('warehouse.scan.placeCode')}
              submitLabel={t('warehouse.scan.moveHere')}
              busy={moved.isLoading}
              onCode={(code) => void placeScanned(code)}
            />
            {moveError && (
              <p role="alert" className="mt-2 font-medium text-red-800">
                {moveError}
              </p>
            )}
          </section>
        )}
      </section>
      <NextStep lotId={lot.id} />
    </div>
  );
}

/** A place's answer: what should be there; the count and the label. */
function PlaceResult({ found }: { found: ScannedPlace }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const store = useAppStore();
  const place = found.storage_place;
  const print = async () => {
    try {
      await downloadPlaceLabel(store, place.id);
    } catch (error) {
      toast('error', errorText(error, t('warehouse.labelFailed')));
    }
  };
  return (
    <section className="card flex flex-col gap-3 p-4" aria-labelledby="scan-place">
      <h2 id="scan-place" className="text-xl font-bold text-slate-900">
        {place.name}
      </h2>
      <p className="font-mono text-slate-700">{formatLabelCode(place.code)}</p>
      <h3 className="font-bold text-slate-900">
        {t('warehouse.scan.shouldBeHere', { count: found.lots.length })}
      </h3>
      {found.lots.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {found.lots.map((lot) => {
            const name = localize(lot.name, lang);
            return (
              <li key={lot.id} className="flex flex-wrap items-center gap-2 py-2">
                <Link to={`/admin/lots/${lot.id}`} className="text-blue-800 underline">
                  <span lang={name.lang}>{name.text}</span>
                </Link>
                <span className="text-slate-700">{t('warehouse.lotN', { id: lot.id })}</span>
                <LotStatusBadge status={lot.status} />
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <Link to={`/admin/storage-places/${place.id}/count`} className="btn-primary">
          <ClipboardCheck aria-hidden="true" className="size-4" />
          {t('warehouse.count.start')}
        </Link>
        <button type="button" className="btn-secondary" onClick={() => void print()}>
          <Printer aria-hidden="true" className="size-4" />
          {t('warehouse.printLabel')}
        </button>
      </div>
    </section>
  );
}

/**
 * /admin/scan and /admin/scan/{code} (issue 45), phone first: the camera reads a label (or a
 * code is typed); a lot's code shows the lot with its place, status and next step, a place's
 * code what should be on it. A label's QR code opens /admin/scan/{code} directly.
 */
export default function ScanPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const { code } = useParams();
  const found = useScanQuery(code ?? '', { skip: !code, refetchOnMountOrArgChange: true });
  const open = (next: string) => void navigate(`/admin/scan/${next}`);
  const missing = apiErrorOf(found.error)?.status === 404;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t('warehouse.scan.title')} description={t('warehouse.scan.lead')} />
      {code &&
        (found.isLoading ? (
          <Spinner label={t('ui.loading')} />
        ) : found.error && !found.data ? (
          <div role="alert" className="card flex flex-col items-start gap-3 p-4">
            <p className="font-semibold text-slate-900">
              {missing
                ? errorText(found.error, t('warehouse.scan.unknown'))
                : errorText(found.error, t('warehouse.scan.failed'))}
            </p>
            {!missing && (
              <button type="button" className="btn-primary" onClick={() => void found.refetch()}>
                <RotateCcw aria-hidden="true" className="size-4" />
                {t('ui.retry')}
              </button>
            )}
          </div>
        ) : found.data?.kind === 'lot' ? (
          <LotResult lot={found.data.lot} />
        ) : found.data?.kind === 'place' ? (
          <PlaceResult found={found.data} />
        ) : null)}
      <section className="card p-4" aria-labelledby="scan-another">
        <h2 id="scan-another" className="mb-2 text-lg font-bold text-slate-900">
          {code ? t('warehouse.scan.another') : t('warehouse.scan.scanLabel')}
        </h2>
        <CodeScanner
          label={t('warehouse.scanner.code')}
          submitLabel={t('warehouse.scanner.open')}
          stopAfterRead
          onCode={open}
        />
      </section>
    </div>
  );
}
