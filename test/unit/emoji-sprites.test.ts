// The emoji sheet's stylesheet, as vite.config.ts writes it at build time: every code the public
// server names has a cell, and the cell's position shows that emoji's picture, not its neighbour's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spriteCss, type SheetEntry } from '../../shared/emoji/sprite-css';

const entries = JSON.parse(
  readFileSync('node_modules/emoji-datasource/emoji.json', 'utf8'),
) as SheetEntry[];
const table = JSON.parse(readFileSync('shared/emoji/zulip-emoji-codes.json', 'utf8')) as {
  codepoint_to_name: Record<string, string>;
};
const geometry = { cells: 62, imagePx: 32 };

describe('spriteCss', () => {
  it('places every emoji code of the public server on the bundled sheet', () => {
    const codes = Object.keys(table.codepoint_to_name);
    const { css, missing } = spriteCss(entries, codes, geometry);
    expect(missing).toEqual([]);
    for (const code of codes) expect(css).toContain(`.emoji-${code}{background-position:`);
  });

  it('finds codes the server writes without FE0F, where the sheet keeps it', () => {
    const heart = entries.find((e) => e.unified === '2764-FE0F')!;
    const { css } = spriteCss(entries, ['2764'], geometry);
    // Cell n starts at n * 34 + 1 px (a pixel of padding), of a 62 * 34 px sheet shown 32 px wide.
    const at = (n: number) => `${Number((((n * 34 + 1) / (62 * 34 - 32)) * 100).toFixed(4))}%`;
    expect(css).toContain(
      `.emoji-2764{background-position:${at(heart.sheet_x)} ${at(heart.sheet_y)}}`,
    );
    expect(css).toContain(`span.emoji{background-size:6587.5% 6587.5%}`);
  });

  it('reports codes the sheet lacks instead of writing a rule for them', () => {
    expect(spriteCss(entries, ['1f642', 'ffff0'], geometry).missing).toEqual(['ffff0']);
  });
});
