import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { emojiSprites } from './scripts/vite-emoji-sprites.ts';

/** The app's start, imported by the page's entry (renderer/shell/boot.ts, named by index.html). */
const APP = fileURLToPath(new URL('./renderer/shell/main.tsx', import.meta.url));
const PAGE = fileURLToPath(new URL('./renderer/index.html', import.meta.url));
/** The page's early script (the first screen): an entry of its own, importing nothing. */
const EARLY = fileURLToPath(new URL('./renderer/first-screen.ts', import.meta.url));

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * The app's start and every module it imports statically (and so needs before its first render),
 * found once per build. They make one chunk (`app-*.js`), apart from the entry (`index-*.js`, 1 KB):
 * left to the automatic splitting, each module the app shares with lazy screens went into a chunk
 * of its own per set of screens sharing it, and the page fetched eleven files before it could run.
 * The browser-mode host starts the accounts' sessions once the page's scripts have been sent
 * (electron/host/host.ts): the entry and this chunk, which the page preloads (appChunk below).
 */
function appGraph(graph: ModuleGraph): Set<string> {
  const reached = new Set<string>();
  const visit = [APP];
  for (let id = visit.pop(); id !== undefined; id = visit.pop()) {
    if (reached.has(id)) continue;
    reached.add(id);
    visit.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return reached;
}

/**
 * Puts the early script first in the page's <head>, as its own file: two module scripts in
 * index.html would become one entry file (the early script would wait for the app's chunks).
 * And names the app's chunk in <head> (appChunk).
 */
function earlyScript(): Plugin {
  return {
    name: 'tributary-first-screen',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunk = Object.values(context.bundle ?? {}).find(
          (file) => file.type === 'chunk' && file.isEntry && file.facadeModuleId === EARLY,
        );
        const tags: HtmlTagDescriptor[] = [
          {
            tag: 'script',
            attrs: {
              type: 'module',
              async: true,
              src: chunk ? `./${chunk.fileName}` : './first-screen.ts',
            },
            injectTo: 'head-prepend',
          },
        ];
        return { html: appChunk(html, context.bundle), tags };
      },
    },
  };
}

/**
 * The page with the app's chunk and its stylesheet named in <head>, as if the entry imported it
 * statically: the entry imports it only once the first screen is painted (renderer/shell/boot.ts),
 * but the browser should fetch it at once, and draw the first screen with all of the app's styles.
 * (And the chunks it imports: the bundler's runtime.) The app's own stylesheet (its components' CSS) goes before the entry's (shell/styles.ts), the
 * cascade order of the single stylesheet the app had when the entry was the app itself.
 */
function appChunk(html: string, bundle: Record<string, unknown> | undefined): string {
  const app = Object.values(bundle ?? {}).find(
    (
      file,
    ): file is {
      fileName: string;
      imports: string[];
      viteMetadata?: { importedCss: Set<string> };
    } => (file as { type?: string }).type === 'chunk' && (file as { name?: string }).name === 'app',
  );
  if (!app) return html; // the dev server: the entry's import loads it
  const links = [
    ...[app.fileName, ...app.imports].map(
      (href) => `<link rel="modulepreload" crossorigin href="./${href}">`,
    ),
    ...[...(app.viteMetadata?.importedCss ?? [])].map(
      (href) => `<link rel="stylesheet" crossorigin href="./${href}">`,
    ),
  ].filter((link) => !html.includes(link));
  const at = html.search(/<link rel="stylesheet"|<\/head>/);
  return `${html.slice(0, at)}${links.join('\n    ')}\n    ${html.slice(at)}`;
}

// The renderer is a static bundle: served from app:// in Electron and by the browser-mode host.
export default defineConfig(() => {
  let appModules: Set<string> | undefined;
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
        input: { index: PAGE, 'first-screen': EARLY },
        output: {
          codeSplitting: {
            groups: [
              // Vite's dynamic-import helper, which the entry imports: in the app's chunk, the
              // entry would import (and so run) that chunk before it could wait for anything.
              {
                name: (id: string) => (id.includes('vite/preload-helper') ? 'preload' : null),
                priority: 2,
              },
              {
                name: (id: string, context: ModuleGraph) =>
                  (appModules ??= appGraph(context)).has(id) ? 'app' : null,
                priority: 1,
              },
            ],
          },
        },
      },
    },
  };
});
