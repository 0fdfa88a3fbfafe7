import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumb } from '../../../components/Breadcrumb';

/** Frame of a static page: breadcrumb, title, lead and its sections. */
export function LegalPage({
  title,
  lead,
  children,
}: {
  title: string;
  lead: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <div className="container-page py-6 sm:py-8">
      <title>{`${title} – ${t('app.name')}`}</title>
      <Breadcrumb items={[{ label: t('nav.home'), to: '/' }, { label: title }]} />
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{title}</h1>
      <p className="mt-2 max-w-3xl text-lg text-slate-700">{lead}</p>
      <div className="mt-8 flex max-w-3xl flex-col gap-6">{children}</div>
    </div>
  );
}

export function LegalSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-6">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <div className="mt-3 flex flex-col gap-3 text-slate-800">{children}</div>
    </section>
  );
}

/** A list of texts from the translations (`returnObjects`). */
export function TextList({ items, title }: { items: unknown; title?: string }) {
  const list = Array.isArray(items)
    ? items.map(String)
    : items && typeof items === 'object'
      ? Object.values(items).map(String)
      : [];
  return (
    <div>
      {title && <h3 className="font-semibold text-slate-900">{title}</h3>}
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {list.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
