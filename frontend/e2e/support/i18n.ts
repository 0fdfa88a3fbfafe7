// The SPA's own translations (frontend/public/locales), so that the tests find buttons and
// messages by the words a family reads without copying them.
import fs from 'node:fs';
import path from 'node:path';

export type Lang = 'de' | 'uk';
type Tree = { [key: string]: string | Tree };

const LOCALES = path.resolve(__dirname, '../../public/locales');
const cache = new Map<string, Tree>();

function namespace(lang: Lang, ns: string): Tree {
  const key = `${lang}/${ns}`;
  let tree = cache.get(key);
  if (!tree) {
    tree = JSON.parse(fs.readFileSync(path.join(LOCALES, lang, `${ns}.json`), 'utf8')) as Tree;
    cache.set(key, tree);
  }
  return tree;
}

/** t('de', 'public:apply.submit') or with {{values}}: t('uk', 'public:lot.id', { id: 3 }). */
export function t(lang: Lang, key: string, values: Record<string, string | number> = {}): string {
  const [ns, dotted] = key.includes(':') ? key.split(':', 2) : ['common', key];
  let node: string | Tree | undefined = namespace(lang, ns!);
  for (const part of dotted!.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`no translation ${lang}:${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    name in values ? String(values[name]) : `{{${name}}}`,
  );
}

/** An exact-text pattern, for getByRole(..., { name }) and hasText. */
export function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`);
}

/** A pattern for a label that starts with `text` (fields add " *" or " (optional)"). */
export function startsWith(text: string): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(text)}`);
}

/** A pattern for any text containing `text`. */
export function containing(text: string): RegExp {
  return new RegExp(escapeRegExp(text));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
