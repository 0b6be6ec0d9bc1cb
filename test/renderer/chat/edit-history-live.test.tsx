// The edit history view end to end below the browser: the renderer's message row and history view
// call the real browser-mode bridge (window.tributary over a WebSocket), which reaches the real
// main-process services, which call GET /messages/{id}/history on the real local realm server
// (127.0.0.1, SQLite in a temporary folder).
//
// The server and main-process helpers live in the Node TypeScript project, which this web project
// cannot import statically: they are loaded by URL and typed here by the few members used.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, within } from '@testing-library/react';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import type { TributaryApi } from '../../../shared/ipc/contract';
import type { MessageWithFlags } from '../../../shared/api/types';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import { Providers, resetUi } from './harness';

interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}
interface TestServer {
  url: string;
  users: Record<string, { email: string; api_key: string }>;
  server: { db: { prepare(sql: string): { run(...args: unknown[]): unknown } } };
  client(who: string): {
    patch(path: string, params: Record<string, unknown>): Promise<ApiResponse>;
  };
  close(): Promise<void>;
}
interface Transport {
  api: TributaryApi<Blob>;
  close(): Promise<void>;
}
const load = <T,>(path: string) => import(String(new URL(path, import.meta.url))) as Promise<T>;

let realm: TestServer;
let transport: Transport;
let api: TributaryApi<Blob>;
let accountId: string;
let store: ChatStore;
let channels: { general: number; design: number };

beforeAll(async () => {
  const { startTestServer } = await load<{
    startTestServer(o: { heartbeatMs: number }): Promise<TestServer>;
  }>('../../support/server.ts');
  const { websocketTransport } = await load<{
    websocketTransport(o: object): Promise<Transport>;
  }>('../../main/support/transports.ts');
  realm = await startTestServer({ heartbeatMs: 1_000 });
  transport = await websocketTransport({});
  api = transport.api;
  (window as unknown as { tributary: unknown }).tributary = api;
  const owner = realm.users.owner;
  accountId = (
    await api.addAccount({
      site: realm.url,
      auth: { kind: 'apiKey', email: owner.email, apiKey: owner.api_key },
    })
  ).id;
  // The account registers its event queue in main; its snapshot fills the store as the app does.
  let snapshot = (await api.getSnapshot({ accountId })).snapshot;
  for (let i = 0; !snapshot && i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    snapshot = (await api.getSnapshot({ accountId })).snapshot;
  }
  if (!snapshot) throw new Error('no snapshot from main');
  store = createChatStore();
  store.getState().replaceSnapshot(accountId, snapshot.register);
  const idOf = (name: string) => snapshot.register.subscriptions!.find((s) => s.name === name)!;
  channels = { general: idOf('general').stream_id, design: idOf('design').stream_id };
}, 60_000);

afterAll(async () => {
  await transport?.close();
  await realm?.close();
});

afterEach(cleanup);

/** Fetches the message through main as the message list does, and shows its row. */
async function showRow(messageId: number): Promise<HTMLElement> {
  const res = await api.getMessages({ accountId, anchor: messageId, numBefore: 0, numAfter: 0 });
  const message = res.messages[0] as MessageWithFlags;
  if (message.type !== 'stream') throw new Error('expected a channel message');
  const key = narrowKey(topicNarrow(message.stream_id, message.subject));
  store.getState().mergeFetchedMessages(accountId, key, res.messages, {
    foundOldest: true,
    foundNewest: true,
  });
  resetUi(accountId);
  const { container } = render(
    <Providers store={store}>
      <MessageRow accountId={accountId} id={messageId} prevId={undefined} selected={false} />
    </Providers>,
  );
  const row = container.querySelector<HTMLElement>('[data-testid=message]');
  if (!row) throw new Error(`message ${messageId} not shown`);
  return row;
}

/** The realm's message_edit_history_visibility_policy, set in its database as the server tests do. */
function setHistoryPolicy(policy: 'all' | 'none'): void {
  realm.server.db
    .prepare(
      "UPDATE realm SET settings = json_set(settings, '$.message_edit_history_visibility_policy', ?) WHERE id = 1",
    )
    .run(policy);
}

async function send(content: string, topic: string): Promise<number> {
  const sent = await api.sendMessage({
    accountId,
    message: { type: 'channel', to: channels.general, topic, content },
  });
  return sent.messageId!;
}

describe('edit history through main', () => {
  it('shows every version with its content, channel, topic, editor and time', async () => {
    const id = await send('First **draft** of the plan', 'plans');
    const owner = realm.client('owner');
    expect((await owner.patch(`/messages/${id}`, { content: 'Second draft' })).status).toBe(200);
    // An administrator moves it to another channel and topic.
    const moved = await realm.client('admin').patch(`/messages/${id}`, {
      stream_id: channels.design,
      topic: 'final plans',
      propagate_mode: 'change_one',
    });
    expect(moved.body).toMatchObject({ result: 'success' });

    const row = await showRow(id);
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    const history = within(row).getByRole('region', { name: 'Edit history' });
    const versions = await within(history).findAllByRole('listitem');
    expect(versions).toHaveLength(3);
    const [original, edited, move] = versions;

    expect(original.textContent).toMatch(/^Original .* by Olivia/);
    expect(original.textContent).toContain('#general › plans');
    expect(original.querySelector('.content strong')?.textContent).toBe('draft');

    expect(edited.textContent).toMatch(/^Edited .* by Olivia/);
    expect(edited.textContent).toContain('#general › plans');
    expect(edited.querySelector('.content')?.textContent).toBe('Second draft');

    expect(move.textContent).toMatch(/^Moved .* by Adam Admin/);
    expect(move.textContent).toContain('#design › final plans');
    expect(move.textContent).toContain('Moved from #general');
    expect(move.textContent).toContain('Topic was “plans”');
    expect(move.querySelector('.content')?.textContent).toBe('Second draft');
  });

  it('sanitizes the HTML of every version before it reaches the DOM', async () => {
    const id = await send('harmless', 'hostile history');
    await realm.client('owner').patch(`/messages/${id}`, { content: 'still harmless' });
    // A hostile server: the current version's rendered HTML carries a script, an event handler and
    // a javascript: link.
    realm.server.db
      .prepare('UPDATE messages SET rendered_content = ? WHERE id = ?')
      .run(
        '<p>still harmless<script>window.__pwned = 1</script>' +
          '<img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">x</a></p>',
        id,
      );
    const row = await showRow(id);
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    const history = within(row).getByRole('region', { name: 'Edit history' });
    const versions = await within(history).findAllByRole('listitem');
    const html = versions.at(-1)!.innerHTML;
    expect(html).toContain('still harmless');
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
  });

  it('shows the server refusing when the realm hides edit history', async () => {
    const id = await send('a message', 'policy');
    await realm.client('owner').patch(`/messages/${id}`, { content: 'an edited message' });
    setHistoryPolicy('none');
    try {
      const row = await showRow(id);
      fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
      const alert = await within(row).findByRole('alert');
      expect(alert.textContent).toContain('Message edit history is disabled');
      expect(alert.textContent).toContain('BAD_REQUEST');
    } finally {
      setHistoryPolicy('all');
    }
  });
});
