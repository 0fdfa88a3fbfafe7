import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Download, Search, Trash2 } from 'lucide-react';
import { TextField } from '../../../../components/TextField';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { formatDate } from '../../lib/dates';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorBox, PageHeader } from '../../ui/PageHeader';
import {
  useErasePhoneMutation,
  useLookupPhoneMutation,
  usePrivacyRecordsMutation,
  type PrivacyErasure,
  type PrivacyLookup,
  type PrivacyRecords,
} from '../api/privacy-api';
import { exportFileName, saveJson } from '../lib/export';

type StoredRecord = Record<string, unknown>;

interface Found {
  lookup: PrivacyLookup;
  records: PrivacyRecords;
}

const str = (v: unknown) =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/**
 * The numbers whose WhatsApp/SMS opt-outs belong to the answer (issue 30): the one looked up and
 * the WhatsApp numbers its applications and wishes gave.
 */
function numbersOf(lookup: PrivacyLookup): string[] {
  const all = [
    lookup.phone,
    ...lookup.applications.map((a) => a.applicant_whatsapp),
    ...lookup.wishes.map((w) => w.applicant_whatsapp),
  ];
  const valid = all.filter((n): n is string => typeof n === 'string' && /^\+\d{6,16}$/.test(n));
  return [...new Set(valid)].slice(0, 20);
}

