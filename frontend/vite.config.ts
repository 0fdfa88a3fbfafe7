import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { rolldown } from 'rolldown';
import { defineConfig, loadEnv, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const reactRouter = path.resolve(
  import.meta.dirname,
  '../node_modules/react-router/dist/production',
);
const contracts = path.resolve(import.meta.dirname, '../services/libs/contracts/src');

/**
 * Preloads the translation files every visitor needs: those of German, the site's default and
 * the fallback that i18next loads next to any other language (src/app/i18n.ts: FALLBACK_LANGUAGE,
 * PUBLIC_NAMESPACES). Without it they start only after the first download has run, and the page
 * paints nothing until they are in. `crossorigin` makes the preload match i18next-http-backend's
 * fetch (mode cors, same-origin credentials).
 */
function preloadTranslations(localesPath: string): Plugin {
  return {
    name: 'preload-translations',
    transformIndexHtml: () =>
      ['common', 'public'].map((ns) => ({
        tag: 'link',
        attrs: {
          rel: 'preload',
          as: 'fetch',
          crossorigin: 'anonymous',
          href: localesPath.replace('{{lng}}', 'de').replace('{{ns}}', ns),
        },
        injectTo: 'head',
      })),
  };
}

/**
 * The files of lucide-react's icons that the public site imports (every source file outside
 * src/features/admin and the tests), found by reading the import lists and lucide-react's own
 * list of names (an icon has several: `AlertCircle`, `CircleAlert`, `CircleAlertIcon`, …).
 * The public pages' icons travel in one chunk, the back-office's in another: in one chunk
 * together a lot page downloaded and ran about 60 icons to show 12.
 */
function publicIconFiles(): Set<string> {
  const lucide = path.resolve(import.meta.dirname, '../node_modules/lucide-react/dist/esm');
  const fileOf = new Map<string, string>();
  const barrel = fs.readFileSync(path.join(lucide, 'lucide-react.mjs'), 'utf8');
  for (const [, names, file] of barrel.matchAll(
    /export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g,
  )) {
    for (const [, name] of names!.matchAll(/default as (\w+)/g)) fileOf.set(name!, file!);
  }
  const files = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '__tests__' && full !== path.join(src, 'features', 'admin')) walk(full);
      } else if (/\.tsx?$/.test(entry.name)) {
        const code = fs.readFileSync(full, 'utf8');
        for (const [, names] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'lucide-react'/g)) {
          for (const name of names!.split(',').map((n) => n.trim())) {
            const file = fileOf.get(name);
            if (file) files.add(file);
            else if (name && !name.startsWith('type ')) {
              throw new Error(`${full}: lucide-react has no icon ${name}`);
            }
          }
        }
      }
    }
  };
  const src = path.resolve(import.meta.dirname, 'src');
  walk(src);
  return files;
}

/** A test for lucide-react's modules: its runtime and the given icons. */
function lucideModules(icons: Set<string>): RegExp {
  const names = [...icons].map((f) => f.replace(/[-]/g, '\\-')).join('|');
  return new RegExp(
    `[\\\\/]node_modules[\\\\/]lucide-react[\\\\/]dist[\\\\/]esm[\\\\/](?:icons[\\\\/](?:${names})\\.mjs$|(?!icons[\\\\/]))`,
  );
}

/** Where index.html names the boot script (src/boot/boot.ts). */
const BOOT_MARKER = '<!-- boot script -->';

/**
 * The boot script: src/boot/main.ts bundled on its own into one small classic script
 * (`assets/boot-[hash].js`) and named in index.html's head where BOOT_MARKER stands, before the
 * app's first download. Its own bundle, not an entry of the app's build: shared chunks would
 * otherwise tie it to the app's code. `async` lets the parser go on; `fetchpriority=high`
 * keeps Chrome from holding it back behind the stylesheet as a low-priority async script.
 * Bundled once the app's chunks are known: it learns (`__BOOT_CHUNKS__`) which chunks the lot
 * page and the category page need beyond the first download (the page, its imports and the
 * footer) and asks for them next to it, instead of once the first download has run. The dev
 * server names the source as a module instead.
 */
