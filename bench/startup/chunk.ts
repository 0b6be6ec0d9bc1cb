// What the page's main chunk costs by itself (npm run bench:startup-chunk): its fetch, parse,
// compile and top-level evaluation, without the host, the realm or React's first render, so a
// change to what the chunk holds shows in a figure the launch's other work does not blur. Each run
// opens a fresh browser context (no HTTP or code cache), loads a blank page from a static server
// over the built dist/renderer, and imports the chunk the page preloads; Chromium's ScriptDuration
// across the import is the figure. BENCH_APP=DIR measures another built tree in the same minutes,
// alternated run by run with this one; BENCH_RUNS=N runs each (default 10).
// Prints a summary and writes bench/.out/startup-chunk.json.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from '../../scripts/build';
import { launchChromium } from '../../test/support/chromium';
import { writeBenchFigures } from '../support/output';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const trees = [root, ...(process.env.BENCH_APP ? [process.env.BENCH_APP] : [])];

/** The chunk the built page preloads (its `<link rel="modulepreload">` named app-*). */
function mainChunk(rendererDir: string): string {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const found = /href="\.\/(assets\/app-[^"]+\.js)"/.exec(html);
  if (!found) throw new Error(`no app chunk named in ${rendererDir}/index.html`);
  return found[1];
}

/** The tree's built renderer, and a blank page to import from (the built page would run the app). */
function serve(rendererDir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/blank.html') {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><div id="root"></div>');
      return;
    }
    const file = normalize(join(rendererDir, path));
    try {
      if (!file.startsWith(rendererDir + sep)) throw new Error('outside');
      res.setHeader('content-type', 'text/javascript');
      res.end(readFileSync(file));
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  await buildAll();
  const sites = await Promise.all(
    trees.map(async (tree) => {
      const dir = join(tree, 'dist/renderer');
      const chunk = mainChunk(dir);
      const server = await serve(dir);
      return {
        tree,
        chunk,
        bytes: readFileSync(join(dir, chunk)).length,
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        scriptMs: [] as number[],
      };
    }),
  );
  const browser = await launchChromium();
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const site of sites) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        await page.goto(`${site.url}/blank.html`);
        const scriptSeconds = async () =>
          (await cdp.send('Performance.getMetrics')).metrics.find(
            (m) => m.name === 'ScriptDuration',
          )!.value;
        const before = await scriptSeconds();
        await page.evaluate(async (src) => {
          await import(src);
        }, `/${site.chunk}`);
        site.scriptMs.push(((await scriptSeconds()) - before) * 1000);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    for (const site of sites) site.server.close();
  }
  const figures = sites.map((s) => ({
    tree: s.tree,
    chunk: s.chunk,
    bytes: s.bytes,
    medianScriptMs: Math.round(median(s.scriptMs) * 10) / 10,
    runsMs: s.scriptMs.map((ms) => Math.round(ms * 10) / 10),
  }));
  for (const f of figures) {
    console.log(
      `${f.tree}: ${f.chunk} (${f.bytes} B): parse, compile and evaluation median ${f.medianScriptMs} ms; runs ${f.runsMs.join(', ')}`,
    );
  }
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  writeBenchFigures('startup-chunk', figures);
}

await main();
