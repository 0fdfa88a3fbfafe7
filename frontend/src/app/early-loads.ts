import { apiUrl, earlyPlan, fetchApi, preloadFrom, type BootAnswer } from './early-plan';
import { currentLanguage } from './i18n';

/*
 * Early loads of the public pages with server data (the Lighthouse budget, README "Benchmarks").
 * Without them a lot page loads one thing after the other: the first download, the translation
 * files, the page's chunk and the store, the lot, and only then its photo. The boot script
 * (src/boot/boot.ts, named by index.html before the first download) starts the page's API calls
 * and, once the answer names it, the photo it shows first, while the app downloads; started
 * from main.tsx as soon as the first download runs, this module takes over those answers (or
 * starts the calls itself where the boot script did not run or asked in another language) and
 * loads the page's chunk, side by side with the translation files.
 *
 * The API answers are fetched as RTK Query would fetch them (same address, Accept and
 * Accept-Language headers, no token: public GETs only) and handed over once to the first
 * matching request of the base query (`takeEarlyAnswer`, api.ts); an answer nobody asked for
 * within EARLY_ANSWER_TTL_MS is dropped, so a later visit of the page loads afresh.
 */

/** How long an early answer waits for the page that asked for it. */
export const EARLY_ANSWER_TTL_MS = 15_000;

type EarlyAnswer = Omit<BootAnswer, 'url'>;

const answers = new Map<string, EarlyAnswer>();

/**
 * The boot script's answer for `url` in `language`, taken out of its list (once); undefined
 * where the boot script did not run, asked for something else or in another language.
 */
function takeBootAnswer(url: string, language: string): BootAnswer | undefined {
  const boot = typeof window !== 'undefined' ? window.__earlyBoot : undefined;
  const i = boot?.findIndex((a) => a.url === url && a.language === language) ?? -1;
  return i >= 0 ? boot!.splice(i, 1)[0] : undefined;
}

/** Starts GET `path` of the API, or takes the boot script's call of it. */
function fetchEarly(path: string): { response: Promise<Response>; fromBoot: boolean } {
  const url = apiUrl(path);
  const language = currentLanguage();
  const boot = takeBootAnswer(url, language);
  const response = boot?.response ?? fetchApi(url, language);
  // a failed early load is no error of the page: the page's own request tries again
  response.catch(() => answers.delete(url));
  answers.set(url, { language, startedAt: boot?.startedAt ?? Date.now(), response });
  return { response, fromBoot: boot !== undefined };
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

/** Whether an early answer for GET `path` of the API waits for the page that asks for it. */
export function hasEarlyAnswer(path: string): boolean {
  return answers.has(apiUrl(path));
}

/** Forgets every early answer (tests). */
export function clearEarlyAnswers(): void {
  answers.clear();
  if (typeof window !== 'undefined') delete window.__earlyBoot;
}

export interface EarlyLoaders {
  /** the lot page's chunk (and the store), and the lot and the categories in the store */
  lotPage(lotId: number): Promise<unknown>;
  /** the category page's chunk (and the store), and its lots and the categories in the store */
  categoryPage(ref: string): Promise<unknown>;
}

/**
 * Starts the early loads of the page at `pathname` (early-plan.ts says which). Answers when the
 * page's code and data are in (at once where nothing was started); it never fails: the page's
 * own load reports what went wrong.
 */
export function startEarlyLoads(pathname: string, loaders: EarlyLoaders): Promise<void> {
  const plan = earlyPlan(pathname);
  if (!plan) return Promise.resolve();
  // the API calls first: on HTTP/1.1 they would otherwise queue behind the chunks
  const [first] = plan.paths.map(fetchEarly);
  // the home page paints its headline first; its grid waits for the answer (HomePage.tsx)
  if (plan.page === 'home') return Promise.resolve();
  // the boot script preloads the photo of the answers it started
  if (first && !first.fromBoot) preloadFrom(first.response, plan);
  const page = plan.page === 'lot' ? loaders.lotPage(plan.lotId) : loaders.categoryPage(plan.ref);
  return page.then(done, done);
}

const done = (): void => undefined;
