import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { apiProxy } from './api-proxy.ts';

// `/api` goes to `wrangler dev` (apps/worker) in dev and preview; the banner of a server that does not answer names it.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: apiProxy() },
  preview: { proxy: apiProxy() },
});
