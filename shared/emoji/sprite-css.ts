// The emoji sprite sheet's stylesheet: one rule per emoji code the public server uses, placing the
// sheet so that `<span class="emoji emoji-1f642">` shows that emoji. Generated when the renderer is
// built (vite.config.ts) from emoji-datasource's table, so no position is written by hand and the
// start-up bundle carries no emoji table. Positions are percentages, which hold at any element size.
import { normalizeEmojiCode } from './code.ts';

/** An emoji-datasource entry: its cell on the sheet, for itself and for the form without FE0F. */
export interface SheetEntry {
  unified: string;
  non_qualified?: string | null;
  sheet_x: number;
  sheet_y: number;
}

/** emoji-datasource's sheets: square cells of the image size plus a pixel of padding each side. */
export interface SheetGeometry {
  /** Cells per row and per column. */
  cells: number;
  /** The image size in a cell (32 for the 32px sheets). */
  imagePx: number;
}

function percent(n: number): string {
  return `${Number(n.toFixed(4))}%`;
}

/**
 * Rules `.emoji-<code>{background-position:…}` for each code in `codes` (the API's form) found in
 * `entries`, plus the one background-size rule they all depend on. Codes the sheet lacks are
 * returned apart, so the build can report them.
 */
export function spriteCss(
  entries: readonly SheetEntry[],
  codes: Iterable<string>,
  geometry: SheetGeometry,
): { css: string; missing: string[] } {
  const cell = geometry.imagePx + 2;
  const sheetPx = geometry.cells * cell;
  const byCode = new Map<string, SheetEntry>();
  for (const e of entries) {
    byCode.set(normalizeEmojiCode(e.unified), e);
    if (e.non_qualified) {
      const plain = normalizeEmojiCode(e.non_qualified);
      if (!byCode.has(plain)) byCode.set(plain, e);
    }
  }
  // The image (not its padded cell) fills the element: the sheet is drawn cell/image times larger
  // per cell, and offset past the padding.
  const size = percent((sheetPx / geometry.imagePx) * 100);
  const rules = [`span.emoji{background-size:${size} ${size}}`];
  const missing: string[] = [];
  const position = (n: number) => percent(((n * cell + 1) / (sheetPx - geometry.imagePx)) * 100);
  for (const code of codes) {
    const e = byCode.get(code);
    if (!e) {
      missing.push(code);
      continue;
    }
    rules.push(`.emoji-${code}{background-position:${position(e.sheet_x)} ${position(e.sheet_y)}}`);
  }
  return { css: rules.join('\n'), missing };
}
