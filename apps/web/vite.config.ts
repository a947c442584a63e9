import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { API_BASE, DEV_API_TARGET } from './src/lib/api-address.ts';

/** `/api` goes to `wrangler dev` (apps/worker) in dev and preview, where the banner of a server that does not answer names it in dev. */
const apiProxy = () => ({ [API_BASE]: { target: DEV_API_TARGET, changeOrigin: false } });

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: apiProxy() },
  preview: { proxy: apiProxy() },
});
