import { defineConfig } from 'vite';

// Built once (`npm run build -w @spa/dashboard`) into dist/, which the gateway serves at /dashboard.
export default defineConfig({
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
});
