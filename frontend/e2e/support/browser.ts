// Debian's Chromium driven by playwright-core: one browser per test file, a context per person
// (a desktop for staff, phones for families), screenshots under test-output/e2e/.
import fs from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { REPO_ROOT } from '@furniture/infra';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'e2e');

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests use Debian's Chromium (sudo apt-get install -y chromium; make test and make e2e install it when allowed)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/** Waits for elements and navigations this long: two cores run the whole platform and Chromium. */
export const UI_TIMEOUT_MS = 30_000;

export async function newContext(
  browser: Browser,
  baseUrl: string,
  size: BrowserContextOptions,
  /** the browser's language (the site follows de and uk; others get German) */
  locale = 'de-DE',
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...size, baseURL: baseUrl, locale });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(UI_TIMEOUT_MS);
  return context;
}

/**
 * Saves test-output/e2e/<name>.png once the page has settled: the full page, or only the
 * viewport (an open dialog is fixed to it).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await settle(page);
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** No requests running and every image that is on the page decoded. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    Array.from(document.images).every((img) => img.complete || img.loading === 'lazy'),
  );
}

/** Waits until one of the locator's matches is visible; answers that one. */
export async function visible(locator: Locator, timeout = UI_TIMEOUT_MS): Promise<Locator> {
  const shown = locator.filter({ visible: true }).first();
  await shown.waitFor({ state: 'visible', timeout });
  return shown;
}

/** Waits until the control can be used (not disabled). */
export async function enabled(locator: Locator, timeout = UI_TIMEOUT_MS): Promise<Locator> {
  const deadline = Date.now() + timeout;
  while (!(await locator.isEnabled())) {
    if (Date.now() > deadline) throw new Error(`${String(locator)} stayed disabled`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return locator;
}

/**
 * An open dialog by its title. Headless UI's dialog element itself has no size (its panel sits
 * in fixed children), so "open" means: the dialog is there and its title is visible.
 */
export async function dialog(
  page: Page,
  name: string,
  role: 'dialog' | 'alertdialog' = 'dialog',
): Promise<Locator> {
  const found = page.getByRole(role, { name });
  await visible(found.getByRole('heading', { name }));
  return found;
}

/**
 * Every piece of text a person reads on the page: rendered text nodes (screen-reader-only ones
 * included, aria-hidden ones not), with the `lang` of their nearest element that has one, the
 * placeholders of shown fields, and the document title.
 */
export function visibleTexts(page: Page): Promise<{ text: string; lang: string }[]> {
  return page.evaluate(() => {
    const out: { text: string; lang: string }[] = [];
    const shown = (el: Element): boolean => {
      if (el.closest('[aria-hidden="true"]')) return false;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    const langOf = (el: Element) => el.closest('[lang]')?.getAttribute('lang') ?? '';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      const parent = node.parentElement;
      if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
      if (shown(parent)) out.push({ text, lang: langOf(parent) });
    }
    for (const field of Array.from(document.querySelectorAll('input, textarea'))) {
      const placeholder = field.getAttribute('placeholder');
      if (placeholder && shown(field)) out.push({ text: placeholder, lang: langOf(field) });
    }
    out.push({ text: document.title, lang: document.documentElement.lang });
    return out;
  });
}
