import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { DEV_API_TARGET } from './src/lib/api-address.ts';

/** Where `wrangler dev` (apps/worker) listens; `/api` is proxied there in dev and preview (the banner names it in dev). */
const API_TARGET = DEV_API_TARGET;

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
  preview: { proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
});
