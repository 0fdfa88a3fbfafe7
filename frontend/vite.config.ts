import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      // the contracts package is TypeScript source shared with the services
      '@furniture/contracts': path.resolve(
        import.meta.dirname,
        '../services/libs/contracts/src/index.ts',
      ),
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080', '/media': 'http://localhost:8080' },
  },
  build: { target: 'es2022', sourcemap: true },
});
