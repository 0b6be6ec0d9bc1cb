// The messages sent offline go out first when the server returns (before the queued actions), each
// exactly once also across a crash of main. Here the crash comes between two identical messages to
// one conversation: the first was delivered (its copy found on the server after its answer was
// lost), the second marked "maybe sent" on disk but killed before its request left. After the
// restart the second must still be sent: the first's copy is not the second's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../shared/ipc/chat';
import type { TestServer } from '../support/server';
import { eventually, type MainHarness } from './support/harness';
import { mainThroughProxy } from './support/through-proxy';

let realm: TestServer;
let main: MainHarness;
let channel: string;

mainThroughProxy('owner', (env) => {
  ({ realm, main } = env);
  channel = env.snapshot.register.subscriptions[0].name;
});

const outbox = () => main.services.session(main.accountId).outbox.list();

describe('messages sent offline, across a crash', () => {
  it('sends the second of two identical messages whose attempt never left, after the first was found delivered', async () => {
    const owner = realm.client('owner');
    const topic = `twice ${Date.now()}`;
    const newest = await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
    const afterId = (newest.body.messages as Array<{ id: number }>)[0]!.id;
    // The first "ok", delivered by an attempt whose answer was lost and found since.
    const first = await owner.post('/messages', {
      type: 'stream',
      to: channel,
      topic,
      content: 'ok',
    });
    await main.services.stop();
    // As the crash left the outbox: the first completed, the second about to go (watermark taken
    // before the first's copy was known, as when both were sent together).
    const second: OutboxEntry & { maybeDelivered: boolean; afterId: number } = {
      localId: 'second-ok',
      accountId: main.accountId,
      message: { type: 'channel', to: channel, topic, content: 'ok' },
      state: 'sending',
      attempts: 1,
      createdAt: Date.now() - 1000,
      lastError: null,
      maybeDelivered: true,
      afterId,
    };
    writeFileSync(
      join(main.dataDir, 'accounts', main.accountId, 'outbox.json'),
      JSON.stringify({
        entries: [second],
        completed: [{ localId: 'first-ok', messageId: first.body.id as number }],
      }),
    );
    await main.restart();
    await eventually(() => (outbox().length === 0 ? true : undefined), 30_000);
    const inTopic = await owner.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: channel },
        { operator: 'topic', operand: topic },
      ],
      apply_markdown: false,
    });
    const oks = (inTopic.body.messages as Array<{ content: string }>).filter(
      (m) => m.content === 'ok',
    );
    expect(oks).toHaveLength(2);
  });
});
