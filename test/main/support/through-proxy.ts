/**
 * The usual set-up of a main-process test file that injects network faults: the real local realm
 * server behind a fault proxy for the whole file, and (mainThroughProxy) main signed in through the
 * proxy, live, for each test. After each test the proxy's faults are lifted (rules retired,
 * connections accepted again) and that test's main is closed; after the file, the proxy and server.
 *
 *   let realm: TestServer;
 *   let proxy: FaultProxy;
 *   let main: MainHarness;
 *   mainThroughProxy('owner', (env) => ({ realm, proxy, main } = env));
 *
 * `ready` hands the file its members (and does the file's own per-test set-up): they are new for
 * each test, so a file keeps them in its own variables, which its tests read as before.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { PushPayload } from '../../../shared/ipc/contract';
import { startTestServer, type DemoUserKey, type TestServer } from '../../support/server';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { startMain, type MainHarness, type StartMainOptions } from './harness';

export interface ProxiedRealm {
  realm: TestServer;
  proxy: FaultProxy;
}

export interface ProxiedMain extends ProxiedRealm {
  main: MainHarness;
  /** The account's first snapshot, once its connection is live. */
  snapshot: PushPayload<'snapshot'>;
}

/** Heartbeats twice a second: tests see a dropped or restored connection soon. */
const SERVER_OPTIONS = { heartbeatMs: 500 };

/** The server and its fault proxy, for the file; `ready` receives them once both are up. */
export function realmThroughProxy(ready: (env: ProxiedRealm) => void): void {
  const env = {} as ProxiedRealm;
  beforeAll(async () => {
    env.realm = await startTestServer(SERVER_OPTIONS);
    env.proxy = await startFaultProxy(() => env.realm.url);
    ready(env);
  });
  afterEach(() => liftFaults(env.proxy));
  afterAll(async () => {
    await env.proxy?.close();
    await env.realm?.close();
  });
}

/**
 * realmThroughProxy, and for each test main signed in as `who` through the proxy and live (closed
 * after the test). `ready` runs before each test, after main is live.
 */
export function mainThroughProxy(
  who: DemoUserKey,
  ready: (env: ProxiedMain) => void | Promise<void>,
  options: Partial<StartMainOptions> = {},
): void {
  let shared: ProxiedRealm;
  let main: MainHarness | undefined;
  realmThroughProxy((env) => (shared = env));
  beforeEach(async () => {
    main = await startMain({ ...options, site: shared.proxy.url, user: shared.realm.users[who] });
    const snapshot = await main.live();
    await ready({ ...shared, main, snapshot });
  });
  afterEach(async () => {
    // Vitest runs after-hooks last registered first: faults are lifted here before main closes.
    await liftFaults(shared.proxy);
    await main?.close();
    main = undefined;
  });
}

/** Every rule retired and connections accepted again (the next test starts fault-free). */
export async function liftFaults(proxy: FaultProxy | undefined): Promise<void> {
  proxy?.clearRules();
  await proxy?.acceptConnections().catch(() => undefined);
}
