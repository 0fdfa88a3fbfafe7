// The DE / UA switch in the header changes every text on the page, at once and on every public
// page, and the choice stays after a reload.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { settle, visibleTexts, visible } from '../support/browser';
import { t, type Lang } from '../support/i18n';
import type { World } from '../support/world';

const LOCALES = path.resolve(__dirname, '../../public/locales');

/** Latin-script words (two letters or more, German umlauts included). */
const LATIN_WORD = /[A-Za-zÀ-ÖØ-öø-ÿ]{2,}/g;
const CYRILLIC = /[\u0400-\u04FF]/;
const LETTER = /\p{L}/u;
/** e-mail addresses and web addresses are the same in both languages */
const ADDRESS = /\S+@\S+\.\S+|https?:\/\/\S+/g;

/**
 * Latin words a Ukrainian page may show: those the Ukrainian translations use themselves (the
 * brand, WhatsApp, German institutions such as Jobcenter), and the switch's own labels.
 */
function latinAllowedInUkrainian(): Set<string> {
  const words = new Set(['DE', 'UA']);
  for (const file of fs.readdirSync(path.join(LOCALES, 'uk'))) {
    const text = fs
      .readFileSync(path.join(LOCALES, 'uk', file), 'utf8')
      .replace(/\{\{\w+\}\}/g, '');
    for (const word of text.match(LATIN_WORD) ?? []) words.add(word);
  }
  return words;
}

interface Text {
  text: string;
  lang: string;
}

/** Texts of the page in its language: those marked with another `lang` are quotes (the switch). */
const inPageLanguage = (texts: Text[], lang: Lang) =>
  texts.filter((x) => x.lang === '' || x.lang === lang);

async function switchTo(page: Page, lang: Lang): Promise<void> {
  const name = lang === 'uk' ? 'UA Українська' : 'DE Deutsch';
  await page.getByRole('button', { name, exact: true }).first().click();
  await page.waitForFunction((want) => document.documentElement.lang === want, lang);
  await settle(page);
}

export function languageScenario(world: World): void {
  test('the language switch changes every visible text, on every public page, and is remembered', () =>
    world.scenario('language switch', async () => {
      const allowed = latinAllowedInUkrainian();
      const lot = world.lots[0]!;
      const category = world.category(lot.category_id);
      const page = await (await world.desktop('de-DE')).newPage();
      const pages: { url: string; ready: (lang: Lang) => string }[] = [
        { url: '/', ready: (lang) => t(lang, 'public:home.title') },
        { url: '/categories', ready: (lang) => t(lang, 'public:categories.title') },
        { url: `/categories/${category.id}`, ready: (lang) => category.name[lang] },
        { url: `/lots/${lot.id}`, ready: (lang) => lot.name[lang] ?? lot.name.de },
        { url: '/check-status', ready: (lang) => t(lang, 'public:checkStatus.title') },
        { url: '/donate', ready: (lang) => t(lang, 'donate:title') },
        { url: '/terms-and-delivery', ready: (lang) => t(lang, 'public:terms.title') },
        { url: '/privacy-policy', ready: (lang) => t(lang, 'public:privacy.title') },
      ];
      const problems: string[] = [];

      for (const { url, ready } of pages) {
        await page.goto(url);
        // the page opens in the language chosen last (Ukrainian after the first page)
        await visible(page.getByRole('heading', { level: 1 }));
        if ((await page.evaluate(() => document.documentElement.lang)) !== 'de') {
          await switchTo(page, 'de');
        }
        await visible(page.getByRole('heading', { level: 1, name: ready('de') }));
        await settle(page);
        const german = inPageLanguage(await visibleTexts(page), 'de');
        for (const { text } of german) {
          if (CYRILLIC.test(text)) problems.push(`${url} (de): Ukrainian text "${text}"`);
        }

        // the switch, without leaving the page
        await switchTo(page, 'uk');
        await visible(page.getByRole('heading', { level: 1, name: ready('uk') }));
        await settle(page);
        const all = await visibleTexts(page);
        const ukrainian = inPageLanguage(all, 'uk');
        // only the switch's "DE" (named "DE Deutsch") is marked as another language
        const quoted = all.filter((x) => x.lang !== '' && x.lang !== 'uk').map((x) => x.text);
        if (quoted.some((text) => text !== 'DE' && text !== 'Deutsch')) {
          problems.push(`${url} (uk): texts marked as another language: ${quoted.join(' | ')}`);
        }
        for (const { text } of ukrainian) {
          const words = (text.replace(ADDRESS, '').match(LATIN_WORD) ?? []).filter(
            (word) => !allowed.has(word),
          );
          if (words.length > 0) problems.push(`${url} (uk): "${text}" (${words.join(', ')})`);
        }
        // and no German text stayed as it was
        const after = new Set(ukrainian.map((x) => x.text));
        for (const { text } of german) {
          const words = text.replace(ADDRESS, '').match(LATIN_WORD) ?? [];
          if (!LETTER.test(text) || words.every((word) => allowed.has(word))) continue;
          if (after.has(text)) problems.push(`${url}: "${text}" did not change`);
        }
      }
      expect(problems).toEqual([]);

      // the choice is remembered: a reload and a new page stay Ukrainian
      await page.reload();
      await visible(page.getByRole('heading', { level: 1, name: t('uk', 'public:privacy.title') }));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('uk');
      await page
        .getByRole('navigation', { name: t('uk', 'nav.main') })
        .getByRole('link', { name: t('uk', 'nav.categories') })
        .click();
      await visible(
        page.getByRole('heading', { level: 1, name: t('uk', 'public:categories.title') }),
      );
      // the switch shows which language is on
      const ua = page.getByRole('button', { name: 'UA Українська', exact: true }).first();
      expect(await ua.getAttribute('aria-pressed')).toBe('true');
    }));
}
