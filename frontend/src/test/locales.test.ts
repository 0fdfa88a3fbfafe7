import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LOCALES = path.resolve(__dirname, '../../public/locales');

/** Every key of a translation file, nested keys joined with dots (arrays by index). */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

const files = (lng: string) =>
  readdirSync(path.join(LOCALES, lng))
    .filter((f) => f.endsWith('.json'))
    .sort();
const load = (lng: string, file: string) =>
  JSON.parse(readFileSync(path.join(LOCALES, lng, file), 'utf8')) as Record<string, unknown>;

describe('translations', () => {
  test('when German and Ukrainian are compared, then both have the same files', () => {
    expect(files('uk')).toEqual(files('de'));
  });

  test.each(files('de'))('when %s is compared, then every key exists in both languages', (file) => {
    expect(keysOf(load('uk', file)).sort()).toEqual(keysOf(load('de', file)).sort());
  });

  test.each(files('de'))('when %s is read, then no text is empty', (file) => {
    for (const lng of ['de', 'uk']) {
      const json = load(lng, file);
      const empty = keysOf(json).filter((key) => {
        const value = key
          .split('.')
          .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], json);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect({ lng, empty }).toEqual({ lng, empty: [] });
    }
  });

  test.each(files('de'))(
    'when %s is read, then both languages use the same {{placeholders}} per key',
    (file) => {
      const de = load('de', file);
      const uk = load('uk', file);
      const get = (json: unknown, key: string) =>
        String(key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], json));
      const placeholders = (text: string) =>
        [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      for (const key of keysOf(de)) {
        expect({ key, uk: placeholders(get(uk, key)) }).toEqual({
          key,
          uk: placeholders(get(de, key)),
        });
      }
    },
  );
});
