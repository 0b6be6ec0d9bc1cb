import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spriteCss, type SheetEntry } from './shared/emoji/sprite-css';

const EMOJI_SPRITES = 'virtual:emoji-sprites.css';

/**
 * `virtual:emoji-sprites.css`: the sheet position of every emoji code the public server names
 * (shared/emoji/zulip-emoji-codes.json), from emoji-datasource's table, written at build time.
 */
function emojiSprites(): Plugin {
  const resolved = `\0${EMOJI_SPRITES}`;
  return {
    name: 'tributary-emoji-sprites',
    resolveId: (id) => (id === EMOJI_SPRITES ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined;
      const read = (path: string) =>
        JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
      const entries = read('./node_modules/emoji-datasource/emoji.json') as SheetEntry[];
      const table = read('./shared/emoji/zulip-emoji-codes.json') as {
        codepoint_to_name: Record<string, string>;
      };
      const cells = Math.max(...entries.map((e) => Math.max(e.sheet_x, e.sheet_y))) + 1;
      const { css, missing } = spriteCss(entries, Object.keys(table.codepoint_to_name), {
        cells,
        imagePx: 32,
      });
      if (missing.length) this.warn(`emoji codes without a sheet image: ${missing.join(' ')}`);
      return css;
    },
  };
}

// The renderer is a static bundle: served from app:// in Electron and by the browser-mode host.
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react(), emojiSprites()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
});
