// The vault keeps API keys in main only: a 0600 file in browser mode, safeStorage ciphertext in
// Electron (refusing Linux's weak basic_text backend unless the user agreed, and recording which
// backend was used). Accounts are added by password, API key or zuliprc after a server check.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileVault, SafeStorageVault, type SafeStorageLike } from '../../electron/accounts/vault';
import { parseZuliprc } from '../../electron/accounts/zuliprc';
import { MainServices } from '../../electron/services';
import { PushHub } from '../../electron/push-hub';
import { startTestServer, type TestServer } from '../support/server';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tributary-vault-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A stand-in for Electron's safeStorage: reversible but visibly not plain text. */
function fakeSafeStorage(backend: string): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString: (plain) => Buffer.from(`enc:${Buffer.from(plain).toString('hex')}`),
    decryptString: (data) => Buffer.from(data.toString().slice(4), 'hex').toString(),
    getSelectedStorageBackend: () => backend,
  };
}

describe('FileVault (browser mode)', () => {
  it('stores keys in a file only the user can read', () => {
    const vault = new FileVault(dataDir);
    expect(vault.put('a1', 'secret-key')).toBe('file-0600');
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(new FileVault(dataDir).get('a1')).toBe('secret-key');
    vault.delete('a1');
    expect(vault.get('a1')).toBeNull();
  });
});

describe('SafeStorageVault (Electron)', () => {
  it('keeps only ciphertext on disk and records the backend', () => {
    const vault = new SafeStorageVault(dataDir, fakeSafeStorage('gnome_libsecret'), 'linux');
    expect(vault.put('a1', 'secret-key')).toBe('safe-storage');
    const onDisk = readFileSync(join(dataDir, 'secrets.enc.json'), 'utf8');
    expect(onDisk).not.toContain('secret-key');
    expect(statSync(join(dataDir, 'secrets.enc.json')).mode & 0o777).toBe(0o600);
    expect(vault.get('a1')).toBe('secret-key');
    expect(vault.backendOf('a1')).toBe('safe-storage');
  });

  it("refuses Linux's basic_text backend unless the user agreed", () => {
    const vault = new SafeStorageVault(dataDir, fakeSafeStorage('basic_text'), 'linux');
    expect(() => vault.put('a1', 'k')).toThrow(/weak encryption/);
    expect(vault.get('a1')).toBeNull();
    expect(vault.put('a1', 'k', { allowWeak: true })).toBe('safe-storage-basic-text');
    expect(vault.backendOf('a1')).toBe('safe-storage-basic-text');
  });

  it('refuses to store anything when encryption is unavailable', () => {
    const vault = new SafeStorageVault(
      dataDir,
      { ...fakeSafeStorage('gnome_libsecret'), isEncryptionAvailable: () => false },
      'linux',
    );
    expect(() => vault.put('a1', 'k')).toThrow(/not available/);
  });
});

describe('zuliprc files', () => {
  it('reads email, key and site from the [api] section', () => {
    expect(
      parseZuliprc(
        '[other]\nkey=nope\n\n[api]\nemail = me@example.com\nkey=abc123\nsite=https://chat.example.com\n',
      ),
    ).toEqual({ email: 'me@example.com', apiKey: 'abc123', site: 'https://chat.example.com' });
  });
  it('names what is missing', () => {
    expect(() => parseZuliprc('[api]\nemail=me@example.com\n')).toThrow(/key, site/);
  });
});

describe('adding accounts against the local realm server', () => {
  let realm: TestServer;
  let services: MainServices;
  beforeAll(async () => {
    realm = await startTestServer({ heartbeatMs: 1_000 });
  });
  afterAll(async () => realm?.close());
  beforeEach(() => {
    services = new MainServices({
      dataDir,
      vault: new FileVault(dataDir),
      push: new PushHub().push,
      appInfo: { runtime: 'browser', version: 'test', platform: 'linux' },
      openExternal: () => undefined,
    });
  });
  afterEach(async () => services.stop());

  it('adds by email and password (fetch_api_key) and keeps the key out of accounts.json', async () => {
    const owner = realm.users.owner;
    const account = await services.handlers.addAccount({
      site: realm.url,
      auth: { kind: 'password', email: owner.email, password: owner.password! },
    });
    expect(account.realmName.length).toBeGreaterThan(0);
    expect(account.featureLevel).toBeGreaterThan(0);
    expect(account.secretBackend).toBe('file-0600');
    expect(JSON.stringify(account)).not.toContain(owner.api_key);
    expect(readFileSync(join(dataDir, 'accounts.json'), 'utf8')).not.toContain(owner.api_key);
  });

  it('refuses a wrong password with the server code and stores nothing', async () => {
    const error = await Promise.resolve(
      services.handlers.addAccount({
        site: realm.url,
        auth: { kind: 'password', email: realm.users.owner.email, password: 'wrong password' },
      }),
    ).catch((e: { code: string }) => e);
    expect((error as { code: string }).code).toMatch(/AUTHENTICATION_FAILED|UNAUTHORIZED/);
    expect((await services.handlers.listAccounts({})).accounts).toEqual([]);
  });

  it('imports a zuliprc file, and several accounts stay connected at once', async () => {
    const emma = realm.users.emma;
    await services.handlers.importZuliprc({
      text: `[api]\nemail=${emma.email}\nkey=${emma.api_key}\nsite=${realm.url}\n`,
    });
    await services.handlers.addAccount({
      site: `${realm.url}/api/v1`,
      auth: { kind: 'apiKey', email: realm.users.dev.email, apiKey: realm.users.dev.api_key },
    });
    const { accounts } = await services.handlers.listAccounts({});
    expect(accounts.map((a) => a.email).sort()).toEqual([emma.email, realm.users.dev.email].sort());
    for (const account of accounts) {
      await expect
        .poll(() => services.session(account.id).connection.status, { timeout: 10_000 })
        .toBe('live');
    }
    const removed = await services.handlers.removeAccount({ accountId: accounts[0].id });
    expect(removed.accounts).toHaveLength(1);
    expect(new FileVault(dataDir).get(accounts[0].id)).toBeNull();
  });

  it('adding an account again updates it in place: same id, one entry, still connected', async () => {
    const dev = realm.users.dev;
    const first = await services.handlers.addAccount({
      site: realm.url,
      auth: { kind: 'apiKey', email: dev.email, apiKey: dev.api_key },
    });
    const again = await services.handlers.addAccount({
      site: realm.url,
      auth: { kind: 'apiKey', email: dev.email.toUpperCase(), apiKey: dev.api_key },
    });
    expect(again.id).toBe(first.id);
    const { accounts } = await services.handlers.listAccounts({});
    expect(accounts.map((a) => a.id)).toEqual([first.id]);
    await expect
      .poll(() => services.session(first.id).connection.status, { timeout: 10_000 })
      .toBe('live');
  });

  it('refuses a server that does not answer /server_settings', async () => {
    const error = await Promise.resolve(
      services.handlers.checkServer({ site: 'http://127.0.0.1:9' }),
    ).catch((e: { code: string }) => e);
    expect((error as { code: string }).code).toBe('NETWORK_ERROR');
  });
});
