import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CalendarClock,
  CalendarX,
  Building2,
  Check,
  CheckCheck,
  Info,
  Loader2,
  MapPin,
  MessageCircle,
  Phone,
  RotateCcw,
  Truck,
  Undo2,
  X,
} from 'lucide-react';
import { NOT_SPECIFIED } from '@furniture/contracts/limits';
import { useLanguage } from '../../../../lib/language';
import { HandoverLinkSection } from '../../handovers';
import { formatDate, formatDay, relativeAge } from '../../lib/dates';
import { MessagesSection, type FamilyNumber } from '../../messages';
import { useFamilyT } from '../../lib/family-language';
import { ApplicationStatusBadge } from '../../ui/StatusBadges';
import type { Application } from '../api/applications-api';
import { formatPhone, whatsappLink } from '../lib/contact';
import { isNextInQueue, type LotHolder } from '../lib/grouping';
import { NotesSection } from './NotesSection';
import { PickupDialog, type PickupAction } from './PickupDialogs';
import { StatusActionDialog, type StatusAction } from './StatusActionDialog';

function ActionButton({
  action,
  onClick,
  tone,
}: {
  action: StatusAction;
  onClick: () => void;
  tone: 'primary' | 'danger' | 'secondary';
}) {
  const { t } = useTranslation('admin');
  const Icon = {
    approve: Check,
    reject: X,
    complete: CheckCheck,
    cancel_reservation: Undo2,
    reconsider: RotateCcw,
  }[action];
  const style = {
    primary: 'bg-green-700 text-white hover:bg-green-800',
    danger: 'bg-red-700 text-white hover:bg-red-800',
    secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
  }[tone];
  return (
    <button type="button" onClick={onClick} className={`btn min-h-10 px-3 text-sm ${style}`}>
      <Icon aria-hidden="true" className="size-4" />
      {t(`applications.actions.${action}`)}
    </button>
  );
}

