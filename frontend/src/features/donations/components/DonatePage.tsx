import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumb } from '../../../components/Breadcrumb';
import { useLanguage } from '../../../lib/language';
import type { DonationCreated } from '../api/donations-api';
import { emptyDonation, type DonationFormValues } from '../lib/donation-form';
import { DonationForm } from './DonationForm';
import { DonationLookup } from './DonationLookup';
import { DonationReceived } from './DonationReceived';

/**
 * /donate, "Möbel spenden" (issue 28): the donation form, then its number and the photos'
 * uploads; below, the donor's donations by phone.
 */
export default function DonatePage() {
  const { t } = useTranslation('donate');
  const lang = useLanguage();
  const [values, setValues] = useState<DonationFormValues>(() => emptyDonation(lang));
  const [created, setCreated] = useState<DonationCreated | null>(null);
  const languageChosen = useRef(false);
  const previews = useRef(new Set<string>());

  // the messages' language follows the page's until the donor picks one
  useEffect(() => {
    if (!languageChosen.current) setValues((v) => ({ ...v, language: lang }));
  }, [lang]);

  // the photos' previews are freed when the donor leaves the page
  for (const item of values.items) for (const p of item.photos) previews.current.add(p.preview);
  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const onChange = (update: (v: DonationFormValues) => DonationFormValues) =>
    setValues((v) => {
      const next = update(v);
      if (next.language !== v.language) languageChosen.current = true;
      return next;
    });

  const another = () => {
    setCreated(null);
    languageChosen.current = false;
    setValues(emptyDonation(lang));
  };

  return (
    <div className="container-page py-6 sm:py-8">
      <title>{`${t('title')} – ${t('common:app.name')}`}</title>
      <Breadcrumb items={[{ label: t('common:nav.home'), to: '/' }, { label: t('title') }]} />
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{t('title')}</h1>
      <p className="mt-2 max-w-3xl text-slate-700">{t('lead')}</p>
      <ol className="mt-4 grid max-w-3xl gap-2 text-sm text-slate-800 sm:grid-cols-3">
        {(['offer', 'review', 'pickup'] as const).map((step, i) => (
          <li key={step} className="flex gap-2 rounded-lg bg-white p-3 ring-1 ring-slate-200">
            <span
              aria-hidden="true"
              className="flex size-6 shrink-0 items-center justify-center rounded-full bg-blue-800 text-xs font-bold text-white"
            >
              {i + 1}
            </span>
            <span>{t(`steps.${step}`)}</span>
          </li>
        ))}
      </ol>

      <div className="mt-8 flex max-w-3xl flex-col gap-10">
        {created ? (
          <DonationReceived
            created={created}
            items={values.items}
            withEmail={values.email.trim() !== ''}
            onAnother={another}
          />
        ) : (
          <DonationForm values={values} onChange={onChange} onSubmitted={setCreated} />
        )}
        <DonationLookup />
      </div>
    </div>
  );
}
