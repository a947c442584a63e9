import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `wrangler dev` (apps/worker) listens; `/api` is proxied there in dev and preview. */
const API_TARGET = 'http://127.0.0.1:8787';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
  preview: { proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
});
