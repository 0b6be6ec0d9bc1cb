import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Node tests that change what the next file in the same worker would see: a module replaced with
// vi.mock, or a global (zulip-js loads isomorphic-form-data, which swaps globalThis.FormData for the
// form-data package). Each runs in a fresh module registry.
const ISOLATED = [
  'test/main/shell.test.ts',
  'test/main/desktop-shell.test.ts',
  'test/main/notifications.test.ts',
  'test/server/third-party-compat.test.ts',
  'test/server/zulip-js-client.test.ts',
];

// Renderer tests that replace a module with vi.mock, reset the module registry or stub a global:
// the renderer project shares one registry per worker, where a mock would come too late (the real
// module is already loaded by an earlier file) or leak into the next file.
const RENDERER_ISOLATED = [
  'test/renderer/chat/search-suggestions-cost.test.ts',
  'test/renderer/chat/warm-bodies.test.ts',
  'test/renderer/first-screen/first-screen.test.ts',
  'test/renderer/notifications/notifier.test.ts',
];

// Renderer files that ask for Node's environment (`// @vitest-environment node`: the store's logic,
// no DOM) run as a project of their own. Vitest hands a worker of a shared registry (isolate:
// false) the next file only when that file's project and environment are the worker's; otherwise
// it ends the worker and starts another, which imports jsdom, React and the app's modules anew.
// In one project, ordered by size, these sixteen files fell between the jsdom files 28 times.
const RENDERER_NODE = (
  readdirSync(new URL('test/renderer', import.meta.url), { recursive: true }) as string[]
)
  .map((file) => `test/renderer/${file}`)
  .filter(
    (file) =>
      /\.test\.tsx?$/.test(file) &&
      !RENDERER_ISOLATED.includes(file) &&
      /^\/\/ @vitest-environment node$/m.test(readFileSync(new URL(file, import.meta.url), 'utf8')),
  );

// CI has 2 cores. Vitest's default is one worker fewer than the cores, which ran the unit and
// renderer files one at a time; these tests wait on HTTP and child processes often enough that two
// workers keep both cores busy.
const WORKERS = 2;

// A folder per project and run for the seeded realm templates the test servers are copied from
// (test/support/realm-template.ts).
const GLOBAL_SETUP = ['test/support/global-setup.ts'];

// The renderer files that share one module registry per worker (renderer, renderer-node). As the
// unit project: importing React, the store and the app's modules anew for every file was most of
// the project's time (a renderer run alone 20 files: 87 -> 33 s). Each file still gets its own
// jsdom (document, storage); module singletons that outlive a file are put back by the setup file
// (support/setup.ts).
const RENDERER_SHARED = {
  environment: 'jsdom' as const,
  globalSetup: GLOBAL_SETUP,
  setupFiles: ['test/renderer/support/setup.ts'],
  isolate: false,
  maxWorkers: WORKERS,
  testTimeout: 20_000,
};

// Four projects: unit/integration tests in Node (they start the real local server on 127.0.0.1),
// the few of them that change modules or globals, renderer tests in jsdom, and end-to-end tests that drive
// Debian's Chromium through Playwright.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          globalSetup: GLOBAL_SETUP,
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/renderer/**', ...ISOLATED],
          // One module registry per worker instead of per file: every file imports the server and
          // the main process anew otherwise, which was a third of the suite's CPU. Files share no
          // state besides modules: each starts its own server on its own SQLite file.
          isolate: false,
          maxWorkers: WORKERS,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'unit-isolated',
          environment: 'node',
          globalSetup: GLOBAL_SETUP,
          include: ISOLATED,
          maxWorkers: WORKERS,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          ...RENDERER_SHARED,
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          exclude: [...RENDERER_ISOLATED, ...RENDERER_NODE],
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer-node',
          ...RENDERER_SHARED,
          include: RENDERER_NODE,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer-isolated',
          environment: 'jsdom',
          globalSetup: GLOBAL_SETUP,
          setupFiles: ['test/renderer/support/setup.ts'],
          include: RENDERER_ISOLATED,
          maxWorkers: WORKERS,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          globalSetup: GLOBAL_SETUP,
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/e2e/support/setup.ts'],
          // One file at a time, all in one worker with one module registry: importing the server,
          // the host and Playwright anew for each file was a third of a file's CPU. Files share
          // no state besides modules (each starts its own realm, app and browser contexts). Two at
          // a time shortened this leg but lengthened the other process's and the checks' beyond
          // it: the whole run took 11 min 38 s against 9 min 51 s (docs/benchmarks.md, test
          // suite, sixteenth pass).
          fileParallelism: false,
          isolate: false,
          // After the other projects in `vitest run` (a group needs one worker count); `npm test`
          // runs this project beside them instead (scripts/test.mjs).
          sequence: { groupOrder: 1 },
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // expect.poll waits 1 s by default, where Playwright's own waits take 30 s: a page, a
          // host and a realm under load (two files at once, beside the other projects) can take
          // longer than that to show what is right (an avatar's upload). Only a failing poll waits
          // the longer; one that passes returns as soon as it does.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
