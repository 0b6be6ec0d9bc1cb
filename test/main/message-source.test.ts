// getMessage and getStreamTopics. getMessage: one message with its Markdown source from the real local realm server (what an edit
// in the renderer starts from), and a clear error for a message the user cannot see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let main: MainHarness;
let accountId: string;

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  main = await startMain({ site: realm.url, user: realm.users.owner });
  accountId = main.accountId;
  await main.live();
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('getMessage', () => {
  it('returns the Markdown source beside the rendered message', async () => {
    const snapshot = main.pushesOf('snapshot')[0];
    const streamId = snapshot.register.subscriptions[0].stream_id;
    const content = 'Look at **this** and [that](https://example.com)';
    const sent = await main.services.handlers.sendMessage({
      accountId,
      message: { type: 'channel', to: streamId, topic: 'source', content },
    });
    const res = await main.services.handlers.getMessage({ accountId, messageId: sent.messageId! });
    expect(res.raw_content).toBe(content);
    expect(res.message.id).toBe(sent.messageId);
  });

  it('refuses an unknown message with the server error', async () => {
    await expect(
      main.services.handlers.getMessage({ accountId, messageId: 987_654 }),
    ).rejects.toThrow(/Invalid message/);
  });
});

describe('getStreamTopics', () => {
  it("lists a channel's topics, newest first", async () => {
    const snapshot = main.pushesOf('snapshot')[0];
    const streamId = snapshot.register.subscriptions[0].stream_id;
    for (const topic of ['older topic', 'newer topic'])
      await main.services.handlers.sendMessage({
        accountId,
        message: { type: 'channel', to: streamId, topic, content: `in ${topic}` },
      });
    const { topics } = await main.services.handlers.getStreamTopics({ accountId, streamId });
    const names = topics.map((t) => t.name);
    expect(names.indexOf('newer topic')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('newer topic')).toBeLessThan(names.indexOf('older topic'));
  });
});
