import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RotateCcw, Search, SearchX } from 'lucide-react';
import { normalizePhoneInput } from '@furniture/contracts/phone';
import { isApiError } from '../../../app/api';
import { formatDayMonthYear } from '../../../components/DateInput';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/language';
import { useErrorText } from '../../../lib/use-field-errors';
import { checkPhone, type FieldProblem } from '../../../lib/validation';
import { useLookupDonationsMutation } from '../api/donations-api';
import { DonationStatusBadge } from './DonationStatusBadge';

/** "My donations": a donor's donations by phone, newest first, with status and photos. */
export function DonationLookup() {
  const { t } = useTranslation('donate');
  const lang = useLanguage();
  const errorText = useErrorText();
  const [phone, setPhone] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [lookup, result] = useLookupDonationsMutation();
  const inputRef = useRef<HTMLInputElement>(null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = checkPhone(phone, { required: true });
    setProblem(found);
    if (found) {
      inputRef.current?.focus();
      return;
    }
    void lookup(normalizePhoneInput(phone));
  };

  const newSearch = () => {
    result.reset();
    setPhone('');
    setTimeout(() => inputRef.current?.focus(), 0);
  };

  const failureText = (error: unknown) =>
    isApiError(error) && error.status === 429
      ? t('lookup.rateLimited')
      : isApiError(error) && error.status === 0
        ? t('lookup.network')
        : t('lookup.error');

  return (
    <section aria-labelledby="donation-lookup-title" className="flex flex-col gap-4">
      <div>
        <h2 id="donation-lookup-title" className="text-xl font-semibold">
          {t('lookup.title')}
        </h2>
        <p className="mt-1 text-slate-700">{t('lookup.lead')}</p>
      </div>
      {result.isUninitialized || result.isError ? (
        <form onSubmit={onSubmit} noValidate className="card flex flex-col gap-4 p-5">
          <TextField
            ref={inputRef}
            label={t('lookup.phone')}
            required
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            name="lookupPhone"
            value={phone}
            error={
              problem?.key === 'required'
                ? t('lookup.phoneRequired')
                : errorText(problem ?? undefined)
            }
            onChange={(e) => {
              setPhone(e.target.value);
              setProblem(null);
            }}
          />
          {result.isError && (
            <p
              role="alert"
              className="rounded-lg border border-red-300 bg-red-50 p-3 font-medium text-red-900"
            >
              {failureText(result.error)}
            </p>
          )}
          <button type="submit" className="btn-primary justify-center sm:self-start">
            <Search aria-hidden="true" className="size-5" />
            {t('lookup.submit')}
          </button>
        </form>
      ) : result.isLoading ? (
        <Spinner label={t('lookup.searching')} />
      ) : (
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h3 id="donation-lookup-results" className="text-lg font-semibold">
              {t('lookup.resultsTitle')}
            </h3>
            <button type="button" className="btn-secondary" onClick={newSearch}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('lookup.newSearch')}
            </button>
          </div>
          {result.data && result.data.length > 0 ? (
            <ul aria-labelledby="donation-lookup-results" className="flex flex-col gap-3">
              {result.data.map((donation) => (
                <li key={donation.id} className="card p-4">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold">{t('lookup.number', { id: donation.id })}</p>
                    <DonationStatusBadge status={donation.status} />
                  </div>
                  <p className="mt-1 text-sm text-slate-700">
                    {t('lookup.offeredOn')}{' '}
                    <time dateTime={donation.created_at}>
                      {formatDateTime(donation.created_at, lang)}
                    </time>
                    {donation.available_until && (
                      <>
                        {' · '}
                        {t('lookup.availableUntil', {
                          date: formatDayMonthYear(donation.available_until),
                        })}
                      </>
                    )}
                  </p>
                  <p className="mt-2 text-sm text-slate-800">{t(`explain.${donation.status}`)}</p>
                  <ol className="mt-3 flex flex-col gap-3">
                    {donation.items.map((item, i) => (
                      <li key={item.id} className="rounded-lg bg-slate-50 p-3">
                        <p className="text-sm font-medium">{t('item.title', { n: i + 1 })}</p>
                        <p className="mt-1 text-slate-800">{item.description}</p>
                        {item.photos.length > 0 && (
                          <ul className="mt-2 flex flex-wrap gap-2">
                            {item.photos.map((url, p) => (
                              <li key={url}>
                                <img
                                  src={url}
                                  alt={t('photos.photoOf', { n: p + 1, item: i + 1 })}
                                  className="size-20 rounded-md object-cover"
                                  loading="lazy"
                                />
                              </li>
                            ))}
                          </ul>
                        )}
                      </li>
                    ))}
                  </ol>
                </li>
              ))}
            </ul>
          ) : (
            <div className="card flex flex-col items-center gap-2 p-6 text-center">
              <SearchX aria-hidden="true" className="size-8 text-slate-500" />
              <p className="font-medium">{t('lookup.empty')}</p>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
