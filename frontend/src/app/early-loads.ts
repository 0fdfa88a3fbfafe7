import { env } from '../config/env';
import { galleryImage, cardImage, type ImageSource } from '../features/catalog/lib/photos';
import { currentLanguage } from './i18n';

/*
 * Early loads of the public pages with server data (the Lighthouse budget, README "Benchmarks").
 * Without them a lot page loads one thing after the other: the first download, the translation
 * files, the page's chunk and the store, the lot, and only then its photo. Started from main.tsx
 * as soon as the first download runs, the page's chunk, its API answers and (once the answer
 * names it) the photo it shows first load side by side with the translation files.
 *
 * The API answers are fetched as RTK Query would fetch them (same address, Accept and
 * Accept-Language headers, no token: public GETs only) and handed over once to the first
 * matching request of the base query (`takeEarlyAnswer`, api.ts); an answer nobody asked for
 * within EARLY_ANSWER_TTL_MS is dropped, so a later visit of the page loads afresh.
 */

/** How long an early answer waits for the page that asked for it. */
export const EARLY_ANSWER_TTL_MS = 15_000;

interface EarlyAnswer {
  language: string;
  startedAt: number;
  response: Promise<Response>;
}

const answers = new Map<string, EarlyAnswer>();

function apiUrl(path: string): string {
  const origin = typeof window !== 'undefined' ? window.location.origin : 'http://localhost';
  return new URL(`${env.apiBaseUrl}${path}`, origin).href;
}

/** Starts GET `path` of the API (the path as the catalog API's endpoints write it). */
function fetchEarly(path: string): Promise<Response> {
  const url = apiUrl(path);
  const language = currentLanguage();
  const response = fetch(url, {
    headers: { Accept: 'application/json', 'Accept-Language': language },
  });
  // a failed early load is no error of the page: the page's own request tries again
  response.catch(() => answers.delete(url));
  answers.set(url, { language, startedAt: Date.now(), response });
  return response;
}

/**
 * The early answer for this request, once: a GET without a token in the same language, for
 * the same address, started less than EARLY_ANSWER_TTL_MS ago. Otherwise undefined.
 */
export function takeEarlyAnswer(request: Request): Promise<Response> | undefined {
  const early = answers.get(request.url);
  if (!early) return undefined;
  answers.delete(request.url);
  if (
    request.method !== 'GET' ||
    request.headers.has('Authorization') ||
    request.headers.get('Accept-Language') !== early.language ||
    Date.now() - early.startedAt > EARLY_ANSWER_TTL_MS
  ) {
    return undefined;
  }
  // an early load that failed on the way is tried again as the page's own request
  return early.response.catch(() => fetch(request));
}

/** Forgets every early answer (tests). */
export function clearEarlyAnswers(): void {
  answers.clear();
}

/** Asks the browser for the image the page shows first, as its <img> will ask for it. */
function preloadImage(image: ImageSource | undefined): void {
  if (!image || typeof document === 'undefined') return;
  const link = document.createElement('link');
  link.setAttribute('rel', 'preload');
  link.setAttribute('as', 'image');
  link.setAttribute('href', image.src);
  if (image.srcSet) link.setAttribute('imagesrcset', image.srcSet);
  if (image.sizes) link.setAttribute('imagesizes', image.sizes);
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];

/** The lot of a lot answer (success+data, {lot} or the lot itself, as catalog-api reads it). */
function lotOf(body: unknown): Record<string, unknown> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const inner = b.success !== undefined && b.data ? b.data : (b.lot ?? b);
  return (typeof inner === 'object' && inner !== null ? inner : {}) as Record<string, unknown>;
}

/** The first lot of a list answer (success+data, {lots} or a plain array). */
function firstOfList(body: unknown): Record<string, unknown> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const list = Array.isArray(body) ? body : Array.isArray(b.data) ? b.data : b.lots;
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  return (typeof first === 'object' && first !== null ? first : {}) as Record<string, unknown>;
}

/** Reads a copy of the answer (the page reads the answer itself) and preloads its photo. */
function preloadFrom(
  response: Promise<Response>,
  pick: (body: unknown) => ImageSource | undefined,
): void {
  response
    .then((res) => (res.ok ? res.clone().json() : undefined))
    .then((body: unknown) => preloadImage(body === undefined ? undefined : pick(body)))
    .catch(() => undefined);
}

export interface EarlyLoaders {
  /** the lot page's chunk (and the store) */
  lotPage(): Promise<unknown>;
  /** the category page's chunk (and the store) */
  categoryPage(): Promise<unknown>;
}

/**
 * Starts the early loads of the page at `pathname`: the lot page and a category's lot list.
 * The home page starts none: its largest element is the headline, and more downloads next to
 * the translation files would only hold it up. Answers when the page's code is in (at once
 * where nothing was started); it never fails: the page's own load reports what went wrong.
 */
export function startEarlyLoads(pathname: string, loaders: EarlyLoaders): Promise<void> {
  const lot = /^\/lots\/(\d{1,12})\/?$/.exec(pathname);
  if (lot) {
    // the API calls first: on HTTP/1.1 they would otherwise queue behind the chunks
    const answer = fetchEarly(`/lots/${Number(lot[1])}`);
    preloadFrom(answer, (body) => {
      const l = lotOf(body);
      const photos = strings(l.photos);
      const gallery = strings(l.gallery_photos);
      return photos[0]
        ? galleryImage(photos[0], (gallery.length > 0 ? gallery : photos)[0])
        : undefined;
    });
    fetchEarly('/categories/');
    return loaders.lotPage().then(done, done);
  }
  const category = /^\/categories\/([^/]+)\/?$/.exec(pathname);
  if (category) {
    let ref: string;
    try {
      ref = decodeURIComponent(category[1]!);
    } catch {
      return Promise.resolve();
    }
    const answer = fetchEarly(`/lots/category/${encodeURIComponent(ref)}`);
    preloadFrom(answer, (body) => {
      const photo = strings(firstOfList(body).photos)[0];
      return photo ? cardImage(photo) : undefined;
    });
    fetchEarly('/categories/');
    return loaders.categoryPage().then(done, done);
  }
  return Promise.resolve();
}

const done = (): void => undefined;
