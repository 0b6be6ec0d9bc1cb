// The tray icon, the Windows taskbar overlay and their unread dot, drawn in code as BGRA bitmaps for
// nativeImage.createFromBitmap: the app's mark (two streams joining, as in renderer/public/favicon.svg)
// on its teal-to-blue tile, so no image file has to ship beside the main bundle.

type Rgb = readonly [number, number, number];

const TEAL: Rgb = [0x2b, 0xb3, 0xa3];
const BLUE: Rgb = [0x1d, 0x5f, 0xa8];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const RED: Rgb = [0xe0, 0x3a, 0x3e];

/** The favicon's strokes on its 64-unit grid, with the curves straightened. */
const STREAMS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  // x1, y1, x2, y2, opacity
  [16, 12, 32, 38, 1],
  [32, 38, 32, 52, 1],
  [48, 12, 32, 38, 0.72],
];

function distanceToSegment(px: number, py: number, seg: readonly number[]): number {
  const [x1, y1, x2, y2] = seg;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}

/** Coverage of a pixel by a shape whose edge is `distance` away (negative inside), one pixel wide. */
const coverage = (distanceInPixels: number) => Math.max(0, Math.min(1, 0.5 - distanceInPixels));

function blend(base: Rgb, top: Rgb, amount: number): Rgb {
  return [0, 1, 2].map((i) => base[i] + (top[i] - base[i]) * amount) as unknown as Rgb;
}

function writePixel(out: Buffer, index: number, color: Rgb, alpha: number): void {
  // BGRA, premultiplied, as Chromium's bitmaps are.
  out[index] = Math.round(color[2] * alpha);
  out[index + 1] = Math.round(color[1] * alpha);
  out[index + 2] = Math.round(color[0] * alpha);
  out[index + 3] = Math.round(alpha * 255);
}

/** The app's icon at `size` pixels square; with `dot`, a red unread dot in its top-right corner. */
export function appIconBitmap(size: number, dot = false): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const unit = size / 64;
  const radius = 14 * unit;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      // Rounded tile: distance outside the inner rectangle, minus the corner radius.
      const qx = Math.max(radius - px, px - (size - radius), 0);
      const qy = Math.max(radius - py, py - (size - radius), 0);
      const tile = coverage(Math.hypot(qx, qy) - radius);
      let color = blend(TEAL, BLUE, (px + py) / (2 * size));
      for (const [x1, y1, x2, y2, opacity] of STREAMS) {
        const d = distanceToSegment(px / unit, py / unit, [x1, y1, x2, y2]) * unit;
        color = blend(color, WHITE, coverage(d - 3 * unit) * opacity);
      }
      let alpha = tile;
      if (dot) {
        const d = Math.hypot(px - size * 0.78, py - size * 0.22) - size * 0.22;
        const ring = coverage(d - Math.max(1, unit * 3));
        const fill = coverage(d);
        // A transparent ring separates the dot from the tile, as badges are drawn.
        alpha = Math.max(alpha * (1 - ring), fill);
        color = blend(color, RED, fill);
      }
      writePixel(out, (y * size + x) * 4, color, alpha);
    }
  }
  return out;
}

/** A red disc, the Windows taskbar overlay that says there are unread messages. */
export function unreadOverlayBitmap(size: number): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - r, y + 0.5 - r) - (r - 0.5);
      writePixel(out, (y * size + x) * 4, RED, coverage(d));
    }
  }
  return out;
}
