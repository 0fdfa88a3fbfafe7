import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Hand, MessageCircle, PackageCheck, Truck } from 'lucide-react';
import type { ApplicationCreated } from '@furniture/contracts/api/applications';
import { Limits } from '@furniture/contracts/limits';
import { api } from '../../../app/api';
import { useAppDispatch } from '../../../app/hooks';
import { useLanguage } from '../../../lib/language';
import { localize, type LocalizedText } from '../../../lib/localized';
import type { LotStatus } from '@furniture/contracts/enums';
import { Link } from 'react-router';
import { useGetQueueInfoQuery } from '../api/applications-api';
import { rememberPhone, useRememberedPhone } from '../lib/applicant-memory';
import { ApplicationStatusBadge } from './ApplicationStatusBadge';

// the form and its dialog code load when a family wants to apply
const ApplyModal = lazy(() => import('./ApplyModal'));
const DuplicateDialog = lazy(() =>
  import('./DuplicateDialog').then((m) => ({ default: m.DuplicateDialog })),
);

export interface LotForActions {
  id: number;
  name: LocalizedText;
  status: LotStatus;
}

/**
 * The lot's action by status (public-site §4): apply when available, contact when reserved,
 * a disabled button when transferred or taken. After a successful application the button
 * gives way to a message, and the lot and its queue reload after 2 seconds; from then on (and
 * whenever this tab's family, or the family whose number this device remembers, has applied)
 * its place shows the application's status and queue position instead of a button that could
 * only say "already applied".
 */
export function LotActions({ lot }: { lot: LotForActions }) {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const dispatch = useAppDispatch();
  const [applyOpen, setApplyOpen] = useState(false);
  const [duplicateOpen, setDuplicateOpen] = useState(false);
  const [created, setCreated] = useState<ApplicationCreated | null>(null);
  const phone = useRememberedPhone();
  // the same query as the queue panel's: one request for both
  const { data: info } = useGetQueueInfoQuery({ lotId: lot.id, phone: phone ?? undefined });

  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => {
      dispatch(
        api.util.invalidateTags([
          { type: 'Lot', id: lot.id },
          { type: 'QueueInfo', id: lot.id },
          'Eligibility',
        ]),
      );
    }, Limits.applySuccessReloadMs);
    return () => clearTimeout(timer);
  }, [created, dispatch, lot.id]);

  if (created) {
    return (
      <div
        role="status"
        className="flex items-start gap-3 rounded-xl border border-green-300 bg-green-50 p-4 text-green-950"
      >
        <CheckCircle2 aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-green-800" />
        <div>
          <p className="font-semibold">{t('apply.successTitle')}</p>
          <p className="mt-1">
            {t('apply.successText', { id: created.id, position: created.queue_position })}
          </p>
        </div>
      </div>
    );
  }

  if (info?.user_has_application && info.user_application_status) {
    const approved = info.user_application_status === 'approved';
    return (
      <div role="status" className="rounded-xl border border-blue-300 bg-white p-4 text-slate-900">
        <p className="font-semibold">
          {approved ? t('queue.reservedForYou') : t('queue.alreadyApplied')}
        </p>
        <p className="mt-2 flex flex-wrap items-center gap-2">
          <ApplicationStatusBadge status={info.user_application_status} />
          {info.queue_position !== null && !approved && (
            <span>{t('queue.position', { position: info.queue_position })}</span>
          )}
        </p>
        <Link to="/check-status" className="mt-3 inline-block font-medium text-blue-800 underline">
          {t('common:nav.checkStatus')}
        </Link>
      </div>
    );
  }

  if (lot.status === 'reserved') {
    return (
      <a href="#contact" className="btn-secondary w-full justify-center sm:w-auto">
        <MessageCircle aria-hidden="true" className="size-5" />
        {t('lot.actions.contact')}
      </a>
    );
  }
  if (lot.status === 'transferred') {
    return (
      <button type="button" disabled className="btn-secondary w-full justify-center sm:w-auto">
        <Truck aria-hidden="true" className="size-5" />
        {t('lot.actions.transferred')}
      </button>
    );
  }
  if (lot.status !== 'available') {
    return (
      <button type="button" disabled className="btn-secondary w-full justify-center sm:w-auto">
        <PackageCheck aria-hidden="true" className="size-5" />
        {t('lot.actions.notAvailable')}
      </button>
    );
  }

  return (
    <>
      <button
        type="button"
        className="btn-primary w-full justify-center py-3 text-lg sm:w-auto"
        onClick={() => setApplyOpen(true)}
      >
        <Hand aria-hidden="true" className="size-5" />
        {t('lot.actions.apply')}
      </button>
      {applyOpen && (
        <Suspense fallback={null}>
          <ApplyModal
            open={applyOpen}
            onClose={() => setApplyOpen(false)}
            lotId={lot.id}
            lotName={localize(lot.name, lang).text}
            onApplied={(answer, phone, remember) => {
              rememberPhone(phone, { onDevice: remember });
              setApplyOpen(false);
              setCreated(answer);
            }}
            onDuplicate={() => {
              setApplyOpen(false);
              setDuplicateOpen(true);
            }}
          />
        </Suspense>
      )}
      {duplicateOpen && (
        <Suspense fallback={null}>
          <DuplicateDialog open={duplicateOpen} onClose={() => setDuplicateOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
