// A relaunch hands the page the cached snapshot as the UTF-8 JSON the cache kept (main does not
// decode, parse and serialize it again first): over both transports the page must still receive the very snapshot
// the last run had, strings that look like the bridge's own markers included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RawJson, stringifyWithRawJson } from '../../electron/ipc/raw-json';
import { startTestServer, type TestServer } from '../support/server';
import { eventually } from './support/harness';
import { bothTransports, type TransportUnderTest } from './support/transports';

describe.each(bothTransports)('a cached snapshot over the %s transport', (_name, makeTransport) => {
  let realm: TestServer | undefined;
  let transport: TransportUnderTest | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    await transport?.close();
    await realm?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('reaches the page as the snapshot the last run kept', async () => {
    realm = await startTestServer();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-cached-wire-'));
    // A channel whose name is JSON's hard cases and the bridge's marker's look.
    const channelName = `wire "quoted" \\ raw-json:0:0 \u2028 ✓`;
    await realm
      .client('owner')
      .post('/users/me/subscriptions', { subscriptions: [{ name: channelName }] });

    transport = await makeTransport({ dataDir });
    const { id: accountId } = await transport.api.addAccount({
      site: realm.url,
      auth: { kind: 'apiKey', email: realm.users.owner.email, apiKey: realm.users.owner.api_key },
    });
    const live = await eventually(async () => {
      const answer = await transport!.api.getSnapshot({ accountId });
      // A first sign-in's people follow its snapshot: the cache keeps it once they are in.
      return answer.connection.status === 'live' && !answer.snapshot?.peoplePending
        ? answer.snapshot
        : undefined;
    });
    expect(live?.register.subscriptions.map((s) => s.name)).toContain(channelName);
    // A conversation left open: the relaunch answers it from the cache, which needs the realm's
    // lookups (the parsed snapshot), and the page must still get the text.
    const general = live!.register.subscriptions[0].stream_id;
    // With a message in it, opened once: the cache keeps its page.
    await realm
      .client('owner')
      .post('/messages', { type: 'stream', to: general, topic: 'wire', content: 'kept' });
    await transport.api.getMessages({
      accountId,
      narrow: [{ operator: 'channel', operand: general }],
      anchor: 'first_unread',
      numBefore: 50,
      numAfter: 50,
      includeAnchor: true,
    });
    transport.services
      .session(accountId)
      .rememberOpenNarrow([{ operator: 'channel', operand: general }]);
    await transport.close(); // writes the snapshot to the cache
    await realm.close(); // the relaunch has only its cache
    realm = undefined;

    transport = await makeTransport({ dataDir });
    const session = transport.services.session(accountId);
    // The page is given the text the cache kept, even once main has parsed it for the open
    // conversation's page.
    const forPage = session.snapshotForPage();
    expect(forPage.lastNarrow).not.toBeNull();
    expect(forPage.snapshot).toBeInstanceOf(RawJson);
    const relaunched = await transport.api.getSnapshot({ accountId });
    expect(relaunched.fromCache).toBe(true);
    expect(relaunched.snapshot).toEqual(live);
    // A fresh page's first call, the list with the active account's snapshot, carries the same.
    const listed = await transport.api.listAccounts({ withActiveSnapshot: true });
    expect(listed.activeAccountId).toBe(accountId);
    expect(listed.accounts.map((a) => a.id)).toEqual([accountId]);
    expect(listed.snapshot).toEqual(live);
    expect(listed).toMatchObject({ fromCache: true, lastNarrow: forPage.lastNarrow });
    expect(listed.lastPage?.messages.length).toBe(relaunched.lastPage?.messages.length);
    expect(await transport.api.listAccounts({})).not.toHaveProperty('snapshot');
    // A view the page's URL chose comes with its first page, as getMessages answers it from the
    // cache before the account is online.
    const withPage = await transport.api.listAccounts({
      withActiveSnapshot: true,
      firstPageOf: forPage.lastNarrow!,
    });
    expect(withPage.firstPage?.messages.map((m) => m.id)).toEqual(
      relaunched.lastPage?.messages.map((m) => m.id),
    );
    expect(withPage.firstPage?.messages.length).toBeGreaterThan(0);
    // Main's own copy, parsed when first needed, is the same.
    expect(session.getSnapshot().snapshot).toEqual(live);
  }, 60_000);
});

/** A frame as the page's WebSocket receives it (text either way). */
const received = (frame: string | Buffer) =>
  JSON.parse(typeof frame === 'string' ? frame : frame.toString('utf8')) as unknown;

describe('stringifyWithRawJson', () => {
  it('puts the text in place and leaves look-alike strings alone', () => {
    const text = JSON.stringify({ name: 'a "b" \\ c \u2028', list: [1, null] });
    const frame = {
      t: 'result',
      value: { snapshot: new RawJson(text), other: 'raw-json:0:0', empty: new RawJson('[]') },
    };
    const parsed = received(stringifyWithRawJson(frame));
    expect(parsed).toEqual({
      t: 'result',
      value: { snapshot: JSON.parse(text), other: 'raw-json:0:0', empty: [] },
    });
    // The text goes as it is: main never parses it on this path.
    const unparsed = new RawJson(text);
    unparsed.toJSON = () => {
      throw new Error('parsed');
    };
    expect(received(stringifyWithRawJson({ value: { snapshot: unparsed } }))).toEqual({
      value: { snapshot: JSON.parse(text) },
    });
    // Any other serializer gets the same value.
    expect(JSON.parse(JSON.stringify(frame))).toEqual(parsed);
  });

  it('splices UTF-8 bytes as they are, next to text and the frame’s own non-ASCII strings', () => {
    const text = JSON.stringify({ name: 'Zoë "✓" \\ 🎉 \u2028', list: [1, null] });
    const bytes = new RawJson(Buffer.from(text, 'utf8'));
    bytes.toJSON = () => {
      throw new Error('decoded and parsed');
    };
    const frame = {
      t: 'result',
      value: { snapshot: bytes, other: 'raw-json:0:0 é', empty: new RawJson('[]') },
    };
    const sent = stringifyWithRawJson(frame);
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect(received(sent)).toEqual({
      t: 'result',
      value: { snapshot: JSON.parse(text), other: 'raw-json:0:0 é', empty: [] },
    });
    // Another serializer (Electron's transport parses it) gets the same value.
    expect(new RawJson(Buffer.from(text, 'utf8')).toJSON()).toEqual(JSON.parse(text));
  });
});
