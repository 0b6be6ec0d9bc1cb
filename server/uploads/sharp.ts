// sharp (libvips and its native binding), loaded at its first image rather than with the server:
// loading it was about 41 ms of the realm's boot to listening, which a first launch's window waits
// for (docs/benchmarks.md, start-up, ninth pass). The realm process warms it once it is idle after
// listening (server/process/entry.ts), so an upload seldom pays for it either.
import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | null = null;

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // One image at a time on a two-core machine shared with the event loop; no cache of decoded
    // images.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
