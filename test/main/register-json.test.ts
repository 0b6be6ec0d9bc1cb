// A register's answer reaches the page and the cache as the server's own text: main parses it for
// itself, but does not serialize the snapshot again (5.8 MB for a 10,000-user organization), neither
// for the push to the page nor for the cache. Over both transports the page gets the register the
// server sent, and a relaunch opens the same snapshot from the cache. A first sign-in's register
// comes without the people, who follow as their own register's text (the `people` push): the
// cache's snapshot is both texts joined, never serialized either.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PeopleMessage, SnapshotMessage } from '../../shared/ipc/accounts';
import { startTestServer, type TestServer } from '../support/server';
import { eventually } from './support/harness';
import { bothTransports, type TransportUnderTest } from './support/transports';

describe.each(bothTransports)('a register over the %s transport', (_name, makeTransport) => {
  let realm: TestServer | undefined;
  let transport: TransportUnderTest | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    vi.restoreAllMocks();
    await transport?.close();
    await realm?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes to the page and the cache as the server sent it, never serialized again', async () => {
    realm = await startTestServer();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-register-json-'));
    // JSON's hard cases in the text main passes on.
    const channelName = `json "quoted" \\ \u2028 ✓ 🎉`;
    await realm
      .client('owner')
      .post('/users/me/subscriptions', { subscriptions: [{ name: channelName }] });
    const stringify = vi.spyOn(JSON, 'stringify');
    transport = await makeTransport({ dataDir });
    const pushed: SnapshotMessage[] = [];
    transport.api.on('snapshot', (snapshot) => pushed.push(snapshot));
    const people: PeopleMessage[] = [];
    transport.api.on('people', (message) => people.push(message));
    const { id: accountId } = await transport.api.addAccount({
      site: realm.url,
      auth: { kind: 'apiKey', email: realm.users.owner.email, apiKey: realm.users.owner.api_key },
    });
    const snapshot = await eventually(async () => pushed[0]);
    expect(snapshot.accountId).toBe(accountId);
    expect(snapshot.register.subscriptions.map((s) => s.name)).toContain(channelName);
    expect(snapshot.peoplePending).toBe(true);
    const { people: lists } = await eventually(async () => people[0]);
    // What main parsed and keeps is what the page got: the register, then the people.
    const kept = transport.services.session(accountId).getSnapshot().snapshot;
    const { peoplePending: _pending, ...complete } = snapshot;
    expect(kept).toEqual({ ...complete, register: { ...lists, ...snapshot.register } });
    await transport.close(); // writes the snapshot to the cache
    transport = undefined;
    // Main's snapshot messages and push frames carry a register; the server's answer does not.
    const mainSerialized = stringify.mock.calls.filter(([value]) => {
      const frame = value as { register?: unknown; payload?: { register?: unknown } } | null;
      return (
        typeof frame === 'object' && frame !== null && (frame.register ?? frame.payload?.register)
      );
    });
    expect(mainSerialized).toEqual([]);
    vi.restoreAllMocks();

    await realm.close(); // the relaunch has only its cache
    realm = undefined;
    transport = await makeTransport({ dataDir });
    const relaunched = await transport.api.getSnapshot({ accountId });
    expect(relaunched.fromCache).toBe(true);
    expect(relaunched.snapshot).toEqual(kept);
  }, 60_000);
});
