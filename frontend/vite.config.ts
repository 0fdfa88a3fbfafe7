import path from 'node:path';
import { defineConfig, loadEnv, type Plugin } from 'vite';
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

export default defineConfig(({ command, mode }) => {
  // VITE_* settings reach the app as one constant (src/config/env.ts explains why)
  const appEnv = Object.fromEntries(
    Object.entries(loadEnv(mode, import.meta.dirname, 'VITE_')).filter(([k]) =>
      k.startsWith('VITE_'),
    ),
  );
  return {
    plugins: [
      react(),
      tailwindcss(),
      preloadTranslations(appEnv.VITE_LOCALES_PATH?.trim() || '/locales/{{lng}}/{{ns}}.json'),
    ],
    define: { __APP_ENV__: JSON.stringify(appEnv) },
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
      port: 5173,
      proxy: { '/api': 'http://localhost:8080', '/media': 'http://localhost:8080' },
    },
    build: {
      target: 'es2022',
      sourcemap: true,
      // scripts/report-size.mjs reads it to measure the home page's first download
      manifest: true,
      rollupOptions: {
        output: {
          // Everything the home page loads first travels in one chunk: split across several
          // shared chunks it compresses worse. Lazily loaded code that imports a library of the
          // first download (react-router, i18next) adds the parts it uses to that chunk; the
          // budget check after each build notices. The icons of the lazy pages share one chunk
          // instead of one request per icon.
          codeSplitting: {
            groups: [
              { name: 'initial', tags: ['$initial'], priority: 3 },
              { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
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
