import { env } from '../config/env';
import { categoryLotsPath } from '../features/catalog/lib/category-page';
import { cardImage, galleryImage, type ImageSource } from '../features/catalog/lib/photos';

/*
 * What a lot page and a category page load early, shared by the boot script (src/boot, run
 * from index.html before the app's first download) and early-loads.ts (run by the app). Only
 * imports modules without imports of their own: the boot script must stay a few hundred bytes.
 */

/** An API answer the boot script started, for early-loads.ts to hand over to the page. */
export interface BootAnswer {
  /** the absolute address asked for */
  url: string;
  /** the Accept-Language it was asked in */
  language: string;
  startedAt: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    /** the API answers the boot script started (src/boot/boot.ts) */
    __earlyBoot?: BootAnswer[];
  }
}

/** The absolute address of GET `path` of the API (the path as the catalog API writes it). */
export function apiUrl(path: string): string {
  const origin = typeof window !== 'undefined' ? window.location.origin : 'http://localhost';
  return new URL(`${env.apiBaseUrl}${path}`, origin).href;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];

const record = (v: unknown): Record<string, unknown> =>
  (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;

/** The lot of a lot answer (success+data, {lot} or the lot itself, as catalog-api reads it). */
function lotOf(body: unknown): Record<string, unknown> {
  const b = record(body);
  return record(b.success !== undefined && b.data ? b.data : (b.lot ?? b));
}

/** The first lot of a list answer (success+data, {lots} or a plain array). */
function firstOfList(body: unknown): Record<string, unknown> {
  const b = record(body);
  const list = Array.isArray(body) ? body : Array.isArray(b.data) ? b.data : b.lots;
  return record(Array.isArray(list) ? list[0] : undefined);
}

export type EarlyPlan = {
  /** the API paths the page asks for first; the first one names the photo shown first */
  paths: string[];
  /** the photo the page shows first, as its <img> asks for it, from the first path's answer */
  image(body: unknown): ImageSource | undefined;
} & ({ page: 'lot'; lotId: number } | { page: 'category'; ref: string } | { page: 'home' });

/**
 * What the page at `pathname` loads early: a lot page its lot and the categories, a category
 * page its lots and the categories, the home page the categories of its grid (a small answer;
 * its code stays where it is: the home page's largest element is its headline, and more
 * downloads next to the first one would only hold it up). Other pages load nothing early.
 */
export function earlyPlan(pathname: string): EarlyPlan | undefined {
  if (pathname === '/') return { page: 'home', paths: ['/categories/'], image: () => undefined };
  const lot = /^\/lots\/(\d{1,12})\/?$/.exec(pathname);
  if (lot) {
    const lotId = Number(lot[1]);
    return {
      page: 'lot',
      lotId,
      paths: [`/lots/${lotId}`, '/categories/'],
      image: (body) => {
        const l = lotOf(body);
        const photos = strings(l.photos);
        const gallery = strings(l.gallery_photos);
        return photos[0]
          ? galleryImage(photos[0], (gallery.length > 0 ? gallery : photos)[0])
          : undefined;
      },
    };
  }
  const category = /^\/categories\/([^/]+)\/?$/.exec(pathname);
  if (category) {
    let ref: string;
    try {
      ref = decodeURIComponent(category[1]!);
    } catch {
      return undefined;
    }
    return {
      page: 'category',
      ref,
      // the first page, as the page asks for it (features/catalog/lib/category-page.ts)
      paths: [categoryLotsPath(ref), '/categories/'],
      image: (body) => {
        const photo = strings(firstOfList(body).photos)[0];
        return photo ? cardImage(photo) : undefined;
      },
    };
  }
  return undefined;
}

/** GET of an API address as RTK Query asks for it (no token: public GETs only). */
export function fetchApi(url: string, language: string): Promise<Response> {
  return fetch(url, { headers: { Accept: 'application/json', 'Accept-Language': language } });
}

/** Asks the browser for the image the page shows first, as its <img> will ask for it, once. */
export function preloadImage(image: ImageSource | undefined): void {
  if (!image || typeof document === 'undefined') return;
  const links = document.head.querySelectorAll('link[rel="preload"][as="image"]');
  for (const link of Array.from(links)) {
    if (
      link.getAttribute('href') === image.src &&
      link.getAttribute('imagesrcset') === (image.srcSet ?? null)
    ) {
      return;
    }
  }
  const link = document.createElement('link');
  link.setAttribute('rel', 'preload');
  link.setAttribute('as', 'image');
  link.setAttribute('href', image.src);
  if (image.srcSet) link.setAttribute('imagesrcset', image.srcSet);
  if (image.sizes) link.setAttribute('imagesizes', image.sizes);
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}

/** Reads a copy of the answer (the page reads the answer itself) and preloads its photo. */
export function preloadFrom(response: Promise<Response>, plan: EarlyPlan): void {
  response
    .then((res) => (res.ok ? res.clone().json() : undefined))
    .then((body: unknown) => preloadImage(body === undefined ? undefined : plan.image(body)))
    .catch(() => undefined);
}
