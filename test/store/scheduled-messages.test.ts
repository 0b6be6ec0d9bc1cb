// The scheduledMessages slice fed by the real local server: the snapshot, then scheduled_messages
// events (add, update, remove by delete and by delivery) as the app applies them; after each step
// the store lists what GET /scheduled_messages reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { feedUntil, registerQueue } from '../support/events';
import type { RegisterResponse, ScheduledMessage } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';

interface ScheduledState {
  byId: Map<number, ScheduledMessage>;
}
interface StoreModule {
  createChatStore(): {
    getState(): {
      accounts: Record<string, { scheduledMessages: ScheduledState }>;
      replaceSnapshot(accountId: string, reg: RegisterResponse): void;
      applyEventBatch(accountId: string, events: readonly ServerEvent[]): void;
    };
  };
}
interface SliceModule {
  scheduledMessagesInOrder(state: ScheduledState): ScheduledMessage[];
}

let server: TestServer;
let mod: StoreModule;
let slice: SliceModule;

beforeAll(async () => {
  mod = (await import(
    String(new URL('../../renderer/store/index.ts', import.meta.url))
  )) as StoreModule;
  slice = (await import(
    String(new URL('../../renderer/store/slices/scheduledMessages.ts', import.meta.url))
  )) as SliceModule;
  server = await startTestServer({ seed: 'demo', heartbeatMs: 500 });
});
afterAll(async () => {
  await server?.close();
});

describe('scheduledMessages slice', () => {
  it('follows the server through schedule, edit, delete and delivery', async () => {
    const dev = server.client('dev');
    const general = (await dev.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;
    const early = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'store',
      content: 'before the snapshot',
      scheduled_delivery_timestamp: inSeconds(3600),
    });
    expect(early.status).toBe(200);

    const q = await registerQueue(dev, {});
    const store = mod.createChatStore();
    store.getState().replaceSnapshot('acct', q.state as RegisterResponse);
    const apply = (events: ServerEvent[]) => store.getState().applyEventBatch('acct', events);
    const listed = () =>
      slice.scheduledMessagesInOrder(store.getState().accounts.acct.scheduledMessages);
    const fromServer = async () => (await dev.get('/scheduled_messages')).body.scheduled_messages;
    expect(listed()).toEqual(await fromServer());
    expect(listed()).toHaveLength(1);

    const soon = await dev.post('/scheduled_messages', {
      type: 'direct',
      to: JSON.stringify([server.userIds.emma]),
      content: 'soon',
      scheduled_delivery_timestamp: inSeconds(1800),
    });
    await feedUntil(q, apply, (e) => e.type === 'scheduled_messages' && e.op === 'add');
    expect(listed().map((m) => m.content)).toEqual(['soon', 'before the snapshot']);

    await dev.patch(`/scheduled_messages/${early.body.scheduled_message_id}`, {
      scheduled_delivery_timestamp: inSeconds(2),
      content: 'any moment now',
    });
    await feedUntil(q, apply, (e) => e.type === 'scheduled_messages' && e.op === 'update');
    expect(listed()).toEqual(await fromServer());
    expect(listed()[0].content).toBe('any moment now');

    // Delivered at the time: the server removes it.
    await feedUntil(q, apply, (e) => e.type === 'scheduled_messages' && e.op === 'remove');
    expect(listed().map((m) => m.scheduled_message_id)).toEqual([soon.body.scheduled_message_id]);

    await dev.delete(`/scheduled_messages/${soon.body.scheduled_message_id}`);
    await feedUntil(q, apply, (e) => e.type === 'scheduled_messages' && e.op === 'remove');
    expect(listed()).toEqual([]);
    expect(await fromServer()).toEqual([]);
  });
});
