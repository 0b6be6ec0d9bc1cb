// Events main makes for an action done offline (electron/outbox/action-events.ts) and the server's
// own events for the same action later: the store shows the action at once and ends as the server
// has it, never counting it twice. Main numbers its events between the server's (10.5 after 10), so
// the server's next event is not taken for one already applied.
//
// The store and its test fixtures live in the web TypeScript project, which this Node project cannot
// import statically: they are loaded by URL and typed here by the few members the test uses.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import type { ChannelMessage, Message, MessageWithFlags } from '../../shared/api/types';
import { actionEvents, type ActionEventContext } from '../../electron/outbox/action-events';
import type { OfflineAction } from '../../electron/outbox/action-queue';

interface Fixtures {
  GENERAL: number;
  SELF: number;
  eventId(): number;
  channelMessage(id: number, streamId: number, topic: string): ChannelMessage;
  messageEvent(message: Message): ServerEvent;
  setupStore(): {
    apply(...events: ServerEvent[]): void;
    account(): {
      messages: { byId: Map<number, MessageWithFlags> };
      userTopics: unknown;
    };
  };
}
let fixtures: Fixtures;
let topicVisibility: (state: unknown, streamId: number, topic: string) => number;

beforeAll(async () => {
  fixtures = (await import(
    String(new URL('../renderer/store/fixtures/index.ts', import.meta.url))
  )) as Fixtures;
  ({ topicVisibility } = (await import(
    String(new URL('../../renderer/store/slices/userTopics.ts', import.meta.url))
  )) as { topicVisibility: typeof topicVisibility });
});

const ctx = (): ActionEventContext => ({
  selfUserId: fixtures.SELF,
  nowSeconds: 2_000_000,
  topicPolicy: () => 0,
  narrowMessageIds: () => [],
});

/** The shown events of an action, with an id as main gives it: between two of the server's. */
function offline(action: OfflineAction, id: number): ServerEvent[] {
  return actionEvents(action, ctx()).shown.map((event) => ({ ...event, id }) as ServerEvent);
}

describe('events of actions done offline, then the server’s', () => {
  it('shows each at once and applies the server’s later event without doubling it', () => {
    const { GENERAL, SELF, channelMessage, eventId, messageEvent, setupStore } = fixtures;
    const t = setupStore();
    const last = eventId();
    t.apply({ ...messageEvent(channelMessage(101, GENERAL, 'trip')), id: last });

    const reaction = {
      messageId: 101,
      emojiName: 'octopus',
      emojiCode: '1f419',
      reactionType: 'unicode_emoji',
    } as const;
    t.apply(...offline({ kind: 'addReaction', payload: reaction }, last + 1 / 2));
    t.apply(
      ...offline(
        { kind: 'updateFlags', payload: { messages: [101], op: 'add', flag: 'starred' } },
        last + 2 / 3,
      ),
    );
    t.apply(
      ...offline(
        { kind: 'editMessage', payload: { messageId: 101, content: 'a <b>' } },
        last + 3 / 4,
      ),
    );
    t.apply(
      ...offline(
        {
          kind: 'setUserTopic',
          payload: { streamId: GENERAL, topic: 'trip', visibilityPolicy: 1 },
        },
        last + 4 / 5,
      ),
    );
    let m = t.account().messages.byId.get(101)!;
    expect(m.reactions).toHaveLength(1);
    expect(m.flags).toContain('starred');
    expect(m.content).toBe('<p>a &lt;b&gt;</p>');
    expect(topicVisibility(t.account().userTopics, GENERAL, 'trip')).toBe(1);

    // The server's own events, numbered after: each finds its change already there.
    t.apply(
      {
        id: eventId(),
        type: 'reaction',
        op: 'add',
        message_id: 101,
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        user_id: SELF,
      },
      {
        id: eventId(),
        type: 'update_message_flags',
        op: 'add',
        flag: 'starred',
        messages: [101],
        all: false,
      },
      {
        id: eventId(),
        type: 'update_message',
        user_id: SELF,
        rendering_only: false,
        message_id: 101,
        message_ids: [101],
        flags: ['read', 'starred'],
        edit_timestamp: 2_000_001,
        content: 'a <b>',
        rendered_content: '<p>a &lt;b&gt; rendered</p>',
      },
      {
        id: eventId(),
        type: 'user_topic',
        stream_id: GENERAL,
        topic_name: 'trip',
        last_updated: 2_000_001,
        visibility_policy: 1,
      },
    );
    m = t.account().messages.byId.get(101)!;
    expect(m.reactions).toHaveLength(1);
    expect(m.flags.filter((f) => f === 'starred')).toHaveLength(1);
    expect(m.content).toBe('<p>a &lt;b&gt; rendered</p>');
    expect(topicVisibility(t.account().userTopics, GENERAL, 'trip')).toBe(1);
  });

  it('deletes at once, and the server’s deletion later changes nothing', () => {
    const { GENERAL, channelMessage, eventId, messageEvent, setupStore } = fixtures;
    const t = setupStore();
    const last = eventId();
    t.apply({ ...messageEvent(channelMessage(102, GENERAL, 'trip')), id: last });
    t.apply(...offline({ kind: 'deleteMessage', payload: { messageId: 102 } }, last + 1 / 2));
    expect(t.account().messages.byId.has(102)).toBe(false);
    t.apply({
      id: eventId(),
      type: 'delete_message',
      message_ids: [102],
      message_type: 'stream',
      stream_id: GENERAL,
      topic: 'trip',
    });
    expect(t.account().messages.byId.has(102)).toBe(false);
  });
});
