// npm start [-- [--browser] [--no-open] [--port N] [--data DIR] [--open LINK] [--seed demo|large]
//   [--large-scale F] [path/to/manifest.json]]
//
// Builds what is stale, then runs Tributary: the Electron app where its runtime is present (after one
// quick attempt to fetch it), otherwise browser mode (a local host process serving the renderer and
// the WebSocket bridge on 127.0.0.1), saying why. With no account configured it starts the local realm
// server with the demo seed (data in DIR/local-realm/) and signs in as the demo owner. The server
// runs in its own process (electron/local-realm.ts): in browser mode this process supervises it;
// the desktop app's main process supervises its own.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build';
import {
  defaultDataDir,
  electronFetchMarker,
  electronMissingReason,
  installedElectron,
  openInBrowser,
  parseStartArgs,
  type EarlyLaunch,
} from './launch-early.mjs';
import { startBrowserHost, type BrowserHost } from '../electron/host/host';
import { FileVault } from '../electron/accounts/vault';
import { AccountStore } from '../electron/accounts/account-store';
import { LocalRealm } from '../electron/local-realm';
import { earlyRealmPlan } from '../server/process/fork-realm.mjs';
import { isDeepLinkUrl } from '../shared/narrow/deep-link';
import { SEED_KINDS, type SeedKind } from '../server/config';

const root = fileURLToPath(new URL('..', import.meta.url));
const ELECTRON_FETCH_TIMEOUT_MS = 15_000;

interface StartOptions {
  browser: boolean;
  open: boolean;
  port: number;
  dataDir: string;
  manifests: string[];
  /** tributary:// or zulip:// links to open (`--open LINK`, or given bare). */
  links: string[];
  /** How a fresh local realm is seeded (an existing one is kept as it is). */
  seed: SeedKind;
  largeScale: number;
}

async function parseOptions(argv: string[]): Promise<StartOptions> {
  const args = parseStartArgs(argv);
  if (args.help) {
    console.log(
      'usage: npm start -- [--browser] [--no-open] [--port N] [--data DIR] [--open tributary://…]\n' +
        '                    [--seed demo|large] [--large-scale F] [manifest.json]',
    );
    process.exit(0);
  }
  const seed = SEED_KINDS.find((kind) => kind === args.seed)!;
  return {
    seed,
    largeScale: args.largeScale,
    browser: args.browser,
    open: args.open,
    port: args.port,
    dataDir: args.dataDir ?? (await defaultDataDir()),
    manifests: args.positionals.filter((arg) => !isDeepLinkUrl(arg)).map((path) => resolve(path)),
    links: [...args.openLinks, ...args.positionals.filter(isDeepLinkUrl)],
  };
}

/**
 * The Electron binary, if it is installed (or could be fetched quickly); else why not. Found by path:
 * require('electron') would itself start an unbounded download.
 */
function findElectron(): { path: string } | { reason: string } {
  const installed = installedElectron(root);
  if (installed) return { path: installed };
  const missing = electronMissingReason(root);
  if (missing) return { reason: missing };
  // One attempt per day: a network that drops packets would otherwise cost the timeout every start.
  console.log('The Electron runtime is not downloaded; trying once to fetch it...');
  const attempt = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron', 'install.js')],
    { stdio: 'ignore', timeout: ELECTRON_FETCH_TIMEOUT_MS },
  );
  const fetched = installedElectron(root);
  if (fetched) return { path: fetched };
  const marker = electronFetchMarker(root);
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, new Date().toISOString());
  return {
    reason: attempt.error
      ? `fetching the Electron runtime failed (${attempt.error.message})`
      : 'the Electron runtime could not be downloaded here',
  };
}

/**
 * The socket scripts/launch.mjs bound, with the URL it printed, before it loaded this bundle
 * (launch-early.mjs); null when it did not (run by tsx, or not surely browser mode).
 */
const early =
  (globalThis as { tributaryEarlyLaunch?: EarlyLaunch | null }).tributaryEarlyLaunch ?? null;

