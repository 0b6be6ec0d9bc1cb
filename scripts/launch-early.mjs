// What `npm start` does before it loads its start bundle: reads its arguments and, when it will
// run in browser mode, binds the host's socket (electron/host/early-listener.mjs: the last launch's
// port and secret, by the launch record's rules), prints the URL and opens the browser. The
// browser then makes its tab (about half a second on a 2-core machine) while this process loads the
// bundle and builds the host, which takes the socket over and answers what the page asked
// meanwhile. Small and plain JavaScript on purpose: everything it loads is on the path to the URL.
// scripts/start.ts reads its arguments and finds Electron with the same functions.
// What it needs only on some paths (env-paths without --data, child_process to open the browser)
// it loads there.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchUrl, listenForLaunch } from '../electron/host/early-listener.mjs';

const START_OPTIONS = {
  browser: { type: 'boolean', default: false },
  'no-open': { type: 'boolean', default: false },
  port: { type: 'string', default: '0' },
  data: { type: 'string' },
  seed: { type: 'string', default: 'demo' },
  'large-scale': { type: 'string', default: '1' },
  help: { type: 'boolean', short: 'h' },
  open: { type: 'string', multiple: true },
};

/** The seeds a fresh local realm may be made with (server/config.ts's SEED_KINDS but 'empty'). */
const START_SEEDS = ['demo', 'large'];

/**
 * `npm start`'s arguments, checked; throws an Error that says what is wrong. `dataDir` is
 * undefined without `--data` (then defaultDataDir()).
 */
export function parseStartArgs(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: START_OPTIONS,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer between 0 and 65535, got ${values.port}`);
  }
  if (!START_SEEDS.includes(values.seed)) {
    throw new Error(`--seed must be demo or large, got ${values.seed}`);
  }
  const largeScale = Number(values['large-scale']);
  if (!(largeScale > 0 && largeScale <= 10)) {
    throw new Error(`--large-scale must be above 0 and at most 10, got ${values['large-scale']}`);
  }
  return {
    help: values.help ?? false,
    browser: values.browser,
    open: !values['no-open'],
    port,
    dataDir: values.data === undefined ? undefined : resolve(values.data),
    seed: values.seed,
    largeScale,
    openLinks: values.open ?? [],
    positionals,
  };
}

/** Where Tributary keeps its data when `--data` is not given (~/.local/share/tributary on Linux). */
export async function defaultDataDir() {
  const { default: envPaths } = await import('env-paths');
  return envPaths('tributary', { suffix: '' }).data;
}

/** The Electron binary, if installed; found by path (require('electron') would start a download). */
export function installedElectron(root) {
  const electronDir = join(root, 'node_modules', 'electron');
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** Marks a failed fetch of the Electron runtime: one attempt per day. */
export function electronFetchMarker(root) {
  return join(root, 'node_modules', '.cache', 'tributary', 'electron-fetch-failed');
}

/**
 * Why the Electron app cannot run without an attempt to fetch its runtime first, or null when it
 * is installed or an attempt is due.
 */
export function electronMissingReason(root) {
  if (installedElectron(root)) return null;
  if (!existsSync(join(root, 'node_modules', 'electron', 'install.js'))) {
    return 'the electron package is not installed';
  }
  const marker = electronFetchMarker(root);
  const stat = statSync(marker, { throwIfNoEntry: false });
  if (stat && Date.now() - stat.mtimeMs < 24 * 3600 * 1000) {
    return `the Electron runtime could not be downloaded earlier (delete ${marker} to retry)`;
  }
  return null;
}

export function openInBrowser(url) {
  const opener =
    process.platform === 'darwin'
      ? 'open'
      : ['/usr/bin/xdg-open', '/usr/local/bin/xdg-open', '/bin/xdg-open'].find(existsSync);
  if (!opener) {
    console.log('(no xdg-open here: open the URL above yourself)');
    return;
  }
  void import('node:child_process').then(({ spawn }) =>
    spawn(opener, [url], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref(),
  );
}

/**
 * Binds the browser-mode host's socket and prints its URL when this launch surely runs in
 * browser mode, with arguments that parse and a usable data folder; else null, and
 * scripts/start.ts does all of it as before (saying what is wrong, or starting Electron).
 */
export async function launchEarly(root, argv) {
  let options;
  try {
    options = parseStartArgs(argv);
  } catch {
    return null;
  }
  if (options.help || (!options.browser && electronMissingReason(root) === null)) return null;
  const dataDir = options.dataDir ?? (await defaultDataDir());
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch {
    return null;
  }
  let listener;
  try {
    listener = await listenForLaunch({
      port: options.port,
      dataDir,
      resumeLastLaunch: true,
    });
  } catch {
    // The port given is taken (or cannot be bound): the host tries again and says why.
    return null;
  }
  const url = launchUrl(listener);
  console.log(`Tributary is running at ${url}`);
  if (options.open) openInBrowser(url);
  return { ...listener, url };
}
