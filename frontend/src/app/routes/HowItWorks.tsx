import { useTranslation } from 'react-i18next';

/** The home page's three steps: choose, apply, pick up or get a delivery. */
export default function HowItWorks() {
  const { t } = useTranslation('public');
  return (
    <section aria-labelledby="home-how" className="bg-white">
      <div className="container-page py-8 sm:py-12">
        <h2 id="home-how" className="text-2xl font-bold">
          {t('home.howTitle')}
        </h2>
        <ol className="mt-6 grid gap-4 sm:grid-cols-3">
          {(['browse', 'apply', 'receive'] as const).map((step, i) => (
            <li key={step} className="card flex gap-4 p-4">
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-yellow-300 text-lg font-bold text-blue-950"
              >
                {i + 1}
              </span>
              <span>
                <span className="block font-semibold">{t(`home.steps.${step}.title`)}</span>
                <span className="mt-1 block text-sm text-slate-700">
                  {t(`home.steps.${step}.text`)}
                </span>
              </span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
