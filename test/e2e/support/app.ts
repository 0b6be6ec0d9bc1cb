/**
 * End-to-end harness: the real local realm server (SQLite in a temp folder) and the real browser-mode
 * host (main-process services + the built renderer + the WebSocket bridge), driven by Debian's
 * Chromium through playwright-core. This is what `npm start -- --browser --no-open --port 0 --data
 * DIR` runs, started in-process so a test can restart the realm server or the app on its own.
 *
 *   const realm = await startRealm();
 *   const app = await startApp(realm, 'owner');        // a host signed in as the demo owner
 *   const browser = await launchChromium();
 *   const page = await openApp(browser, app);          // new context, waits for the app shell
 *   await app.restart(); await realm.restart();        // same data folder, same realm port
 *
 * Most files take all of it from `appSession()`, which also relaunches the app with a new page.
 * Tests that crash the app or the server (SIGKILL) run them as processes of their own instead:
 * startRealmProcess() and startAppProcess(), each with kill() and start().
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  LaunchOptions,
  Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createRealmServer, type RealmServer } from '../../../server/app';
import { credentialsPath } from '../../../server/seed/credentials';
import { startBrowserHost, type BrowserHost } from '../../../electron/host/host';
import { FileVault } from '../../../electron/accounts/vault';
import { buildAll } from '../../../scripts/build';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  launchChromium as launchOwnChromium,
} from '../../support/chromium';
import { bundledEntry } from '../../support/bundled-entry';
import { ApiClient } from '../../support/client';
import { copySeededRealm } from '../../support/realm-template';
import {
  crash,
  spawnNode,
  startBrowserMode,
  stopBrowserMode,
} from '../../main/support/browser-start';

export { CHROMIUM, CHROMIUM_ARGS };

/** The worker's Chromium, launched by the first file that asks and shared by the next ones. */
let sharedBrowser: Promise<Browser> | null = null;

/**
 * The shared browser as one file sees it: its contexts are the file's own (cookies, storage,
 * permissions, viewport), and `close()` closes them and leaves Chromium to the next file.
 */
