import path from 'node:path';
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const contracts = path.resolve(import.meta.dirname, '../services/libs/contracts/src');

export default defineConfig(({ mode }) => {
  // VITE_* settings reach the app as one constant (src/config/env.ts explains why)
  const appEnv = Object.fromEntries(
    Object.entries(loadEnv(mode, import.meta.dirname, 'VITE_')).filter(([k]) =>
      k.startsWith('VITE_'),
    ),
  );
  return {
    plugins: [react(), tailwindcss()],
    define: { __APP_ENV__: JSON.stringify(appEnv) },
    resolve: {
      alias: [
        // the contracts package is TypeScript source shared with the services; deep paths
        // (`@furniture/contracts/limits`) keep zod out of chunks that need only constants
        { find: /^@furniture\/contracts$/, replacement: `${contracts}/index.ts` },
        { find: /^@furniture\/contracts\/(.*)$/, replacement: `${contracts}/$1` },
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
    },
  };
});
