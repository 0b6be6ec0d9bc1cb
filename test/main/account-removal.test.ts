// Removing an account (electron/services.ts removeAccount): its key and its cache's key leave the
// vault, its folder (outbox, drafts, cache) leaves the disk and its entry leaves accounts.json, while
// another account's files, session and live events go on untouched. Real files in a temp folder and
// the real local realm server.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileVault } from '../../electron/accounts/vault';
import { AccountStore } from '../../electron/accounts/account-store';
import { accountFolder } from '../../electron/accounts/account-files';
import { MainServices } from '../../electron/services';
import { PushHub } from '../../electron/push-hub';
import type { EventBatch } from '../../shared/ipc/accounts';
import { startTestServer, type DemoUserKey, type TestServer } from '../support/server';

let realm: TestServer;
let dataDir: string;
let services: MainServices;
let hub: PushHub;

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 1_000 });
});
afterAll(async () => realm?.close());
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tributary-removal-'));
  hub = new PushHub();
  services = new MainServices({
    dataDir,
    vault: new FileVault(dataDir),
    push: hub.push,
    appInfo: { runtime: 'browser', version: 'test', platform: 'linux' },
    openExternal: () => undefined,
  });
});
afterEach(async () => {
  await services.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(who: DemoUserKey) {
  const user = realm.users[who];
  const account = await services.handlers.addAccount({
    site: realm.url,
    auth: { kind: 'apiKey', email: user.email, apiKey: user.api_key },
  });
  await expect
    .poll(() => services.session(account.id).connection.status, { timeout: 10_000 })
    .toBe('live');
  return account;
}

/** Every file the account keeps: the folder's outbox, drafts and cache, and its vault entries. */
function accountFiles(accountId: string) {
  const folder = accountFolder(dataDir, accountId);
  const vault = new FileVault(dataDir);
  return {
    outbox: existsSync(join(folder, 'outbox.json')),
    drafts: existsSync(join(folder, 'drafts.json')),
    cache: existsSync(join(folder, 'cache.sqlite')),
    key: vault.get(accountId) !== null,
    cacheKey: vault.get(`cache:${accountId}`) !== null,
    listed: readFileSync(join(dataDir, 'accounts.json'), 'utf8').includes(accountId),
  };
}

const everything = {
  outbox: true,
  drafts: true,
  cache: true,
  key: true,
  cacheKey: true,
  listed: true,
};

/** Gives the account a draft and an outbox file (a message sent through main's outbox). */
async function writeSomething(accountId: string, text: string) {
  await services.handlers.saveDraft({
    accountId,
    draft: { type: '', to: [], topic: '', content: `${text} (draft)` },
  });
  await services.handlers.sendMessage({
    accountId,
    message: { type: 'channel', to: 'general', topic: 'removal', content: text },
  });
}

describe('removing an account', () => {
  it('deletes its key, cache, outbox, drafts and entry, and leaves another account running', async () => {
    const owner = await signIn('owner');
    const emma = await signIn('emma');
    await writeSomething(owner.id, 'from the owner');
    await writeSomething(emma.id, 'from emma');
    expect(accountFiles(owner.id)).toEqual(everything);
    expect(accountFiles(emma.id)).toEqual(everything);
    const emmaSession = services.session(emma.id);

    const pushed: string[][] = [];
    hub.subscribe((channel, payload) => {
      if (channel === 'accounts')
        pushed.push((payload as { accounts: { id: string }[] }).accounts.map((a) => a.id));
    });
    const after = await services.handlers.removeAccount({ accountId: owner.id });
    expect(after.accounts.map((a) => a.id)).toEqual([emma.id]);
    expect(after.activeAccountId).toBe(emma.id);
    expect(pushed.at(-1)).toEqual([emma.id]);
    expect(existsSync(accountFolder(dataDir, owner.id))).toBe(false);
    expect(accountFiles(owner.id)).toEqual({
      outbox: false,
      drafts: false,
      cache: false,
      key: false,
      cacheKey: false,
      listed: false,
    });
    expect(() => services.session(owner.id)).toThrow(/No account/);

    // Emma's session is the same one, still live, still hearing the server.
    expect(services.session(emma.id)).toBe(emmaSession);
    expect(accountFiles(emma.id)).toEqual(everything);
    const heard = new Promise<void>((resolve) => {
      hub.subscribe((channel, payload) => {
        const batch = payload as EventBatch;
        if (channel !== 'events' || batch.accountId !== emma.id) return;
        if (
          batch.events.some((e) => e.type === 'message' && e.message.content.includes('still here'))
        )
          resolve();
      });
    });
    const sent = await realm.client('farid').post('/messages', {
      type: 'direct',
      to: JSON.stringify([realm.userIds.emma]),
      content: 'Emma, still here?',
    });
    expect(sent.status).toBe(200);
    await heard;
    // Nothing of the removed account was written again meanwhile.
    expect(existsSync(accountFolder(dataDir, owner.id))).toBe(false);

    // The last one: no account, none active.
    const none = await services.handlers.removeAccount({ accountId: emma.id });
    expect(none).toEqual({ accounts: [], activeAccountId: null });
    expect(existsSync(accountFolder(dataDir, emma.id))).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')))).toEqual(
      [],
    );
  });

  it('refuses an unknown account with UNKNOWN_ACCOUNT and changes nothing', async () => {
    const owner = await signIn('owner');
    const error = await Promise.resolve(
      services.handlers.removeAccount({ accountId: 'no-such-account' }),
    ).catch((e: { code: string; status: number }) => e);
    expect(error).toMatchObject({ code: 'UNKNOWN_ACCOUNT', status: 404 });
    expect((await services.handlers.listAccounts({})).accounts.map((a) => a.id)).toEqual([
      owner.id,
    ]);
    expect(services.session(owner.id).connection.status).toBe('live');
  });
});

describe('reordering accounts', () => {
  it('moves an account and keeps the order in accounts.json', async () => {
    const owner = await signIn('owner');
    const emma = await signIn('emma');
    const dev = await signIn('dev');
    const moved = await services.handlers.moveAccount({ accountId: dev.id, toIndex: 0 });
    expect(moved.accounts.map((a) => a.id)).toEqual([dev.id, owner.id, emma.id]);
    // Past the end means last.
    await services.handlers.moveAccount({ accountId: owner.id, toIndex: 99 });
    expect(new AccountStore(dataDir).list().map((a) => a.id)).toEqual([dev.id, emma.id, owner.id]);
  });
});
