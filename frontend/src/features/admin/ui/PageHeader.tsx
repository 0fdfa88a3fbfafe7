import type { ReactNode } from 'react';

/** The title row of a back-office page, with its buttons (they wrap below on phones). */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <title>{`${title} – Möbelbrücke Admin`}</title>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
        {description && <p className="mt-1 text-slate-700">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** A red box with a server's message (form save errors, back-office §2 Lot form). */
export function ErrorBox({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-3 font-medium text-red-900"
    >
      {children}
    </div>
  );
}

/** Nothing to show (yet). */
export function EmptyState({
  icon,
  title,
  text,
}: {
  icon?: ReactNode;
  title: string;
  text?: string;
}) {
  return (
    <div className="card flex flex-col items-center gap-2 px-4 py-10 text-center">
      {icon && <div className="text-slate-500">{icon}</div>}
      <p className="font-semibold text-slate-900">{title}</p>
      {text && <p className="max-w-md text-slate-700">{text}</p>}
    </div>
  );
}
