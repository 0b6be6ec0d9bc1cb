/**
 * Main-process services wired for tests: a MainServices on a temporary data folder with the file vault,
 * every push recorded, signed in to a real local realm server (optionally through a fault proxy).
 *
 *   const realm = await startTestServer({ heartbeatMs: 500 });
 *   const main = await startMain({ site: realm.url, user: realm.users.owner });
 *   await main.waitForPush('snapshot', (s) => s.accountId === main.accountId);
 *   await main.restart();   // a new MainServices on the same data folder (as after an app restart)
 *   await main.close();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PushName, PushPayload } from '../../../shared/ipc/contract';
import { FileVault } from '../../../electron/accounts/vault';
import { MainServices, type MainServicesOptions } from '../../../electron/services';
import { PushHub } from '../../../electron/push-hub';
import type { SeededUser } from '../../support/server';

export interface RecordedPush {
  channel: PushName;
  payload: unknown;
}

export interface MainHarness {
  services: MainServices;
  hub: PushHub;
  dataDir: string;
  accountId: string;
  pushes: RecordedPush[];
  pushesOf<K extends PushName>(channel: K): PushPayload<K>[];
  waitForPush<K extends PushName>(
    channel: K,
    match?: (payload: PushPayload<K>) => boolean,
    timeoutMs?: number,
  ): Promise<PushPayload<K>>;
  /** Waits for the account's first snapshot and for its connection to be live; the snapshot. */
  live(): Promise<PushPayload<'snapshot'>>;
  /** A new MainServices on the same data folder; `overrides` change its options for this run. */
  restart(overrides?: Partial<MainServicesOptions>): Promise<void>;
  close(): Promise<void>;
}

export interface StartMainOptions extends Partial<MainServicesOptions> {
  site: string;
  user: SeededUser;
  dataDir?: string;
}

/**
 * A bare MainServices on `dataDir` with the file vault and pushes dropped (`options` add to it or
 * replace them): for tests that drive its methods themselves, without startMain's sign-in.
 */
export function bareMainServices(
  dataDir: string,
  options: Partial<MainServicesOptions> = {},
): MainServices {
  return new MainServices({
    dataDir,
    vault: new FileVault(dataDir),
    push: new PushHub().push,
    appInfo: { runtime: 'browser', version: 'test', platform: 'linux' },
    openExternal: () => undefined,
    ...options,
  });
}

/**
 * A fetch for main under which the people's own register (a first sign-in's second one,
 * fetch_event_types ["realm_user"]) never answers: the people are always on their way.
 */
export const peopleNeverCome: typeof fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? init.body : String(init?.body ?? '');
  if (
    String(input).endsWith('/register') &&
    body.includes('fetch_event_types=%5B%22realm_user%22%5D')
  )
    return new Promise<Response>(() => undefined);
  return fetch(input, init);
};

export async function startMain(options: StartMainOptions): Promise<MainHarness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tributary-main-'));
  const pushes: RecordedPush[] = [];
  const waiters = new Set<() => void>();
  const hub = new PushHub();
  hub.subscribe((channel, payload) => {
    pushes.push({ channel, payload });
    for (const wake of [...waiters]) wake();
  });
  const make = (overrides: Partial<MainServicesOptions> = {}) =>
    new MainServices({
      appInfo: { runtime: 'browser', version: 'test', platform: process.platform },
      openExternal: () => undefined,
      pollTimeoutMs: 5_000,
      // No page here to show a cached snapshot: a restart registers at once unless a test says.
      cachedRegisterWaitMs: 0,
      // Nor to paint a first sign-in's snapshot: its people are asked for at once.
      peopleWaitMs: 0,
      ...options,
      ...overrides,
      dataDir,
      vault: new FileVault(dataDir),
      push: hub.push,
    });

  const harness: MainHarness = {
    services: make(),
    hub,
    dataDir,
    accountId: '',
    pushes,
    pushesOf: <K extends PushName>(channel: K) =>
      pushes.filter((p) => p.channel === channel).map((p) => p.payload as PushPayload<K>),
    waitForPush: <K extends PushName>(
      channel: K,
      match: (payload: PushPayload<K>) => boolean = () => true,
      timeoutMs = 15_000,
    ) =>
      new Promise<PushPayload<K>>((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < pushes.length; seen += 1) {
            const push = pushes[seen];
            if (push.channel === channel && match(push.payload as PushPayload<K>)) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(push.payload as PushPayload<K>);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${channel} push matched within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    async live() {
      const snapshot = await harness.waitForPush('snapshot');
      // A first sign-in's people follow it; the cache keeps the snapshot once they are in.
      if (snapshot.peoplePending) {
        await harness.waitForPush('people', (p) => p.accountId === snapshot.accountId);
      }
      const session = harness.services.session(harness.accountId);
      await eventually(() => (session.isOnline() ? true : undefined));
      return snapshot;
    },
    async restart(overrides) {
      await harness.services.stop();
      harness.services = make(overrides);
      harness.services.start();
    },
    async close() {
      await harness.services.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const account = await harness.services.addAccount({
    site: options.site,
    email: options.user.email,
    apiKey: options.user.api_key,
  });
  harness.accountId = account.id;
  return harness;
}

/** Polls until `check` returns a value other than undefined (no timing assertions: only a cap). */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