/** One application of a lot's group (back-office §2 Application card). */
export function ApplicationCard({
  application,
  place,
  lotName,
  reservedFor,
}: {
  application: Application;
  place: number | undefined;
  lotName: string;
  /** the application of the lot that is approved or about to be, if any (maybe this one) */
  reservedFor: LotHolder | null;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [action, setAction] = useState<StatusAction | null>(null);
  const [pickupAction, setPickupAction] = useState<PickupAction | null>(null);
  const familyT = useFamilyT(application.language);
  const age = relativeAge(application.created_at, lang);
  // the family's data was erased (data protection): the record stays for the lot's history
  const erased = application.applicant_phone.startsWith('erased:');
  const whatsapp = erased ? null : application.applicant_whatsapp || application.applicant_phone;
  const canContact = application.status === 'pending' || application.status === 'approved';
  const next = isNextInQueue(application, place);
  const blocked = reservedFor !== null && reservedFor.id !== application.id;
  const approval = application.approval;
  // the prefilled message is in the family's language (issue 19), whatever the page language
  const message = familyT('applications.whatsappMessage', {
    name: application.applicant_name,
    lot: application.lot?.name[application.language] || lotName,
    id: application.lot_id,
  });
  const overdue = application.status === 'approved' && application.pickup_overdue;
  // the numbers messages go to (WhatsApp, and the phone for SMS), for the opt-out switches
  const numbers: FamilyNumber[] = erased
    ? []
    : whatsapp && whatsapp !== application.applicant_phone
      ? [
          {
            phone: whatsapp,
            label: t('messages.optOut.whatsappNumber', { phone: formatPhone(whatsapp) }),
          },
          {
            phone: application.applicant_phone,
            label: t('messages.optOut.phoneNumber', {
              phone: formatPhone(application.applicant_phone),
            }),
          },
        ]
      : [
          {
            phone: application.applicant_phone,
            label: t('messages.optOut.number', { phone: formatPhone(application.applicant_phone) }),
          },
        ];

  return (
    <li
      className={`rounded-xl border bg-white p-3 sm:p-4 ${next ? 'border-green-600 ring-1 ring-green-600' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
        {place !== undefined && (
          <span
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 font-bold text-slate-900"
            aria-label={t('applications.place', { n: place })}
          >
            {place}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-slate-900">
            {erased ? (
              <span className="italic text-slate-700">{t('applications.erased')}</span>
            ) : (
              application.applicant_name
            )}{' '}
            <span className="font-normal text-slate-600">#{application.id}</span>
          </p>
          <p className="text-sm text-slate-700">
            {t('applications.appliedAt', { date: formatDate(application.created_at, lang) })} ·{' '}
            {age ?? t('applications.justNow')}
          </p>
        </div>
        <div
          className={`flex basis-full flex-wrap items-center gap-2 sm:basis-auto sm:pl-0 ${place !== undefined ? 'pl-12' : ''}`}
        >
          {next && (
            <span className="rounded-full bg-green-700 px-2.5 py-0.5 text-sm font-semibold text-white">
              {t('applications.nextInQueue')}
            </span>
          )}
          {overdue && (
            <span className="rounded-full bg-red-700 px-2.5 py-0.5 text-sm font-semibold text-white">
              {t('applications.pickup.overdueBadge')}
            </span>
          )}
          <ApplicationStatusBadge status={application.status} />
        </div>
      </div>

      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex items-center gap-2">
          <dt>
            <Phone aria-hidden="true" className="size-4 text-slate-500" />
            <span className="sr-only">{t('applications.phone')}</span>
          </dt>
          <dd>
            {erased ? (
              '—'
            ) : (
              <a
                href={`tel:${application.applicant_phone}`}
                className="text-blue-800 hover:underline"
              >
                {formatPhone(application.applicant_phone)}
              </a>
            )}
          </dd>
        </div>
        {canContact && whatsapp && (
          <div className="flex items-center gap-2">
            <dt>
              <MessageCircle aria-hidden="true" className="size-4 text-slate-500" />
              <span className="sr-only">WhatsApp</span>
            </dt>
            <dd>
              <a
                href={whatsappLink(whatsapp, message)}
                target="_blank"
                rel="noreferrer"
                className="font-medium text-green-800 hover:underline"
              >
                {t('applications.whatsapp', { phone: formatPhone(whatsapp) })}
              </a>
            </dd>
          </div>
        )}
        <div className="flex items-center gap-2">
          <dt>
            <MapPin aria-hidden="true" className="size-4 text-slate-500" />
            <span className="sr-only">{t('applications.address')}</span>
          </dt>
          <dd className="text-slate-800">
            {[application.applicant_city, application.applicant_address]
              .map((part) =>
                !part || part === NOT_SPECIFIED ? t('applications.notSpecified') : part,
              )
              .join(', ')}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <Truck aria-hidden="true" className="size-4 text-slate-500" />
            <span className="sr-only">{t('applications.deliveryHelp')}</span>
          </dt>
          <dd className="text-slate-800">
            {t('applications.deliveryHelpValue', {
              value: application.needs_delivery_help ? t('ui.yes') : t('ui.no'),
            })}
          </dd>
        </div>
        {application.referral && (
          <div className="flex items-center gap-2 sm:col-span-2">
            <dt>
              <Building2 aria-hidden="true" className="size-4 text-slate-500" />
              <span className="sr-only">{t('applications.referral')}</span>
            </dt>
            <dd className="text-slate-800">
              {t('applications.referredBy', {
                agency: application.referral.agency.name,
                referrer: application.referral.referrer.name,
              })}
            </dd>
          </div>
        )}
        <div className="text-slate-600 sm:col-span-2">
          <dt className="inline">{t('applications.updatedAt')}: </dt>
          <dd className="inline">{formatDate(application.updated_at, lang)}</dd>
        </div>
      </dl>

      {application.status === 'approved' && application.pickup_by && (
        <p
          className={`mt-3 flex items-start gap-2 rounded-lg px-3 py-2 text-sm ${overdue ? 'bg-red-50 text-red-950' : 'bg-slate-50 text-slate-900'}`}
        >
          {overdue ? (
            <CalendarX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          ) : (
            <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          )}
          {t(overdue ? 'applications.pickup.overdue' : 'applications.pickup.until', {
            date: formatDay(application.pickup_by, lang),
          })}
          {application.pickup_reminded_at && !overdue && ` ${t('applications.pickup.reminded')}`}
        </p>
      )}
      {application.status === 'approved' && <HandoverLinkSection application={application} />}
      {application.status === 'pending' && application.next_in_queue_after !== null && (
        <p
          role="status"
          className="mt-3 flex items-start gap-2 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-950"
        >
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('applications.pickup.offeredAfter', { id: application.next_in_queue_after })}
        </p>
      )}

      {approval?.state === 'failed' && application.status === 'pending' && (
        <p
          role="status"
          className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {approval.reason === 'not_found'
            ? t('applications.approvalFailedGone')
            : t('applications.approvalFailed', {
                status: approval.lot_status
                  ? t(`lotStatus.${approval.lot_status}`)
                  : t('applications.lotUnavailable'),
              })}
        </p>
      )}

      <div className="mt-3 flex flex-wrap items-center gap-2">
        {approval?.state === 'requested' && application.status === 'pending' ? (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-950"
          >
            <Loader2 aria-hidden="true" className="size-4 shrink-0 animate-spin" />
            {t('applications.approvalRequested')}
          </p>
        ) : null}
        {application.status === 'pending' &&
          approval?.state !== 'requested' &&
          (blocked ? (
            <p className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
              <Info aria-hidden="true" className="size-4 shrink-0" />
              {t('applications.reservedForOther', {
                id: reservedFor.id,
                name: reservedFor.applicant_name,
              })}
            </p>
          ) : (
            <>
              <ActionButton action="approve" tone="primary" onClick={() => setAction('approve')} />
              <ActionButton action="reject" tone="danger" onClick={() => setAction('reject')} />
            </>
          ))}
        {application.status === 'approved' && (
          <>
            <ActionButton action="complete" tone="primary" onClick={() => setAction('complete')} />
            <ActionButton
              action="cancel_reservation"
              tone="secondary"
              onClick={() => setAction('cancel_reservation')}
            />
            <button
              type="button"
              onClick={() => setPickupAction('extend')}
              className="btn min-h-10 border border-slate-300 bg-white px-3 text-sm text-slate-900 hover:bg-slate-100"
            >
              <CalendarClock aria-hidden="true" className="size-4" />
              {t('applications.pickup.extend')}
            </button>
            {overdue && (
              <button
                type="button"
                onClick={() => setPickupAction('lapse')}
                className="btn min-h-10 bg-red-700 px-3 text-sm text-white hover:bg-red-800"
              >
                <CalendarX aria-hidden="true" className="size-4" />
                {t('applications.pickup.lapse')}
              </button>
            )}
          </>
        )}
        {application.status === 'rejected' && (
          <>
            <p className="text-sm text-red-900">{t('applications.rejectedMessage')}</p>
            <button
              type="button"
              className="text-sm font-medium text-blue-800 underline"
              onClick={() => setAction('reconsider')}
            >
              {t('applications.actions.reconsider')}
            </button>
          </>
        )}
        {application.status === 'completed' && (
          <p className="text-sm text-blue-900">{t('applications.completedMessage')}</p>
        )}
      </div>

      <div className="mt-3">
        <NotesSection application={application} />
      </div>
      <div className="mt-3">
        <MessagesSection
          collapsible
          thread={{ application_id: application.id }}
          sendTo={
            erased
              ? undefined
              : { to: 'application', id: application.id, language: application.language }
          }
          numbers={numbers}
        />
      </div>
      {pickupAction && (
        <PickupDialog
          application={application}
          action={pickupAction}
          onClose={() => setPickupAction(null)}
        />
      )}
      {action && (
        <StatusActionDialog
          application={application}
          action={action}
          onClose={() => setAction(null)}
        />
      )}
    </li>
  );
}
