import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { emojiSprites } from './scripts/vite-emoji-sprites.ts';

// The renderer is a static bundle: served from app:// in Electron and by the browser-mode host.
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react(), emojiSprites()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // TRIBUTARY_NO_MINIFY=1: readable function names in CPU profiles (bench/large-org).
    minify: process.env.TRIBUTARY_NO_MINIFY ? false : undefined,
  },
});