function bootScript(define: Record<string, string>): Plugin {
  const entry = path.resolve(import.meta.dirname, 'src/boot/main.ts');
  const pages = {
    lot: 'src/app/routes/LotPage.tsx',
    category: 'src/features/catalog/components/CategoryLotsPage.tsx',
  };
  const footer = 'src/app/layout/Footer.tsx';
  let fileName: string | undefined;
  return {
    name: 'boot-script',
    generateBundle: {
      // before vite's own generateBundle writes index.html (transformIndexHtml below)
      order: 'pre',
      async handler(_options, bundle) {
        const chunks = Object.values(bundle).filter(
          (c): c is Rollup.OutputChunk => c.type === 'chunk',
        );
        const chunkOf = (source: string) => {
          const chunk = chunks.find(
            (c) => c.facadeModuleId === path.resolve(import.meta.dirname, source),
          );
          if (!chunk) throw new Error(`boot script: no chunk for ${source}`);
          return chunk;
        };
        /** the chunk and its static imports, without the first download's */
        const closure = (source: string): string[] => {
          const files = new Set<string>();
          const walk = (file: string) => {
            const chunk = bundle[file];
            if (!chunk || chunk.type !== 'chunk' || chunk.isEntry || files.has(file)) return;
            files.add(file);
            chunk.imports.forEach(walk);
          };
          walk(chunkOf(source).fileName);
          return [...files].map((file) => `/${file}`);
        };
        const bootChunks = Object.fromEntries(
          Object.entries(pages).map(([page, source]) => [
            page,
            [...new Set([...closure(source), ...closure(footer)])],
          ]),
        );
        const built = await rolldown({
          input: entry,
          platform: 'browser',
          transform: {
            define: { ...define, __BOOT_CHUNKS__: JSON.stringify(bootChunks) },
            target: 'es2022',
          },
          logLevel: 'warn',
        });
        try {
          const { output } = await built.generate({ format: 'iife', minify: true });
          const code = output[0].code;
          const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
          fileName = `assets/boot-${hash}.js`;
          this.emitFile({ type: 'asset', fileName, source: code });
        } finally {
          await built.close();
        }
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!html.includes(BOOT_MARKER)) throw new Error(`index.html lacks ${BOOT_MARKER}`);
        if (!ctx.server && !fileName) throw new Error('boot script: index.html came first');
        const tag = ctx.server
          ? '<script type="module" async src="/src/boot/main.ts"></script>'
          : `<script async fetchpriority="high" src="/${fileName}"></script>`;
        return html.replace(BOOT_MARKER, tag);
      },
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // VITE_* settings reach the app as one constant (src/config/env.ts explains why)
  const appEnv = Object.fromEntries(
    Object.entries(loadEnv(mode, import.meta.dirname, 'VITE_')).filter(([k]) =>
      k.startsWith('VITE_'),
    ),
  );
  // the platform's one version (the root package.json's) for the back-office; not a setting
  const rootPackage = JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'),
  ) as { version: string };
  const define = {
    __APP_ENV__: JSON.stringify({ ...appEnv, APP_VERSION: rootPackage.version }),
  };
  const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';
  return {
    plugins: [
      bootScript(define),
      react(),
      tailwindcss(),
      preloadTranslations(appEnv.VITE_LOCALES_PATH?.trim() || '/locales/{{lng}}/{{ns}}.json'),
    ],
    define,
    resolve: {
      alias: [
        // the contracts package is TypeScript source shared with the services; deep paths
        // (`@furniture/contracts/limits`) keep zod out of chunks that need only constants
        { find: /^@furniture\/contracts$/, replacement: `${contracts}/index.ts` },
        { find: /^@furniture\/contracts\/(.*)$/, replacement: `${contracts}/$1` },
        // react-router maps every export condition to its development build; a production
        // bundle takes the production build it ships next to it (~0.6 kB gzip less)
        ...(command === 'build'
          ? [
              { find: /^react-router$/, replacement: `${reactRouter}/index.mjs` },
              { find: /^react-router\/dom$/, replacement: `${reactRouter}/dom-export.mjs` },
            ]
          : []),
        // React 19 has the hook; the pre-18 fallback would only add bytes to the first download
        {
          find: /^use-sync-external-store\/shim$/,
          replacement: path.resolve(import.meta.dirname, 'src/lib/use-sync-external-store-shim.ts'),
        },
      ],
    },
    server: {
      port: Number(process.env.SPA_DEV_PORT ?? 5173),
      strictPort: true,
      // the gateway of `make dev` (GATEWAY_URL when it runs elsewhere)
      proxy: {
        '/api': gateway,
        '/media': gateway,
      },
    },
    build: {
      target: 'es2022',
      sourcemap: true,
      // scripts/report-size.mjs reads it to measure the home page's first download
      manifest: true,
      rollupOptions: {
        // a feature's public entry (features/<feature>/index.ts, frontend/README.md) only
        // re-exports: importing it runs nothing, so a chunk gets just the modules whose exports it
        // uses, as if it imported them directly (no stub chunk per entry)
        treeshake: {
          moduleSideEffects: [
            {
              test: /[\\/]src[\\/]features[\\/](?:admin[\\/])?[\w-]+[\\/]index\.ts$/,
              sideEffects: false,
            },
          ],
        },
        output: {
          // Everything the home page loads first travels in one chunk: split across several
          // shared chunks it compresses worse. Lazily loaded code that imports a library of the
          // first download (react-router, i18next) adds the parts it uses to that chunk; the
          // budget check after each build notices. The icons of the lazy public pages share one
          // chunk instead of one request per icon, those of the back-office another (the first
          // group that matches a module takes it).
          codeSplitting: {
            groups: [
              { name: 'initial', tags: ['$initial'], priority: 3 },
              { name: 'icons', test: lucideModules(publicIconFiles()), priority: 2 },
              {
                name: 'admin-icons',
                test: /[\\/]node_modules[\\/]lucide-react[\\/]/,
                priority: 2,
              },
              // The data layer and the small modules the public pages share travel in one chunk:
              // a lot page otherwise asks for 14 files, and on HTTP/1.1 (6 connections) its API
              // call and photo queue behind them (Lighthouse's lot page LCP).
              {
                name: 'public-shared',
                test: /[\\/](?:src[\\/](?:app[\\/](?:api|store|StoreProvider|hooks)|lib[\\/](?:format|json|language|localized|lot-condition|validation)|components[\\/](?:Breadcrumb|ErrorState|Banner)|features[\\/]catalog[\\/](?:api|lib)[\\/][\w-]+|features[\\/]catalog[\\/]components[\\/](?:LotStatusBadge|CategoryGrid)|features[\\/]applications[\\/]components[\\/]ApplicationStatusBadge)\.tsx?$|contracts[\\/]src[\\/](?:limits|enums)\.ts$|node_modules[\\/](?:@reduxjs|react-redux|redux|immer|reselect|redux-thunk)[\\/])/,
                priority: 1,
              },
            ],
          },
        },
      },
    },
  };
});
