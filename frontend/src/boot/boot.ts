import { earlyPlan, apiUrl, fetchApi, preloadFrom } from '../app/early-plan';
import {
  FALLBACK_LANGUAGE,
  detectionOptions,
  isAppLanguage,
  toAppLanguage,
} from '../app/languages';

/*
 * The boot script: index.html names it before the app's first download (vite.config.ts builds
 * it on its own, as a classic script of well under 2 kB). On a lot page or a category page it
 * starts the page's API calls and the page's chunks and, once the first answer is in, preloads
 * the photo the page shows first, while the app is still downloading; the app takes the answers over
 * (app/early-loads.ts) instead of asking again. Without it the photo, the lot page's largest
 * element, could only be asked for once the app's first download had run (README "Benchmarks").
 */

/**
 * The chunks the lot page and the category page need beyond the first download, by page
 * (vite.config.ts: bootScript fills it in at build time; undefined in the dev server and tests).
 */
declare const __BOOT_CHUNKS__: Partial<Record<string, string[]>> | undefined;

/** The page's chunks, asked for as the app will import them (modules: CORS, same origin). */
function preloadChunks(page: string): void {
  const files = typeof __BOOT_CHUNKS__ === 'undefined' ? undefined : __BOOT_CHUNKS__[page];
  for (const file of files ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = file;
    document.head.appendChild(link);
  }
}

/** A stored value, or undefined where the storage is blocked (private modes, sandboxed frames). */
function stored(storage: () => Storage, key: string): string | undefined {
  try {
    return storage().getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language i18next will settle on, by the same rules (app/i18n.ts: detectionOptions, the
 * first supported of the detected codes, else German). Where it guesses wrong the app asks again
 * in its own language: a second API call, never a wrong one.
 */
export function detectLanguage(): string {
  const o = detectionOptions;
  const candidates: (string | null | undefined)[] = [];
  for (const source of o.order) {
    if (source === 'querystring') {
      candidates.push(new URLSearchParams(window.location.search).get(o.lookupQuerystring));
    } else if (source === 'cookie') {
      const cookie = document.cookie
        .split(';')
        .map((c) => c.trim())
        .find((c) => c.startsWith(`${o.lookupCookie}=`));
      candidates.push(cookie?.slice(o.lookupCookie.length + 1));
    } else if (source === 'localStorage') {
      candidates.push(stored(() => window.localStorage, o.lookupLocalStorage));
    } else if (source === 'sessionStorage') {
      candidates.push(stored(() => window.sessionStorage, o.lookupSessionStorage));
    } else if (source === 'navigator') {
      candidates.push(...(navigator.languages ?? []), navigator.language);
    } else if (source === 'htmlTag') {
      candidates.push(document.documentElement.getAttribute('lang'));
    }
  }
  for (const code of candidates) {
    const lng = code ? toAppLanguage(code) : undefined;
    if (isAppLanguage(lng)) return lng;
  }
  return FALLBACK_LANGUAGE;
}

/** Starts the early loads of the current page, if it has any, and lists them for the app. */
export function boot(): void {
  const plan = earlyPlan(window.location.pathname);
  if (!plan) return;
  const language = detectLanguage();
  const startedAt = Date.now();
  const answers = plan.paths.map((path) => {
    const url = apiUrl(path);
    return { url, language, startedAt, response: fetchApi(url, language) };
  });
  // the app's own request tries again where an early one failed
  for (const a of answers) a.response.catch(() => undefined);
  window.__earlyBoot = answers;
  if (answers[0]) preloadFrom(answers[0].response, plan);
  // after the API calls: on HTTP/1.1 they would otherwise queue behind the chunks
  preloadChunks(plan.page);
}
