import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, RotateCcw, Search, SearchX } from 'lucide-react';
import { normalizePhoneInput } from '@furniture/contracts/phone';
import { isApiError } from '../../../app/api';
import { Breadcrumb } from '../../../components/Breadcrumb';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/language';
import { localize } from '../../../lib/localized';
import { useErrorText } from '../../../lib/use-field-errors';
import { checkPhone, type FieldProblem } from '../../../lib/validation';
import { useLazyCheckStatusQuery } from '../api/applications-api';
import { rememberPhone, useDevicePhone } from '../lib/applicant-memory';
import { ApplicationStatusBadge } from './ApplicationStatusBadge';
import { RememberCheckbox, RememberedPhoneNotice } from './RememberPhone';

/** /check-status: a family's applications by phone number, newest first. */
export default function CheckStatusPage() {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const errorText = useErrorText();
  const devicePhone = useDevicePhone();
  // a number this device remembers (the family chose it) is filled in
  const [phone, setPhone] = useState(devicePhone ?? '');
  const [remember, setRemember] = useState(devicePhone !== null);
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [trigger, result] = useLazyCheckStatusQuery();
  const [searched, setSearched] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = checkPhone(phone, { required: true });
    setProblem(found);
    if (found) {
      inputRef.current?.focus();
      return;
    }
    setSearched(true);
    const normalized = normalizePhoneInput(phone);
    // on this device only when the family ticked it; a status check does not touch the tab's
    // memory of the number that applied
    if (remember || devicePhone !== null)
      rememberPhone(normalized, { onDevice: remember, tab: false });
    void trigger(normalized, false);
  };

  const newSearch = () => {
    setSearched(false);
    setPhone('');
    setProblem(null);
    // the form is back on the next render
    setTimeout(() => inputRef.current?.focus(), 0);
  };

  const backToSearch = () => {
    setSearched(false);
    setTimeout(() => inputRef.current?.focus(), 0);
  };

  const requiredText =
    problem?.key === 'required' ? t('checkStatus.phoneRequired') : errorText(problem ?? undefined);

  return (
    <div className="container-page py-6 sm:py-8">
      <title>{`${t('checkStatus.title')} – ${t('common:app.name')}`}</title>
      <Breadcrumb
        items={[{ label: t('common:nav.home'), to: '/' }, { label: t('checkStatus.title') }]}
      />
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{t('checkStatus.title')}</h1>
      <p className="mt-2 max-w-2xl text-slate-700">{t('checkStatus.lead')}</p>

      <div className="mt-6 max-w-3xl">
        {!searched ? (
          <form onSubmit={onSubmit} noValidate className="card flex flex-col gap-4 p-5">
            <TextField
              ref={inputRef}
              label={t('checkStatus.phoneLabel')}
              required
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              name="phone"
              value={phone}
              hint={t('checkStatus.phoneHint')}
              error={requiredText}
              onChange={(e) => {
                setPhone(e.target.value);
                setProblem(null);
              }}
            />
            <RememberCheckbox checked={remember} onChange={setRemember} />
            <RememberedPhoneNotice
              onForget={() => {
                setPhone('');
                setRemember(false);
              }}
            />
            <button type="submit" className="btn-primary justify-center sm:self-start">
              <Search aria-hidden="true" className="size-5" />
              {t('checkStatus.submit')}
            </button>
          </form>
        ) : result.isFetching ? (
          <Spinner label={t('checkStatus.searching')} />
        ) : result.isError ? (
          <div role="alert" className="card p-5 text-center">
            <p className="font-medium text-red-900">
              {isApiError(result.error) && result.error.status === 0
                ? t('checkStatus.searchFailed')
                : isApiError(result.error) && result.error.status === 429
                  ? t('checkStatus.rateLimited')
                  : t('checkStatus.error')}
            </p>
            <button type="button" className="btn-primary mt-4" onClick={backToSearch}>
              <ArrowLeft aria-hidden="true" className="size-4" />
              {t('checkStatus.backToSearch')}
            </button>
          </div>
        ) : (
          <section aria-labelledby="results-title" className="flex flex-col gap-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="results-title" className="text-xl font-semibold">
                {t('checkStatus.resultsTitle')}
              </h2>
              <button type="button" className="btn-secondary" onClick={newSearch}>
                <RotateCcw aria-hidden="true" className="size-4" />
                {t('checkStatus.newSearch')}
              </button>
            </div>
            {result.data && result.data.length > 0 ? (
              <ul aria-labelledby="results-title" className="flex flex-col gap-3">
                {result.data.map((item) => {
                  const lotName = localize(item.lot_name, lang);
                  return (
                    <li key={item.id} className="card p-4">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <p className="font-semibold">
                          {t('checkStatus.applicationNumber', { id: item.id })}
                        </p>
                        <ApplicationStatusBadge status={item.status} />
                      </div>
                      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
                        <div>
                          <dt className="text-slate-600">{t('checkStatus.lot')}</dt>
                          <dd>
                            <Link
                              to={`/lots/${item.lot_id}`}
                              lang={lotName.lang}
                              className="font-medium text-blue-800 underline underline-offset-4"
                            >
                              {lotName.text || t('lot.id', { id: item.lot_id })}
                            </Link>
                          </dd>
                        </div>
                        <div>
                          <dt className="text-slate-600">{t('checkStatus.appliedOn')}</dt>
                          <dd>
                            <time dateTime={item.created_at}>
                              {formatDateTime(item.created_at, lang)}
                            </time>
                          </dd>
                        </div>
                      </dl>
                      <p className="mt-3 text-sm text-slate-700">
                        {t(`checkStatus.explain.${item.status}`)}
                      </p>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <div className="card flex flex-col items-center gap-2 p-6 text-center">
                <SearchX aria-hidden="true" className="size-8 text-slate-500" />
                <p className="font-medium">{t('checkStatus.empty')}</p>
              </div>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