/** One kind of stored record: its count, then one line per record (or "none"). */
function Section<T>({
  id,
  title,
  items,
  line,
}: {
  id: string;
  title: string;
  items: readonly T[];
  line: (item: T) => ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <section className="card p-4" aria-labelledby={id} data-testid={id}>
      <h2 id={id} className="text-lg font-bold text-slate-900">
        {title} <span className="font-normal text-slate-700">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('privacy.none')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200">
          {items.map((item, i) => (
            <li key={i} className="py-2 text-slate-800">
              {line(item)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Data protection (issue 15, administrators only): everything stored about a phone number
 * (applications with their notes, wishes, the mails sent, the activity entries), its download as
 * JSON, and its erasure after a confirmation. The number is sent in POST bodies only.
 */
export function PrivacyPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [phone, setPhone] = useState('');
  const [searched, setSearched] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [erased, setErased] = useState<PrivacyErasure | null>(null);
  const [lookupPhone, lookupState] = useLookupPhoneMutation();
  const [readRecords, recordsState] = usePrivacyRecordsMutation();
  const [erasePhone, eraseState] = useErasePhoneMutation();
  const [failure, setFailure] = useState<unknown>(null);

  const search = async (number: string): Promise<Found | null> => {
    setFailure(null);
    try {
      const lookup = await lookupPhone(number).unwrap();
      const records = await readRecords({
        application_ids: lookup.applications.map((a) => num(a.id)),
        wish_ids: lookup.wishes.map((w) => num(w.id)),
        donation_ids: lookup.donations.map((d) => num(d.id)),
        phones: numbersOf(lookup),
      }).unwrap();
      const result = { lookup, records };
      setFound(result);
      return result;
    } catch (err) {
      setFound(null);
      setFailure(err);
      return null;
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setErased(null);
    const number = phone.trim();
    setSearched(number);
    await search(number);
  };

  const onErase = async () => {
    try {
      const result = await erasePhone(searched).unwrap();
      setConfirming(false);
      setErased(result);
      await search(searched);
    } catch {
      // shown inside the dialog
    }
  };

  const busy = lookupState.isLoading || recordsState.isLoading;
  const phoneError = failure ? serverFieldErrors(failure).phone : undefined;
  const total = found
    ? found.lookup.applications.length +
      found.lookup.wishes.length +
      found.lookup.donations.length +
      found.records.mails.length +
      found.records.activity.length +
      (found.records.messages?.length ?? 0) +
      (found.records.opt_outs?.length ?? 0)
    : 0;
  const erasable = found
    ? found.lookup.applications.length + found.lookup.wishes.length + found.lookup.donations.length
    : 0;

  return (
    <div>
      <PageHeader title={t('privacy.title')} description={t('privacy.intro')} />
      <form
        onSubmit={onSubmit}
        className="card mb-5 flex flex-col gap-3 p-4 sm:flex-row sm:items-end"
      >
        <TextField
          className="flex-1"
          label={t('privacy.phone')}
          required
          type="tel"
          autoComplete="off"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          hint={t('privacy.phoneHint')}
          error={phoneError}
        />
        <button type="submit" className="btn-primary min-h-11" disabled={busy || !phone.trim()}>
          {busy ? <Spinner /> : <Search aria-hidden="true" className="size-4" />}
          {t('privacy.search')}
        </button>
      </form>

      {failure !== null && !phoneError && (
        <ErrorBox>{errorText(failure, t('privacy.loadFailed'))}</ErrorBox>
      )}
      {erased && (
        <p
          role="status"
          className="mb-4 flex items-center gap-2 rounded-lg border border-green-300 bg-green-50 p-3 font-medium text-green-900"
        >
          <CheckCircle2 aria-hidden="true" className="size-5" />
          {t('privacy.erased', {
            applications: erased.applications,
            wishes: erased.wishes,
            donations: erased.donations,
          })}
        </p>
      )}

      {found && (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-medium text-slate-900" data-testid="privacy-summary">
              {total === 0
                ? t('privacy.nothing')
                : t('privacy.summary', {
                    applications: found.lookup.applications.length,
                    wishes: found.lookup.wishes.length,
                    donations: found.lookup.donations.length,
                    mails: found.records.mails.length,
                    entries: found.records.activity.length,
                  })}
            </p>
            {total > 0 && (
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-secondary min-h-10"
                  onClick={() =>
                    saveJson(exportFileName(new Date()), {
                      exported_at: new Date().toISOString(),
                      phone: found.lookup.phone,
                      applications: found.lookup.applications,
                      wishes: found.lookup.wishes,
                      donations: found.lookup.donations,
                      mails: found.records.mails,
                      messages: found.records.messages ?? [],
                      opt_outs: found.records.opt_outs ?? [],
                      activity: found.records.activity,
                    })
                  }
                >
                  <Download aria-hidden="true" className="size-4" />
                  {t('privacy.download')}
                </button>
                {erasable > 0 && (
                  <button
                    type="button"
                    className="btn min-h-10 bg-red-700 text-white hover:bg-red-800"
                    onClick={() => {
                      eraseState.reset();
                      setConfirming(true);
                    }}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    {t('privacy.erase')}
                  </button>
                )}
              </div>
            )}
          </div>

          <Section
            id="privacy-applications"
            title={t('privacy.applications')}
            items={found.lookup.applications}
            line={(a) => (
              <>
                {t('privacy.application', { id: num(a.id), lot: num(a.lot_id) })} ·{' '}
                {t(`applicationStatus.${str(a.status)}`)} · {str(a.applicant_name)} ·{' '}
                {formatDate(str(a.created_at), lang)}
              </>
            )}
          />
          <Section
            id="privacy-wishes"
            title={t('privacy.wishes')}
            items={found.lookup.wishes}
            line={(w) => (
              <>
                {t('privacy.wish', { id: num(w.id) })} · {t(`wishStatus.${str(w.status)}`)} ·{' '}
                {str(w.applicant_name)} · {formatDate(str(w.created_at), lang)}
              </>
            )}
          />
          <Section
            id="privacy-donations"
            title={t('privacy.donations')}
            items={found.lookup.donations}
            line={(d) => (
              <>
                {t('privacy.donation', { id: num(d.id) })} · {t(`donationStatus.${str(d.status)}`)}{' '}
                · {str(d.donor_name)} · {formatDate(str(d.created_at), lang)}
              </>
            )}
          />
          <Section
            id="privacy-mails"
            title={t('privacy.mails')}
            items={found.records.mails as StoredRecord[]}
            line={(m) => (
              <>
                {str(m.subject)} · {str(m.to)} · {t(`privacy.mailState.${str(m.state)}`)} ·{' '}
                {formatDate(str(m.occurred_at), lang)}
              </>
            )}
          />
          <Section
            id="privacy-messages"
            title={t('privacy.messages')}
            items={(found.records.messages ?? []) as StoredRecord[]}
            line={(m) => (
              <>
                {str(m.template)} · {str(m.channel) === 'sms' ? 'SMS' : 'WhatsApp'} ·{' '}
                {t(`privacy.messageStatus.${str(m.status)}`, { defaultValue: str(m.status) })} ·{' '}
                {formatDate(str(m.created_at), lang)}
              </>
            )}
          />
          <Section
            id="privacy-opt-outs"
            title={t('privacy.optOuts')}
            items={(found.records.opt_outs ?? []) as StoredRecord[]}
            line={(o) => (
              <>
                {t('privacy.optOut', { channel: str(o.channel) === 'sms' ? 'SMS' : 'WhatsApp' })} ·{' '}
                {formatDate(str(o.since), lang)}
              </>
            )}
          />
          <Section
            id="privacy-activity"
            title={t('privacy.activity')}
            items={found.records.activity as StoredRecord[]}
            line={(e) => (
              <>
                {t(`activity.actions.${str(e.action_type)}`, { defaultValue: str(e.action_type) })}{' '}
                ·{' '}
                {t(`activity.targets.${str(e.target_type)}`, { defaultValue: str(e.target_type) })}{' '}
                #{num(e.target_id)} · {formatDate(str(e.created_at), lang)}
              </>
            )}
          />
        </div>
      )}

      <ConfirmDialog
        open={confirming}
        title={t('privacy.confirmTitle')}
        confirmLabel={t('privacy.confirmErase')}
        onConfirm={onErase}
        onClose={() => setConfirming(false)}
        busy={eraseState.isLoading}
        error={eraseState.isError ? errorText(eraseState.error, t('privacy.eraseFailed')) : null}
      >
        <p>
          {t('privacy.confirmText', {
            applications: found?.lookup.applications.length ?? 0,
            wishes: found?.lookup.wishes.length ?? 0,
            donations: found?.lookup.donations.length ?? 0,
          })}
        </p>
        <p className="mt-2 font-medium">{t('privacy.confirmWarning')}</p>
      </ConfirmDialog>
    </div>
  );
}

export default PrivacyPage;
