// How a launch waits for the local realm server's process (electron/local-realm.ts, settle): a
// returning launch whose port is still free starts its sessions while the server boots; a first
// launch does not wait (its status says preparingDemo until signed in); one whose port is taken
// waits and repoints the stored account first; a port taken
// while the server boots moves the running sessions afterwards. Against the real server process.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../electron/accounts/account-store';
import { MainServices } from '../../electron/services';
import { bareMainServices } from './support/harness';
import { LocalRealm } from '../../electron/local-realm';
import { buildAll } from '../../scripts/build';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function listen(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

describe('a launch and the local realm server process', () => {
  const dirs: string[] = [];
  const realms: LocalRealm[] = [];
  const blockers: Server[] = [];

  /** A realm seeded once, copied into each launch's folder (seeding is most of a first start). */
  let seeded: string;
  beforeAll(async () => {
    await buildAll();
    seeded = mkdtempSync(join(tmpdir(), 'tributary-settle-seed-'));
    dirs.push(seeded);
    const realm = new LocalRealm({ dataDir: seeded, root, seed: 'demo' });
    await realm.start();
    await realm.stop();
    rmSync(join(seeded, 'local-realm', 'port.json'), { force: true });
  }, 180_000);
  afterEach(async () => {
    for (const realm of realms.splice(0)) await realm.stop();
    for (const blocker of blockers.splice(0)) blocker.close();
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A data folder as a previous launch left it: the realm's port, and its account stored. */
  function returningLaunch(port: number | null): { dataDir: string; accounts: AccountStore } {
    const dataDir = mkdtempSync(join(tmpdir(), 'tributary-settle-'));
    dirs.push(dataDir);
    cpSync(join(seeded, 'local-realm'), join(dataDir, 'local-realm'), { recursive: true });
    const accounts = new AccountStore(dataDir);
    if (port !== null) {
      writeFileSync(join(dataDir, 'local-realm', 'port.json'), JSON.stringify({ port }));
      accounts.upsert({
        id: 'local',
        site: `http://127.0.0.1:${port}`,
        email: 'iago@example.com',
        userId: 1,
        realmName: 'Demo',
        featureLevel: 400,
        secretBackend: 'file-0600',
        addedAt: 0,
      });
    }
    return { dataDir, accounts };
  }

  function servicesOf(dataDir: string, realm: LocalRealm): MainServices {
    return bareMainServices(dataDir, { localRealm: realm });
  }

  function localRealm(dataDir: string): LocalRealm {
    const realm = new LocalRealm({ dataDir, root, seed: 'demo' });
    realms.push(realm);
    return realm;
  }

  it('lets a returning launch on a free port go on while the server boots', async () => {
    const port = await freePort();
    const { dataDir, accounts } = returningLaunch(port);
    const realm = localRealm(dataDir);
    const repointed: string[][] = [];
    await realm.settle(accounts, (from, to) => repointed.push([from, to]));
    // Settled before the server listens: the sessions would start now.
    expect(realm.status().state).toBe('starting');
    expect(await realm.start()).toEqual({ state: 'running', url: `http://127.0.0.1:${port}` });
    expect(repointed).toEqual([]);
    expect(accounts.list()[0]!.site).toBe(`http://127.0.0.1:${port}`);
  }, 60_000);

  it('does not wait on a first launch, and says the demo is being prepared until signed in', async () => {
    const { dataDir, accounts } = returningLaunch(null);
    const realm = localRealm(dataDir);
    const services = servicesOf(dataDir, realm);
    // Nothing to repoint: the window may open while the realm is still created.
    await realm.settle(accounts, () => undefined);
    expect(realm.status().state).toBe('starting');
    // What the page is told, and whether the account existed by then.
    const told: { preparing: boolean; state: string; accounts: number }[] = [];
    realm.subscribe((status) =>
      told.push({
        preparing: status.preparingDemo === true,
        state: status.state,
        accounts: services.accounts.list().length,
      }),
    );
    services.start();
    await realm.signInWhenRunning(services);
    expect(realm.status()).toEqual({ state: 'starting', preparingDemo: true });
    await realm.start();
    // Signed in by its subscription once the realm runs (a few requests: more than the poll's
    // default second on a loaded machine).
    await expect.poll(() => realm.status().preparingDemo, { timeout: 30_000 }).toBeUndefined();
    expect(services.accounts.list()[0]?.site).toBe(realm.url);
    expect(realm.status()).toEqual({ state: 'running', url: realm.url });
    // Preparing until the account exists: the page never sees a running realm, no account, and
    // no preparingDemo (which would show it the sign-in form).
    expect(told.filter((t) => !t.preparing && t.accounts === 0)).toEqual([]);
    expect(told.at(-1)).toEqual({ preparing: false, state: 'running', accounts: 1 });
    await services.stop();
  }, 60_000);

  it('waits when the port is taken, and repoints the stored account before any session', async () => {
    const port = await freePort();
    blockers.push(await listen(port));
    const { dataDir, accounts } = returningLaunch(port);
    const realm = localRealm(dataDir);
    const repointed: string[][] = [];
    await realm.settle(accounts, (from, to) => repointed.push([from, to]));
    const status = realm.status();
    expect(status.state).toBe('running');
    const url = status.state === 'running' ? status.url : '';
    expect(url).not.toBe(`http://127.0.0.1:${port}`);
    expect(accounts.list()[0]!.site).toBe(url);
    expect(repointed).toEqual([]);
  }, 60_000);

  it('moves the running sessions when the port is taken while the server boots', async () => {
    const port = await freePort();
    const { dataDir, accounts } = returningLaunch(port);
    const realm = localRealm(dataDir);
    const repointed: string[][] = [];
    await realm.settle(accounts, (from, to) => repointed.push([from, to]));
    // Another program takes the port before the server's process gets to listen on it.
    blockers.push(await listen(port));
    const status = await realm.start();
    expect(status.state).toBe('running');
    await expect.poll(() => repointed.length).toBe(1);
    expect(repointed[0]).toEqual([`http://127.0.0.1:${port}`, realm.url]);
  }, 60_000);

  it('does not sign the demo owner in again once removed, and signs in again when asked', async () => {
    const { dataDir } = returningLaunch(null);
    const mainServices = (realm: LocalRealm) => servicesOf(dataDir, realm);
    // A first launch: the demo owner is signed in once the server runs.
    const first = localRealm(dataDir);
    const one = mainServices(first);
    one.start();
    await first.start();
    await first.signInWhenRunning(one);
    const [demo] = one.accounts.list();
    expect(demo?.site).toBe(first.url);
    // The person removes it and quits.
    await one.removeAccount(demo!.id);
    await one.stop();
    await first.stop();

    // The next launch with no account stays on sign-in...
    const second = localRealm(dataDir);
    const two = mainServices(second);
    two.start();
    await second.start();
    await second.signInWhenRunning(two);
    expect(two.accounts.list()).toEqual([]);
    // ...where "Open the demo organization" signs in again, once, however often it is asked.
    const opened = await two.openDemoRealm();
    expect(opened.accounts).toHaveLength(1);
    expect(opened.accounts[0]!.site).toBe(second.url);
    expect(opened.activeAccountId).toBe(opened.accounts[0]!.id);
    expect((await two.openDemoRealm()).accounts).toHaveLength(1);
    await two.stop();
  }, 90_000);
});
