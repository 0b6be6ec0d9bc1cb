// The Vite plugin behind `virtual:emoji-sprites.css`: the sheet position of every emoji code the
// public server names (shared/emoji/zulip-emoji-codes.json), from emoji-datasource's table, written
// at build time. Used by the renderer's build (vite.config.ts) and the render benchmark's page.
import type { Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { spriteCss, type SheetEntry } from '../shared/emoji/sprite-css.ts';

const EMOJI_SPRITES = 'virtual:emoji-sprites.css';

export function emojiSprites(): Plugin {
  const resolved = `\0${EMOJI_SPRITES}`;
  return {
    name: 'tributary-emoji-sprites',
    resolveId: (id) => (id === EMOJI_SPRITES ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined;
      const read = (path: string) =>
        JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
      const entries = read('../node_modules/emoji-datasource/emoji.json') as SheetEntry[];
      const table = read('../shared/emoji/zulip-emoji-codes.json') as {
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
