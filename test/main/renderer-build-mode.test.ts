// The renderer is built for production whoever starts the build. Vite takes the bundle's NODE_ENV
// from the environment, and Vitest sets NODE_ENV=test: a test that called buildAll() after a source
// changed made React's development build (a third larger, twice the page's script time at start),
// and the staleness check then took it as fresh for every later `npm start` and bench.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../scripts/build';

const assets = fileURLToPath(new URL('../../dist/renderer/assets', import.meta.url));

/** Warnings only React's development build carries (react-dom's DOM nesting and key checks). */
const DEVELOPMENT_ONLY = ['cannot be a child of', 'Each child in a list should have a unique'];

describe('the renderer build', () => {
  beforeAll(async () => {
    expect(process.env.NODE_ENV).toBe('test');
    await buildAll();
  }, 300_000);

  it("is React's production build, though this process's NODE_ENV is test", () => {
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const development = scripts.filter((name) => {
      const code = readFileSync(join(assets, name), 'utf8');
      return DEVELOPMENT_ONLY.some((warning) => code.includes(warning));
    });
    expect(development).toEqual([]);
  });

  it("leaves this process's NODE_ENV as it was", () => {
    expect(process.env.NODE_ENV).toBe('test');
  });
});
