// npm run icons: the installers' icons, made from the app's own SVG (renderer/public/favicon.svg) so
// there is one drawing. Writes build/icon.png (1024 px), build/icons/NxN.png (Linux sizes),
// build/icon.ico (Windows, PNG and small BMP entries as executables want) and build/icon.icns (macOS,
// drawn on Apple's icon grid: the shape at 824 of 1024 px, the rest transparent). The results are
// committed; run this again only when the SVG changes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import png2icons from 'png2icons';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(root, 'renderer/public/favicon.svg');
const OUT = join(root, 'build');
export const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;

async function render(svg: Buffer, size: number, shapeSize = size): Promise<Buffer> {
  // Rendered at the target size (not scaled down from one big bitmap) so small sizes stay crisp.
  const shape = await sharp(svg, { density: (72 * shapeSize) / 64 })
    .resize(shapeSize, shapeSize)
    .png()
    .toBuffer();
  if (shapeSize === size) return shape;
  const margin = Math.round((size - shapeSize) / 2);
  return sharp({
    create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: shape, left: margin, top: margin }])
    .png()
    .toBuffer();
}

async function main(): Promise<void> {
  const svg = readFileSync(SOURCE);
  mkdirSync(join(OUT, 'icons'), { recursive: true });
  const full = await render(svg, 1024);
  writeFileSync(join(OUT, 'icon.png'), full);
  for (const size of LINUX_ICON_SIZES) {
    writeFileSync(join(OUT, 'icons', `${size}x${size}.png`), await render(svg, size));
  }
  const ico = png2icons.createICO(full, png2icons.BICUBIC2, 0, false, true);
  const icns = png2icons.createICNS(await render(svg, 1024, 824), png2icons.BICUBIC2, 0);
  if (!ico || !icns) throw new Error('png2icons could not convert build/icon.png');
  writeFileSync(join(OUT, 'icon.ico'), ico);
  writeFileSync(join(OUT, 'icon.icns'), icns);
  console.log(`icons written to ${OUT}`);
}

await main();