function borrowedBrowser(browser: Browser): Browser {
  const contexts = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext')
        return async (options?: BrowserContextOptions) => track(await target.newContext(options));
      if (property === 'newPage')
        return async (options?: BrowserContextOptions) => {
          const context = track(await target.newContext(options));
          return context.newPage();
        };
      if (property === 'contexts') return () => [...contexts];
      if (property === 'close')
        return async () => {
          await Promise.all([...contexts].map((context) => context.close().catch(() => {})));
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/**
 * Debian's Chromium for a test file. The e2e files of a worker run one after another in one module
 * registry (vitest.config.ts), so they share one Chromium: a launch and its shutdown were about 2 s
 * of CPU per file. A file that asks for flags or launch options gets a browser of its own.
 */
export async function launchChromium(
  extraArgs: string[] = [],
  options: LaunchOptions = {},
): Promise<Browser> {
  // Outside Vitest (scripts/screenshots.ts) the caller's close() ends Chromium, as it says.
  if (!process.env.VITEST || extraArgs.length > 0 || Object.keys(options).length > 0)
    return launchOwnChromium(extraArgs, options);
  sharedBrowser ??= launchOwnChromium();
  let browser = await sharedBrowser;
  if (!browser.isConnected()) {
    // Chromium went away (a crash): the next file starts another.
    sharedBrowser = launchOwnChromium();
    browser = await sharedBrowser;
  }
  return borrowedBrowser(browser);
}

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface DemoCredential {
  user_id: number;
  email: string;
  full_name: string;
  api_key: string;
  /** For sign-in with email and password (demo users: `<key>-password`). */
  password: string | null;
  role: number;
  is_bot: boolean;
}

export interface Realm {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  server: RealmServer;
  user(key: string): DemoCredential;
  /** Stop and start again on the same data folder and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** A new folder holding a copy of the run's seeded demo realm, which the server opens without seeding. */
async function seededRealmFolder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-e2e-realm-'));
  await copySeededRealm(dir, 'demo');
  return dir;
}

export async function startRealm(): Promise<Realm> {
  const dir = await seededRealmFolder();
  // Without the demo people's made-up presence: tests watch people report it themselves.
  const options = { dataDir: dir, seed: 'demo' as const, port: 0, demoPresence: false };
  let server = await createRealmServer(options);
  const port = server.port;
  let running = true;
  const realm: Realm = {
    url: server.url,
    port,
    dir,
    get server() {
      return server;
    },
    user: demoUsers(dir),
    async stop() {
      if (running) await server.close();
      running = false;
    },
    async restart() {
      await realm.stop();
      server = await createRealmServer({ ...options, port });
      running = true;
    },
    async close() {
      await realm.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return realm;
}

/** The demo people of the realm seeded in `dir`, by key (`owner`) or email's local part. */
function demoUsers(dir: string): (key: string) => DemoCredential {
  const credentials = JSON.parse(readFileSync(credentialsPath(dir), 'utf8')) as {
    users: Array<DemoCredential & { key?: string }>;
  };
  return (key) => {
    const found =
      credentials.users.find((u) => u.key === key) ??
      credentials.users.find((u) => u.email.startsWith(`${key}@`));
    if (!found) throw new Error(`no demo user ${key}`);
    return found;
  };
}

/**
 * The realm server in a process of its own (`npm run server`), for tests that crash it: kill() is a
 * SIGKILL, which leaves its SQLite file as a real crash does, and start() opens that file again. Each
 * start listens on a new port: clients reach it through a proxy (test/main/support/fault-proxy.ts).
 */
export interface RealmProcess extends SignInServer {
  readonly dir: string;
  user(key: string): DemoCredential;
  /** SIGKILL (its process group). */
  kill(): Promise<void>;
  /** Starts it again on the same data folder. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRealmProcess(): Promise<RealmProcess> {
  const dir = await seededRealmFolder();
  let child: ChildProcess | null = null;
  let url = '';
  const realm: RealmProcess = {
    dir,
    get url() {
      return url;
    },
    user: demoUsers(dir),
    async kill() {
      if (child) await crash(child);
      child = null;
    },
    async start() {
      await realm.kill();
      // From a bundle: a start through tsx compiled the server anew, 1.5–2 s of CPU each time.
      const started = await spawnNode(
        [bundledEntry('server/cli.ts'), '--data', dir, '--port', '0', '--seed', 'demo'],
        /^listening on (\S+)$/,
        { detached: true },
      );
      child = started.child;
      url = started.found[1]!;
    },
    async close() {
      await realm.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await realm.start();
  return realm;
}

/** An API client over HTTP signed in as a demo user: the "second client" beside the page. */
export function realmClient(realm: SignInServer, who: string): ApiClient {
  const user = realm.user(who);
  return new ApiClient(() => realm.url, { email: user.email, apiKey: user.api_key });
}

export interface App {
  readonly host: BrowserHost;
  readonly dataDir: string;
  readonly url: string;
  readonly accountId: string;
  restart(): Promise<void>;
  /** The host process gone (as after a crash): pages lose their bridge. */
  stopHost(): Promise<void>;
  /** A new host on the same data folder (a new launch). */
  startHost(): Promise<void>;
  close(): Promise<void>;
}

export interface StartAppOptions {
  /** Launch as `npm start` does: a new launch reuses the last one's port and bridge secret. */
  resumeLastLaunch?: boolean;
}

let built: Promise<void> | null = null;
/** Builds the renderer once per run (a no-op when dist/ is newer than the sources). */
export function ensureBuilt(): Promise<void> {
  built ??= buildAll();
  return built;
}

/** What startApp needs of a server: its URL and a user's sign-in (a Realm, or a replay server). */
export interface SignInServer {
  readonly url: string;
  user(key: string): { email: string; api_key: string };
}

export async function startApp(
  realm: SignInServer,
  userKey: string,
  options: StartAppOptions = {},
): Promise<App> {
  await ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-e2e-app-'));
  const hostOptions = () => ({
    dataDir,
    vault: new FileVault(dataDir),
    rendererDir: join(root, 'dist/renderer'),
    port: 0,
    resumeLastLaunch: options.resumeLastLaunch ?? false,
  });
  let host = await startBrowserHost(hostOptions());
  const user = realm.user(userKey);
  const account = await host.services.addAccount({
    site: realm.url,
    email: user.email,
    apiKey: user.api_key,
    allowWeakEncryption: true,
  });
  return {
    get host() {
      return host;
    },
    dataDir,
    get url() {
      return host.url;
    },
    accountId: account.id,
    async restart() {
      await host.close();
      host = await startBrowserHost(hostOptions());
    },
    async stopHost() {
      await host.close();
    },
    async startHost() {
      host = await startBrowserHost(hostOptions());
    },
    async close() {
      await host.close().catch(() => undefined);
      if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the app in a fresh browser context and waits until the message list shows messages. */
/** `options`: the browser context's (time zone, locale, colour scheme, permissions…). */
export async function openApp(
  browser: Browser,
  app: Pick<App, 'url'>,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  // The demo realm's welcome panel is dismissed, as a returning person has it (layout.test.ts
  // drives the first run itself).
  await context.addInitScript("localStorage.setItem('tributary.welcomeDismissed', 'true')");
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(app.url);
  await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
  return page;
}

/**
 * The app as `npm start -- --browser` runs it, in a process of its own (which holds main: the
 * sessions, the outbox and the action queue), for tests that crash it: kill() is a SIGKILL of it
 * and of anything it started, start() launches it again on the same data folder, where pages left
 * open reconnect (the launch reuses the last one's port and secret).
 */
export interface AppProcess {
  readonly dataDir: string;
  readonly accountId: string;
  /** The running launch's URL (with its secret). */
  readonly url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Signs `userKey` in on `server` (as startApp does), then runs the app in its own process. */
export async function startAppProcess(server: SignInServer, userKey: string): Promise<AppProcess> {
  const signedIn = await startApp(server, userKey);
  await signedIn.stopHost();
  let child: ChildProcess | null = null;
  let url = '';
  const app: AppProcess = {
    dataDir: signedIn.dataDir,
    accountId: signedIn.accountId,
    get url() {
      return url;
    },
    async kill() {
      if (child) await crash(child);
      child = null;
    },
    async start() {
      await app.kill();
      const started = await startBrowserMode(signedIn.dataDir, [], {
        detached: true,
        launcher: true,
      });
      child = started.child;
      url = started.appUrl.href;
    },
    async close() {
      await stopBrowserMode(child ?? undefined);
      await signedIn.close();
    },
  };
  await app.start();
  return app;
}

export interface AppSession {
  realm: Realm;
  app: App;
  browser: Browser;
  /** The page opened last (by the set-up, openPage or relaunchApp). */
  page: Page;
  /** Opens the app in a new page (a new browser context), closing the session's last one. */
  openPage(): Promise<Page>;
  /** Closes the session's page and its browser context (as a person closes the window). */
  closePage(): Promise<void>;
  /**
   * The person closes the window and quits the app, then starts it again: the page closes, the
   * app's process ends (its sessions write what they keep), `meanwhile` runs while it is closed
   * (the server goes down, someone deletes a message…), a new process starts on the same data
   * folder and a new page opens on it.
   */
  relaunchApp(meanwhile?: () => Promise<void>): Promise<Page>;
}

export interface AppSessionOptions extends StartAppOptions {
  /** Open a page in the set-up (the default); without, the file's tests open theirs with openPage. */
  openPage?: boolean;
  /** The browser context of every page the session opens (time zone, locale, permissions…). */
  pageOptions?: BrowserContextOptions;
}

/**
 * The usual set-up of a test file: a realm, an app signed in as `userKey` and one page, started
 * before the file's tests and closed after them. Read its members inside tests. `options` go to
 * startApp, and say how pages are opened. The realm stops and comes back on its port with
 * `realm.stop()` and `realm.restart()`; the app restarts with `relaunchApp()`.
 */
export function appSession(userKey = 'owner', options: AppSessionOptions = {}): AppSession {
  const { openPage: openAtStart = true, pageOptions = {}, ...appOptions } = options;
  const session: AppSession = {
    async openPage() {
      await session.closePage();
      session.page = await openApp(session.browser, session.app, pageOptions);
      return session.page;
    },
    async closePage() {
      // The context too: a test may have closed the page alone, and its cookies and storage go.
      await session.page?.context().close();
    },
    async relaunchApp(meanwhile) {
      await session.closePage();
      await session.app.stopHost();
      await meanwhile?.();
      await session.app.startHost();
      return session.openPage();
    },
  } as AppSession;
  beforeAll(async () => {
    session.realm = await startRealm();
    session.app = await startApp(session.realm, userKey, appOptions);
    session.browser = await launchChromium();
    if (openAtStart) await session.openPage();
  }, 180_000);
  afterAll(async () => {
    await session.browser?.close();
    await session.app?.close();
    await session.realm?.close();
  });
  return session;
}

/** Uncaught page errors, for tests that assert none happened. */
export const pageErrors: string[] = [];
