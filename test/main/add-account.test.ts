// Adding an account with a key (electron/services.ts addAccount): the server's check and the key's
// proof go together, and what is stored is the same as before: the realm's name and feature level
// from the server's settings, the user's id from /users/me. A refused key stores nothing; a site
// that is no Zulip server is said as such even though the key's request fails too. Real files in
// a temp folder and the real local realm server. The local server said running again (a first
// launch's sign-in done) does not send the new account's register a second time. The local realm's
// own owner (electron/bootstrap.ts) is added without asking its server first: the register says the
// realm's name and feature level, which are then stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MainServices, type MainServicesOptions } from '../../electron/services';
import { bareMainServices } from './support/harness';
import type { LocalRealmControl } from '../../electron/local-realm';
import type { LocalRealmStatus } from '../../shared/ipc/system';
import { startTestServer, type TestServer } from '../support/server';
import { signInToLocalRealm } from '../../electron/bootstrap';
import { credentialsPath } from '../../server/seed/credentials';

let realm: TestServer;
let notZulip: Server;
let notZulipUrl: string;
let dataDir: string;
let services: MainServices;

beforeAll(async () => {
  realm = await startTestServer();
  // Any web server that is not a chat server: an HTML page for every path.
  notZulip = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
  });
  await new Promise<void>((resolve) => notZulip.listen(0, '127.0.0.1', resolve));
  notZulipUrl = `http://127.0.0.1:${(notZulip.address() as { port: number }).port}`;
});
afterAll(async () => {
  notZulip?.close();
  await realm?.close();
});
/** Main's services on this test's data folder, with `options` of its own. */
function mainServices(options: Partial<MainServicesOptions> = {}): MainServices {
  return bareMainServices(dataDir, options);
}

/** The demo owner added with its API key, as a first launch adds it. */
function addOwner() {
  const owner = realm.users.owner;
  return services.addAccount({
    site: realm.url,
    email: owner.email,
    apiKey: owner.api_key,
    allowWeakEncryption: true,
  });
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tributary-add-account-'));
  services = mainServices();
});
afterEach(async () => {
  await services.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('adding an account with its API key', () => {
  it("stores the realm's name and feature level and the user's id, and starts its session", async () => {
    const owner = realm.users.owner;
    const added = await addOwner();
    const settings = await realm.anonymous().get('/server_settings');
    expect(added).toMatchObject({
      site: realm.url,
      email: owner.email,
      userId: owner.user_id,
      realmName: settings.body.realm_name,
      featureLevel: settings.body.zulip_feature_level,
    });
    await expect
      .poll(() => services.session(added.id).connection.status, { timeout: 10_000 })
      .toBe('live');
  });

  it('stores nothing for a key the server refuses', async () => {
    await expect(
      services.addAccount({
        site: realm.url,
        email: realm.users.owner.email,
        apiKey: 'A'.repeat(32),
        allowWeakEncryption: true,
      }),
    ).rejects.toMatchObject({ status: 401 });
    expect(services.accounts.list()).toEqual([]);
  });

  it('says a site is no chat server, not that the key was refused, when both requests fail', async () => {
    const notServer = await services
      .checkServer(notZulipUrl)
      .then(() => null)
      .catch((error: unknown) => error);
    expect(notServer).not.toBeNull();
    const added = await services
      .addAccount({
        site: notZulipUrl,
        email: 'someone@example.com',
        apiKey: 'A'.repeat(32),
        allowWeakEncryption: true,
      })
      .then(() => null)
      .catch((error: unknown) => error);
    expect(added).toEqual(notServer);
    expect(services.accounts.list()).toEqual([]);
  });
});

describe("a first launch's sign-in to the local realm", () => {
  it("sends the new session's register once, though the realm is said to run again meanwhile", async () => {
    await services.stop();
    // The launcher's LocalRealm as main sees it: running, then told again when the sign-in is
    // done (preparingDemo cleared), while the new session's register is on its way.
    const listeners = new Set<(status: LocalRealmStatus) => void>();
    let status: LocalRealmStatus = { state: 'running', url: realm.url, preparingDemo: true };
    const localRealm = {
      status: () => status,
      subscribe: (listener: (status: LocalRealmStatus) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      isLocalSite: (site: string) => site === realm.url,
    } as unknown as LocalRealmControl;
    let registers = 0;
    services = mainServices({
      localRealm,
      clientOptions: {
        fetch: (url, init) => {
          if (String(url).endsWith('/register') && ++registers === 1) {
            status = { state: 'running', url: realm.url };
            for (const listener of listeners) listener(status);
          }
          return fetch(url, init);
        },
      },
    });
    services.start();
    const queuesBefore = realm.server.events.queueCount;
    const added = await addOwner();
    await expect
      .poll(() => services.session(added.id).connection.status, { timeout: 10_000 })
      .toBe('live');
    expect(registers).toBe(1);
    expect(realm.server.events.queueCount).toBe(queuesBefore + 1);
  });
});

describe("a first launch's sign-in to the app's own realm server", () => {
  it('waits for nothing before the register, and stores what the register says of the realm', async () => {
    await services.stop();
    // What main sent and what came back, in order: a sign-in may ask beside the register (its own
    // user, when it registers without the people) but never waits for an answer before sending it.
    const traffic: string[] = [];
    services = mainServices({
      clientOptions: {
        fetch: async (url, init) => {
          const path = new URL(String(url)).pathname;
          traffic.push(`sent ${path}`);
          const response = await fetch(url, init);
          traffic.push(`answered ${path}`);
          return response;
        },
      },
    });
    services.start();
    const id = await signInToLocalRealm(services, realm.url, credentialsPath(realm.dataDir));
    expect(id).not.toBeNull();
    await expect
      .poll(() => services.session(id!).connection.status, { timeout: 10_000 })
      .toBe('live');
    const registerSent = traffic.indexOf('sent /api/v1/register');
    const firstAnswer = traffic.findIndex((entry) => entry.startsWith('answered '));
    expect(registerSent).toBeGreaterThanOrEqual(0);
    expect(registerSent).toBeLessThan(firstAnswer);
    expect(traffic).not.toContain('sent /api/v1/server_settings');
    const settings = await realm.anonymous().get('/server_settings');
    expect(services.listAccounts().accounts).toEqual([
      expect.objectContaining({
        id,
        site: realm.url,
        email: realm.users.owner.email,
        userId: realm.users.owner.user_id,
        realmName: settings.body.realm_name,
        featureLevel: settings.body.zulip_feature_level,
      }),
    ]);
  });
});
