// Builds the Monaco test page. `vscode` in editors/vscode/src/features.ts resolves to the
// monaco-vscode-api implementation installed here (the npm alias `vscode`).
import { defineConfig } from 'vite';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
export default defineConfig({
  resolve: { alias: [{ find: /^vscode$/, replacement: path.join(here, 'node_modules/vscode/extension.api.js') }] },
  build: { target: 'esnext', outDir: process.env.DIST || 'dist', emptyOutDir: true, chunkSizeWarningLimit: 100000 },
  worker: { format: 'es' },
  logLevel: 'warn',
});
