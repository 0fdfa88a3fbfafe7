import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ImageOff } from 'lucide-react';
import { useLanguage } from '../../../lib/language';
import { localize } from '../../../lib/localized';
import type { PublicLot } from '../api/catalog-api';
import { cardImage } from '../lib/photos';
import { LotStatusBadge } from './LotStatusBadge';

/**
 * First photo or a placeholder, name, status, id, short description; links to the lot. The
 * cards of the first row (`priority`) load their photo at once, the others when scrolled to.
 */
export function LotCard({ lot, priority = false }: { lot: PublicLot; priority?: boolean }) {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const name = localize(lot.name, lang);
  const description = localize(lot.description, lang);
  const photo = lot.photos[0];
  // the same sources as the early preload of a category's first photo (app/early-loads.ts)
  const image = photo ? cardImage(photo) : undefined;
  return (
    <Link
      to={`/lots/${lot.id}`}
      className="card group flex h-full flex-col overflow-hidden transition-shadow hover:shadow-md"
    >
      <div className="aspect-[4/3] bg-slate-100">
        {image ? (
          <img
            src={image.src}
            srcSet={image.srcSet}
            sizes={image.sizes}
            alt={name.text}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : undefined}
            decoding="async"
            className="size-full object-cover"
          />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-2 text-slate-600">
            <ImageOff aria-hidden="true" className="size-8" />
            <span className="text-sm">{t('lot.noPhoto')}</span>
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <LotStatusBadge status={lot.status} />
          <span className="text-sm text-slate-600">{t('lot.id', { id: lot.id })}</span>
        </div>
        <h2 lang={name.lang} className="text-lg font-semibold text-slate-900 group-hover:underline">
          {name.text}
        </h2>
        {description.text && (
          <p lang={description.lang} className="line-clamp-3 text-sm text-slate-700">
            {description.text}
          </p>
        )}
      </div>
    </Link>
  );
}
