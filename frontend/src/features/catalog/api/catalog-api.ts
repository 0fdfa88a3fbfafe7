import { Limits } from '@furniture/contracts/limits';
import type { LotStatus } from '@furniture/contracts/enums';
import { api } from '../../../app/api';
import { objectOf } from '../../../lib/json';
import { toLocalizedText, type LocalizedText } from '../../../lib/localized';
import { CATEGORY_PAGE_SIZE, categoryLotsPath } from '../lib/category-page';

/** A category as the public site shows it (public-site §3; missing parts get their defaults). */
export interface PublicCategory {
  id: number;
  slug: string | null;
  name: LocalizedText;
  description: LocalizedText;
  lotCount: number;
  /** the emoji staff picked in the back-office (📦 when they picked none) */
  icon: string;
  image: string | null;
}

/** A lot as the public site shows it. */
export interface PublicLot {
  id: number;
  name: LocalizedText;
  description: LocalizedText;
  detailedDescription: LocalizedText;
  status: LotStatus;
  categoryId: number;
  /** medium-size images; the first is the card image */
  photos: string[];
  /** large images of the same photos, for the gallery and the full-screen view */
  galleryPhotos: string[];
  dimensions: string;
  condition: string;
  donor: string;
  location: string;
}

/** A page of a category's lots and how many the category holds (null: the server did not say). */
export interface LotsPage {
  lots: PublicLot[];
  total: number | null;
}

/** The header that tells how many lots a category holds (catalog's contracts). */
const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** The category list is kept for 5 minutes (public-site §4, §9). */
export const CATEGORY_CACHE_SECONDS = Limits.categoryCacheMs / 1000;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];

export function toCategory(raw: unknown): PublicCategory {
  const c = objectOf(raw);
  const count = Number(c.lot_count ?? c.lotCount ?? 0);
  return {
    id: Number(c.id),
    slug: typeof c.slug === 'string' ? c.slug : null,
    name: toLocalizedText(c.name),
    description: toLocalizedText(c.description),
    lotCount: Number.isFinite(count) ? count : 0,
    icon: str(c.icon),
    image: typeof c.image === 'string' && c.image ? c.image : null,
  };
}

export function toLot(raw: unknown): PublicLot {
  const l = objectOf(raw);
  const photos = strings(l.photos);
  const gallery = strings(l.gallery_photos);
  return {
    id: Number(l.id),
    name: toLocalizedText(l.name),
    description: toLocalizedText(l.description),
    detailedDescription: toLocalizedText(l.detailed_description),
    status: (str(l.status) || 'available') as LotStatus,
    categoryId: Number(l.category_id),
    photos,
    galleryPhotos: gallery.length > 0 ? gallery : photos,
    dimensions: str(l.dimensions),
    condition: str(l.condition),
    donor: str(l.donor),
    location: str(l.location),
  };
}

/** Lists come as success+data, as {lots}, or as a plain array (public-site §7). */
export function lotListOf(body: unknown): PublicLot[] {
  const b = objectOf(body);
  const list = Array.isArray(body) ? body : Array.isArray(b.data) ? b.data : b.lots;
  return Array.isArray(list) ? list.map(toLot) : [];
}

/** A single lot comes as success+data, as {lot}, or as the lot itself. */
export function singleLotOf(body: unknown): PublicLot {
  const b = objectOf(body);
  if (b.success !== undefined && b.data) return toLot(b.data);
  if (b.lot) return toLot(b.lot);
  return toLot(body);
}

export const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<PublicCategory[], void>({
      query: () => '/categories/',
      transformResponse: (body: unknown) => {
        const data = objectOf(body).data ?? body;
        return Array.isArray(data) ? data.map(toCategory) : [];
      },
      keepUnusedDataFor: CATEGORY_CACHE_SECONDS,
      providesTags: ['Category'],
    }),
    /**
     * The lots of a category, a page of CATEGORY_PAGE_SIZE at a time (the data holds the pages
     * loaded so far; `fetchNextPage` adds the next one after the last lot shown).
     */
    getLotsByCategory: build.infiniteQuery<LotsPage, string, number | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last, pages) => {
          const shown = pages.reduce((sum, page) => sum + page.lots.length, 0);
          const lastLot = last.lots[last.lots.length - 1];
          // a short page is the last one; so is the page that reaches the total
          if (!lastLot || last.lots.length < CATEGORY_PAGE_SIZE) return undefined;
          if (last.total !== null && shown >= last.total) return undefined;
          return lastLot.id;
        },
      },
      query: ({ queryArg, pageParam }) => categoryLotsPath(queryArg, pageParam),
      transformResponse: (body: unknown, meta) => {
        const lots = lotListOf(body);
        const header = (meta as { response?: Response } | undefined)?.response?.headers.get(
          TOTAL_COUNT_HEADER,
        );
        const total = header != null && /^\d+$/.test(header) ? Number(header) : null;
        return { lots, total };
      },
      providesTags: (data) => [
        ...(data?.pages ?? []).flatMap((page) =>
          page.lots.map((lot) => ({ type: 'Lot' as const, id: lot.id })),
        ),
        { type: 'Lot' as const, id: 'LIST' },
      ],
    }),
    getLot: build.query<PublicLot, number>({
      query: (id) => `/lots/${id}`,
      transformResponse: singleLotOf,
      providesTags: (_lot, _error, id) => [{ type: 'Lot', id }],
    }),
  }),
});

export const { useGetCategoriesQuery, useGetLotsByCategoryInfiniteQuery, useGetLotQuery } =
  catalogApi;

/**
 * The category list: from the cache when it is younger than 5 minutes, otherwise loaded again
 * on mount. `refetch()` is the forced refresh; RTK Query starts no second load while one runs
 * and drops answers of requests that are no longer the current one.
 */
export function useCategories() {
  return useGetCategoriesQuery(undefined, { refetchOnMountOrArgChange: CATEGORY_CACHE_SECONDS });
}
