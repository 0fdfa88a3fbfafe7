import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { contactPhoneHref, env } from '../../config/env';
import { useOpenWishDialog } from '../../lib/wish-dialog';

const linkClass = 'rounded-sm text-blue-100 underline-offset-4 hover:text-white hover:underline';

/**
 * Links, the wish button, the contact block (placeholder phone and a city line), and the link to
 * the source code the AGPL asks for (the gateway leads it to SOURCE_URL).
 */
export default function Footer() {
  const { t } = useTranslation('common');
  const openWish = useOpenWishDialog();
  return (
    <footer className="mt-12 bg-blue-950 text-blue-50">
      <div className="container-page grid gap-8 py-10 sm:grid-cols-2 lg:grid-cols-3">
        <p>
          <strong className="block text-lg font-bold text-white">{t('app.name')}</strong>
          <span className="mt-2 block text-sm text-blue-100">{t('app.tagline')}</span>
        </p>
        <nav aria-label={t('footer.navLabel')}>
          <ul className="flex flex-col gap-2">
            <li>
              <Link to="/categories" className={linkClass}>
                {t('nav.categories')}
              </Link>
            </li>
            <li>
              <Link to="/check-status" className={linkClass}>
                {t('nav.checkStatus')}
              </Link>
            </li>
            <li>
              <button type="button" onClick={openWish} className={`${linkClass} text-left`}>
                {t('wish.button')}
              </button>
            </li>
            <li>
              <Link to="/terms-and-delivery" className={linkClass}>
                {t('nav.terms')}
              </Link>
            </li>
            <li>
              <Link to="/privacy-policy" className={linkClass}>
                {t('nav.privacy')}
              </Link>
            </li>
          </ul>
        </nav>
        <address className="not-italic">
          <p className="font-semibold text-white">{t('footer.contactTitle')}</p>
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 shrink-0" />
              <span className="sr-only">{t('footer.phone')}: </span>
              <a href={contactPhoneHref} className={linkClass}>
                {env.contactPhone}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 shrink-0" />
              <span className="sr-only">{t('footer.email')}: </span>
              <a href={`mailto:${env.contactEmail}`} className={`${linkClass} break-all`}>
                {env.contactEmail}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <MapPin aria-hidden="true" className="size-4 shrink-0" />
              <span>{env.contactCity || t('footer.city')}</span>
            </li>
            <li className="flex items-center gap-2">
              <Clock aria-hidden="true" className="size-4 shrink-0" />
              <span>{t('footer.officeHours')}</span>
            </li>
          </ul>
        </address>
      </div>
      <div className="border-t border-blue-900">
        <div className="container-page flex flex-col gap-2 py-4 text-sm text-blue-100 sm:flex-row sm:justify-between">
          <p>{t('footer.free')}</p>
          <p>
            {t('footer.license')} ·{' '}
            <a href={`${env.apiBaseUrl}/source`} className={linkClass}>
              {t('footer.source')}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
