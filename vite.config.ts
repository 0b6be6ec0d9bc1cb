import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { emojiSprites } from './scripts/vite-emoji-sprites.ts';
import { EARLY_SCRIPT_ATTRIBUTE } from './electron/host/csp.ts';

const ENTRY = fileURLToPath(new URL('./renderer/shell/main.tsx', import.meta.url));
const PAGE = fileURLToPath(new URL('./renderer/index.html', import.meta.url));
/** The page's early script (the first screen): bundled on its own, with the one module it imports. */
const EARLY = fileURLToPath(new URL('./renderer/first-screen.ts', import.meta.url));

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * Every module the entry imports statically (and so needs before its first render), found once per
 * build. They make one chunk (`app-*.js`), apart from the entry module itself (`index-*.js`, 1 KB):
 * left to the automatic splitting, each module the entry shares with lazy screens went into a chunk
 * of its own per set of screens sharing it, and the page fetched eleven files before it could run.
 * The browser-mode host starts the accounts' sessions once the first script has been sent
 * (electron/host/host.ts): that is now the small entry (docs/benchmarks.md, fifth pass).
 */
function entryGraph(graph: ModuleGraph): Set<string> {
  const reached = new Set<string>();
  const visit = [ENTRY];
  for (let id = visit.pop(); id !== undefined; id = visit.pop()) {
    if (reached.has(id)) continue;
    reached.add(id);
    visit.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return reached;
}

/**
 * Puts the early script first in the page's <head>, its built text inline as a classic script in a
 * function of its own: it runs the moment the parser reaches it, and asks for the first screen
 * while the page's other files are still on their way (as a file of its own it ran only once
 * fetched, after the stylesheet; an inline module runs only after the parse). It is bundled apart
 * from the app (esbuild, one function with what it imports: lib/first-screen-times.ts and
 * lib/format.ts), since as an entry of the app's build a module it shares with the app went into a
 * chunk of its own, which an inline classic script cannot import. The CSP lets exactly this text
 * run, by its hash (electron/host/csp.ts, earlyScriptHashes, which finds it by
 * EARLY_SCRIPT_ATTRIBUTE). Under the dev server there is no bundle: it stays a module file.
 */
function earlyScript(): Plugin {
  return {
    name: 'tributary-first-screen',
    transformIndexHtml: {
      order: 'post',
      async handler(_html, context) {
        if (!context.bundle) {
          return [
            {
              tag: 'script',
              attrs: { type: 'module', async: true, src: './first-screen.ts' },
              injectTo: 'head-prepend',
            },
          ];
        }
        const built = await esbuild({
          entryPoints: [EARLY],
          bundle: true,
          write: false,
          format: 'esm',
          minify: !process.env.TRIBUTARY_NO_MINIFY,
          target: 'es2022',
          legalComments: 'none',
          logLevel: 'warning',
        });
        const code = built.outputFiles[0]!.text.trim();
        // A classic script: no module syntax may be left in it, nor anything that ends the element.
        if (/<\/script|<!--|\bimport\b|\bexport\b/i.test(code)) {
          throw new Error('the early script cannot be put inline');
        }
        return [
          {
            tag: 'script',
            attrs: { [EARLY_SCRIPT_ATTRIBUTE]: true },
            children: `(() => {'use strict';${code}})();`,
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

// The renderer is a static bundle: served from app:// in Electron and by the browser-mode host.
export default defineConfig(() => {
  let firstScreen: Set<string> | undefined;
  return {
    root: fileURLToPath(new URL('./renderer', import.meta.url)),
    base: './',
    plugins: [react(), emojiSprites(), earlyScript()],
    build: {
      outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
      emptyOutDir: true,
      sourcemap: true,
      // TRIBUTARY_NO_MINIFY=1: readable function names in CPU profiles (bench/large-org).
      minify: process.env.TRIBUTARY_NO_MINIFY ? false : undefined,
      rolldownOptions: {
        input: { index: PAGE },
        output: {
          codeSplitting: {
            groups: [
              {
                name: (id: string, context: ModuleGraph) =>
                  id !== ENTRY && (firstScreen ??= entryGraph(context)).has(id) ? 'app' : null,
              },
            ],
          },
        },
      },
    },
  };
});
