// @vitest-environment node
// Sending to a public channel one is not subscribed to, on the public server (feature level 372):
// the message is the sender's only "historically" (GET /messages answers it with flags `read` and
// `historical`; seen on a running server, 2026-11-29) and no message event reaches the sender's
// queue, so the echo said "Sending…" for ever. The sent message, fetched, is applied as its event
// would have been. The member's register (Hamlet) has Rome among never_subscribed; the message is
// the recorded message event's, sent to Rome as the running server answered it.
import { describe, expect, it } from 'vitest';
import { createChatStore, selectOutboxForNarrow } from '../../../renderer/store';
import { sentWithoutEvent } from '../../../renderer/features/compose/unsubscribed-send';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import type { MessageWithFlags } from '../../../shared/api/types';
import { fl372Events, fl372Register, haveFl372Fixtures } from './fixtures/fl372';

const ROME = 24;
const VERONA = 22;
const TOPIC = 'from outside';

function sentToRome(selfId: number, selfName: string): MessageWithFlags {
  const recorded = fl372Events().find((e) => e.type === 'message');
  if (recorded?.type !== 'message') throw new Error('no recorded message event');
  return {
    ...recorded.message,
    id: 9001,
    sender_id: selfId,
    sender_full_name: selfName,
    stream_id: ROME,
    display_recipient: 'Rome',
    subject: TOPIC,
    flags: ['read', 'historical'],
  } as MessageWithFlags;
}

describe.skipIf(!haveFl372Fixtures)('a send to a channel one is not subscribed to', () => {
  it('knows no event will come for an unsubscribed channel, and one will for a subscribed one', () => {
    const store = createChatStore();
    store.getState().replaceSnapshot('z', fl372Register());
    const account = store.getState().accounts.z;
    expect(sentWithoutEvent(account, ROME)).toBe(true);
    expect(sentWithoutEvent(account, VERONA)).toBe(false);
  });

  it('shows the fetched message in the topic in place of its echo, read', () => {
    const store = createChatStore();
    const s = store.getState();
    s.replaceSnapshot('z', fl372Register());
    const key = narrowKey(topicNarrow(ROME, TOPIC));
    // The view of the topic, loaded empty before the send.
    s.mergeFetchedMessages('z', key, [], {
      foundOldest: true,
      foundNewest: true,
      anchor: 'newest',
    });
    s.addLocalEcho('z', {
      localId: 'l1',
      destination: { type: 'stream', streamId: ROME, topic: TOPIC },
      content: 'hello',
    });
    s.markLocalEchoSent('z', 'l1', 9001);
    expect(selectOutboxForNarrow(store.getState().accounts.z, key)).toHaveLength(1);
    const unreadBefore = store.getState().accounts.z.unreads;

    const self = store.getState().accounts.z.selfUserId;
    const name = store.getState().accounts.z.users.users.get(self)!.full_name;
    s.addSentMessage('z', 'l1', sentToRome(self, name));
    const account = store.getState().accounts.z;
    expect(selectOutboxForNarrow(account, key)).toEqual([]);
    expect([...account.narrows.lists.get(key)!.ids]).toEqual([9001]);
    expect(account.messages.byId.get(9001)?.flags).toEqual(['read', 'historical']);
    expect(account.unreads).toBe(unreadBefore);
    // The server's next event still applies: the message took no event id.
    expect(account.lastEventId).toBe(fl372Register().last_event_id);
  });
});
