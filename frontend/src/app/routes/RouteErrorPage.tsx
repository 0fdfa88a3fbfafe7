import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A page whose code failed to load (a new version was deployed, or the connection dropped) or
 * that crashed: offer a reload instead of a blank screen.
 */
export function RouteErrorPage() {
  const { t } = useTranslation('common');
  return (
    <div className="container-page py-16 text-center" role="alert">
      <h1 className="text-2xl font-bold">{t('routeError.title')}</h1>
      <p className="mt-2 text-slate-700">{t('routeError.text')}</p>
      <button type="button" className="btn-primary mt-6" onClick={() => window.location.reload()}>
        {t('actions.reload')}
      </button>
    </div>
  );
}

/**
 * Catches a page that failed to load or crashed and shows RouteErrorPage instead of a blank
 * screen; a new `resetKey` (the next address) tries again.
 */
export class RouteErrorBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { failedAt: string | null }
> {
  override state: { failedAt: string | null } = { failedAt: null };

  static getDerivedStateFromError(): { failedAt: string } {
    return { failedAt: '' };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
    this.setState({ failedAt: this.props.resetKey });
  }

  override render(): ReactNode {
    const { failedAt } = this.state;
    if (failedAt !== null && (failedAt === '' || failedAt === this.props.resetKey)) {
      return <RouteErrorPage />;
    }
    return this.props.children;
  }
}