async function main(): Promise<void> {
  const options = await parseOptions(process.argv.slice(2));
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  try {
    await buildAll();
  } catch (error) {
    // A half-edited source should not stop a developer from running what last built.
    if (!existsSync(join(root, 'dist/renderer/index.html'))) throw error;
    console.warn(
      `Build failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); running the previous build.`,
    );
  }

  const noAccount = new AccountStore(options.dataDir).list().length === 0;
  const needsLocalRealm =
    noAccount || existsSync(join(options.dataDir, 'local-realm', 'realm.sqlite3'));

  const electron = options.browser ? { reason: '--browser was given' } : findElectron();
  if ('path' in electron) {
    await early?.close();
    const args = [join(root, 'dist/electron/main.cjs'), '--data', options.dataDir];
    if (needsLocalRealm) {
      // Main forks the server with this Node: better-sqlite3 is built for it, not for Electron's.
      args.push('--local-realm-seed', options.seed, '--local-realm-scale', `${options.largeScale}`);
      args.push('--node', process.execPath);
    }
    args.push(...options.manifests);
    for (const link of options.links) args.push('--open', link);
    console.log('Tributary is running (Electron desktop app)');
    const child = spawn(electron.path, args, { stdio: 'inherit' });
    launched();
    child.on('exit', (code) => process.exit(code ?? 0));
    // Ctrl+C reaches the whole process group; Electron quits on its own and its exit ends this.
    process.on('SIGINT', () => undefined);
    process.on('SIGTERM', () => child.kill('SIGTERM'));
    return;
  }

  // A first launch signs in from the build's seed just after the host takes the socket over; a
  // page that asks for its first screen sooner is answered once it has (the build's screens).
  let signedInFromPlan = () => {};
  const firstScreenAfter = noAccount
    ? new Promise<void>((resolve) => (signedInFromPlan = resolve))
    : undefined;
  // Forked first: the server's process starts while this one brings up the host.
  const realm = needsLocalRealm
    ? new LocalRealm({
        dataDir: options.dataDir,
        root,
        seed: options.seed,
        largeScale: options.largeScale,
        // A first launch's realm forked by the launcher: main signs in without waiting for it.
        firstRealm: earlyRealmPlan() ?? undefined,
      })
    : null;
  // Said on the terminal too: where it listens (and as which process), and each outage.
  realm?.subscribe((status) => {
    if (status.state === 'running') {
      console.log(`local realm server listening on ${status.url} (process ${realm.pid})`);
    } else if (status.state === 'restarting') {
      console.error(`The local realm server ${status.reason}; restarting it.`);
    } else if (status.state === 'failed') {
      // The window says so too, with a Retry; remote accounts open regardless.
      console.error(`The local realm server is not running: ${status.reason}.`);
    }
  });
  void realm?.start();
  let host: BrowserHost | null = null;
  const shutdown = async (code: number) => {
    await host?.close().catch(() => undefined);
    await realm?.stop().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  console.log(`Running in browser mode: ${electron.reason}.`);
  host = await startBrowserHost({
    dataDir: options.dataDir,
    vault: new FileVault(options.dataDir),
    rendererDir: join(root, 'dist/renderer'),
    port: options.port,
    listening: early ?? undefined,
    // Pages left open by a crashed or restarted launch reconnect (electron/host/launch-record.ts).
    resumeLastLaunch: true,
    version: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
      .version,
    openExternal: (url) => openInBrowser(url),
    localRealm: realm ?? undefined,
    startSessionsAfterUrl: true,
    firstScreenAfter,
    beforeServicesStart: async (services) =>
      realm?.settle(
        services.accounts,
        (from, to) =>
          void services
            .repointSite(from, to)
            .catch((error: unknown) =>
              console.error('Tributary: repointing the local account failed', error),
            ),
      ),
  });
  // With no account yet there is no session to start: nothing to wait for a page (a sign-in
  // below starts its own).
  if (host.services.accounts.list().length === 0) host.startSessions();
  if (realm) {
    // A first launch signs in at once when the launcher planned its realm (its port and owner key),
    // else once the server runs, while the window already opens: the realm's status says
    // preparingDemo until then, and the page waits instead of offering sign-in. A returning
    // launch does not wait for the server at all.
    if (host.services.accounts.list().length === 0) {
      // Said on the terminal once the window has the account (scripts and tests wait for it).
      const unsubscribe = realm.subscribe((status) => {
        if (status.preparingDemo || host.services.accounts.list().length === 0) return;
        unsubscribe();
        console.log('Signed in to the demo organization as its owner');
      });
    }
    void realm.signInWhenRunning(host.services);
  }
  // Signed in from the plan by now, if at all (signInWhenRunning adds that account at once).
  signedInFromPlan();
  for (const path of options.manifests) host.services.requestOpenManifest(path);
  for (const link of options.links) {
    if (!host.services.shell.requestOpenLink(link)) console.warn(`Not a Tributary link: ${link}`);
  }
  if (!early) {
    console.log(`Tributary is running at ${host.url}`);
    if (options.open) openInBrowser(host.url);
  }
  launched();
}

/** Tells scripts/launch-code-cache.mjs the launch is up (it may keep the compiled bundle now). */
function launched(): void {
  (globalThis as { tributaryAfterStart?: () => void }).tributaryAfterStart?.();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
