// @vitest-environment node
// Messages slice and per-narrow lists: new messages, duplicates, edits, moves, deletes, reactions,
// flags, history pages.
import { describe, expect, it } from 'vitest';
import {
  narrowKey,
  topicNarrow,
  channelNarrow,
  dmNarrow,
  ALL_MESSAGES,
} from '../../../shared/narrow';
import type { ServerEvent } from '../../../shared/api/events';
import {
  channelMessage,
  directMessage,
  eventId,
  messageEvent,
  moveEvent,
  setupStore,
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  RANDOM,
  SELF,
} from './fixtures';

const ALL = narrowKey(ALL_MESSAGES);
const GENERAL_KEY = narrowKey(channelNarrow(GENERAL));
const PLANNING = narrowKey(topicNarrow(GENERAL, 'planning'));
const DESIGN_LOGO = narrowKey(topicNarrow(DESIGN, 'logo'));
const STARRED = narrowKey([{ operator: 'is', operand: 'starred' }]);

/** A store with the given narrows opened on an empty, complete history. */
function withOpenNarrows(...keys: string[]) {
  const t = setupStore();
  for (const key of keys) {
    t.store.getState().mergeFetchedMessages('a', key, [], { foundOldest: true, foundNewest: true });
  }
  const ids = (key: string) => [...(t.account().narrows.lists.get(key)?.ids ?? [])];
  return { ...t, ids };
}

describe('message events', () => {
  it('stores the message with its flags and appends it to matching lists only', () => {
    const t = withOpenNarrows(ALL, GENERAL_KEY, PLANNING, DESIGN_LOGO);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning'), ['read']),
      messageEvent(directMessage(102, [EMMA])),
    );
    expect(t.account().messages.byId.get(101)?.flags).toEqual(['read']);
    expect(t.ids(ALL)).toEqual([101, 102]);
    expect(t.ids(GENERAL_KEY)).toEqual([101]);
    expect(t.ids(PLANNING)).toEqual([101]);
    expect(t.ids(DESIGN_LOGO)).toEqual([]);
  });

  it('ignores a duplicate message event and a re-delivered event id', () => {
    const t = withOpenNarrows(ALL);
    const ev = messageEvent(channelMessage(101, GENERAL, 'planning'));
    t.apply(ev);
    t.apply(ev); // same event id again (unacknowledged re-delivery)
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning'))); // same message, new event
    expect(t.ids(ALL)).toEqual([101]);
    expect(t.account().messages.byId.size).toBe(1);
    expect(t.account().lastEventId).toBeGreaterThanOrEqual(ev.id);
  });

  it('inserts a late (out-of-order) message in id order', () => {
    const t = withOpenNarrows(ALL);
    t.apply(
      messageEvent(channelMessage(105, GENERAL, 'planning')),
      messageEvent(channelMessage(103, GENERAL, 'planning')),
    );
    t.apply(messageEvent(channelMessage(104, GENERAL, 'planning')));
    expect(t.ids(ALL)).toEqual([103, 104, 105]);
  });

  it('does not append to a list that has not reached the newest message (it would leave a gap)', () => {
    const t = setupStore();
    t.store.getState().mergeFetchedMessages('a', GENERAL_KEY, [channelMessage(50, GENERAL, 'x')], {
      foundOldest: true,
      foundNewest: false,
      anchor: 50,
    });
    t.apply(messageEvent(channelMessage(200, GENERAL, 'x')));
    expect([...t.account().narrows.lists.get(GENERAL_KEY)!.ids]).toEqual([50]);
    expect(t.account().messages.byId.has(200)).toBe(true);
  });

  it('leaves lists whose narrow the client cannot decide (keyword search) alone', () => {
    const search = narrowKey([{ operator: 'search', operand: 'budget' }]);
    const t = withOpenNarrows(search);
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning', { content: 'budget' })));
    expect(t.ids(search)).toEqual([]);
  });
});

describe('edits and moves', () => {
  it('applies a content edit to message_id only, and a rendering-only update without an edit time', () => {
    const t = withOpenNarrows(ALL);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'planning')),
    );
    const other = t.account().messages.byId.get(102);
    const edit: ServerEvent = {
      id: eventId(),
      type: 'update_message',
      user_id: EMMA,
      rendering_only: false,
      message_id: 101,
      message_ids: [101],
      flags: ['read', 'mentioned'],
      edit_timestamp: 1_795_400_000,
      stream_id: GENERAL,
      orig_content: 'message 101',
      orig_rendered_content: '<p>message 101</p>',
      content: 'edited',
      rendered_content: '<p>edited</p>',
      is_me_message: false,
    };
    t.apply(edit);
    const m = t.account().messages.byId.get(101)!;
    expect(m.rendered_content).toBe('<p>edited</p>');
    // The stored message was delivered as HTML (apply_markdown), so content takes the HTML too.
    expect(m.content).toBe('<p>edited</p>');
    expect(m.flags).toEqual(['read', 'mentioned']);
    expect(m.last_edit_timestamp).toBe(1_795_400_000);
    // The untouched message keeps its identity (its selector does not re-render).
    expect(t.account().messages.byId.get(102)).toBe(other);

    t.apply({
      ...edit,
      id: eventId(),
      user_id: null,
      rendering_only: true,
      rendered_content: '<p>edited + preview</p>',
      edit_timestamp: 1_795_500_000,
    });
    const m2 = t.account().messages.byId.get(101)!;
    expect(m2.rendered_content).toBe('<p>edited + preview</p>');
    expect(m2.last_edit_timestamp).toBe(1_795_400_000);
  });

  it('ignores an edit of a message it does not have', () => {
    const t = withOpenNarrows(ALL);
    const before = t.account().messages;
    t.apply({
      id: eventId(),
      type: 'update_message',
      user_id: EMMA,
      rendering_only: false,
      message_id: 999,
      message_ids: [999],
      flags: [],
      edit_timestamp: 1,
      content: 'x',
      rendered_content: '<p>x</p>',
    });
    expect(t.account().messages).toBe(before);
    expect(t.ids(ALL)).toEqual([]);
  });

  it('moves messages to another topic: topic lists drop and gain them, channel list keeps them', () => {
    const t = withOpenNarrows(
      ALL,
      GENERAL_KEY,
      PLANNING,
      narrowKey(topicNarrow(GENERAL, 'roadmap')),
    );
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'planning')),
      messageEvent(channelMessage(103, GENERAL, 'planning')),
    );
    t.apply(
      moveEvent({
        messageIds: [102, 103],
        streamId: GENERAL,
        origTopic: 'planning',
        newTopic: 'roadmap',
        propagateMode: 'change_later',
      }),
    );
    expect(t.ids(PLANNING)).toEqual([101]);
    expect(t.ids(narrowKey(topicNarrow(GENERAL, 'roadmap')))).toEqual([102, 103]);
    expect(t.ids(GENERAL_KEY)).toEqual([101, 102, 103]);
    const moved = t.account().messages.byId.get(102)!;
    expect(moved.subject).toBe('roadmap');
    expect(moved.last_moved_timestamp).toBe(1_795_400_000);
  });

  it('moves messages to another channel: channel name and lists follow', () => {
    const designKey = narrowKey(channelNarrow(DESIGN));
    const t = withOpenNarrows(GENERAL_KEY, designKey, DESIGN_LOGO);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'logo')),
      messageEvent(channelMessage(102, GENERAL, 'logo')),
    );
    t.apply(
      moveEvent({
        messageIds: [101, 102],
        streamId: GENERAL,
        origTopic: 'logo',
        newStreamId: DESIGN,
      }),
    );
    expect(t.ids(GENERAL_KEY)).toEqual([]);
    expect(t.ids(designKey)).toEqual([101, 102]);
    expect(t.ids(DESIGN_LOGO)).toEqual([101, 102]);
    const m = t.account().messages.byId.get(101)!;
    expect(m.type === 'stream' && m.stream_id).toBe(DESIGN);
    expect(m.display_recipient).toBe('design');
  });

  it('resolving a topic moves its messages to the ✔ topic but is not counted as a move', () => {
    const resolved = narrowKey(topicNarrow(GENERAL, '✔ planning'));
    const isResolved = narrowKey([{ operator: 'is', operand: 'resolved' }]);
    const t = withOpenNarrows(PLANNING, resolved, isResolved);
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning')));
    t.apply(
      moveEvent({
        messageIds: [101],
        streamId: GENERAL,
        origTopic: 'planning',
        newTopic: '✔ planning',
      }),
    );
    expect(t.ids(PLANNING)).toEqual([]);
    expect(t.ids(resolved)).toEqual([101]);
    expect(t.ids(isResolved)).toEqual([101]);
    expect(t.account().messages.byId.get(101)!.last_moved_timestamp).toBeUndefined();
    // Unresolve brings it back.
    t.apply(
      moveEvent({
        messageIds: [101],
        streamId: GENERAL,
        origTopic: '✔ planning',
        newTopic: 'planning',
      }),
    );
    expect(t.ids(PLANNING)).toEqual([101]);
    expect(t.ids(isResolved)).toEqual([]);
  });

  it('does not insert a moved-in message outside a list’s loaded range', () => {
    const t = setupStore();
    t.store
      .getState()
      .mergeFetchedMessages('a', PLANNING, [channelMessage(500, GENERAL, 'planning')], {
        foundOldest: false,
        foundNewest: true,
        anchor: 'newest',
      });
    t.apply(messageEvent(channelMessage(100, RANDOM, 'planning')));
    t.apply(
      moveEvent({
        messageIds: [100],
        streamId: RANDOM,
        origTopic: 'planning',
        newStreamId: GENERAL,
      }),
    );
    expect([...t.account().narrows.lists.get(PLANNING)!.ids]).toEqual([500]);
  });
});

describe('deletes, reactions and flags', () => {
  it('bulk-deletes from messages and every list; unknown ids are ignored', () => {
    const t = withOpenNarrows(ALL, GENERAL_KEY);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'planning')),
    );
    t.apply({
      id: eventId(),
      type: 'delete_message',
      message_ids: [101, 999],
      message_type: 'stream',
      stream_id: GENERAL,
      topic: 'planning',
    });
    expect(t.ids(ALL)).toEqual([102]);
    expect(t.ids(GENERAL_KEY)).toEqual([102]);
    expect(t.account().messages.byId.has(101)).toBe(false);
  });

  it('adds a reaction once and removes it once; unknown messages are ignored', () => {
    const t = withOpenNarrows(ALL);
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning')));
    const reaction = {
      type: 'reaction' as const,
      message_id: 101,
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji' as const,
      user_id: FARID,
    };
    t.apply({ id: eventId(), op: 'add', ...reaction }, { id: eventId(), op: 'add', ...reaction });
    expect(t.account().messages.byId.get(101)!.reactions).toHaveLength(1);
    t.apply({ id: eventId(), op: 'add', ...reaction, message_id: 999 });
    t.apply(
      { id: eventId(), op: 'remove', ...reaction },
      { id: eventId(), op: 'remove', ...reaction },
    );
    expect(t.account().messages.byId.get(101)!.reactions).toEqual([]);
  });

  it('updates flags, including all-read, and keeps is:starred lists in step', () => {
    const t = withOpenNarrows(STARRED);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(directMessage(102, [EMMA])),
    );
    t.apply({
      id: eventId(),
      type: 'update_message_flags',
      op: 'add',
      flag: 'starred',
      messages: [101, 999],
      all: false,
    });
    expect(t.account().messages.byId.get(101)!.flags).toContain('starred');
    expect(t.ids(STARRED)).toEqual([101]);
    t.apply({
      id: eventId(),
      type: 'update_message_flags',
      op: 'remove',
      flag: 'starred',
      messages: [101],
      all: false,
    });
    expect(t.ids(STARRED)).toEqual([]);
    t.apply({
      id: eventId(),
      type: 'update_message_flags',
      op: 'add',
      flag: 'read',
      messages: [],
      all: true,
    });
    expect([...t.account().messages.byId.values()].every((m) => m.flags.includes('read'))).toBe(
      true,
    );
  });
});

describe('mute and follow changes', () => {
  it('re-filter in:home and is:followed lists when topics or channels are muted, unmuted or followed', () => {
    const home = narrowKey([{ operator: 'in', operand: 'home' }]);
    const followed = narrowKey([{ operator: 'is', operand: 'followed' }]);
    const t = withOpenNarrows(home, followed, ALL);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'lunch')),
      messageEvent(channelMessage(103, DESIGN, 'logo')),
    );
    expect(t.ids(home)).toEqual([101, 102, 103]);
    const userTopic = (
      stream_id: number,
      topic_name: string,
      visibility_policy: 0 | 1 | 2 | 3,
    ): ServerEvent => ({
      id: eventId(),
      type: 'user_topic',
      stream_id,
      topic_name,
      last_updated: 1,
      visibility_policy,
    });
    t.apply(userTopic(GENERAL, 'lunch', 1));
    expect(t.ids(home)).toEqual([101, 103]);
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'update',
      stream_id: DESIGN,
      property: 'is_muted',
      value: true,
    });
    expect(t.ids(home)).toEqual([101]);
    t.apply(userTopic(DESIGN, 'logo', 3), userTopic(GENERAL, 'lunch', 0));
    expect(t.ids(home)).toEqual([101, 102, 103]);
    expect(t.ids(followed)).toEqual([103]);
    expect(t.ids(ALL)).toEqual([101, 102, 103]);
  });
});

describe('history pages', () => {
  it('extends a list with contiguous pages and keeps the stored version of known messages', () => {
    const t = setupStore();
    const s = t.store.getState();
    const dmKey = narrowKey(dmNarrow([EMMA]));
    s.mergeFetchedMessages('a', dmKey, [directMessage(300, [EMMA]), directMessage(310, [EMMA])], {
      foundOldest: false,
      foundNewest: true,
      anchor: 'newest',
    });
    // A live edit arrives, then an older page that overlaps with a stale copy of 300.
    t.apply({
      id: eventId(),
      type: 'update_message',
      user_id: EMMA,
      rendering_only: false,
      message_id: 300,
      message_ids: [300],
      flags: [],
      edit_timestamp: 5,
      content: 'new',
      rendered_content: '<p>new</p>',
    });
    const stale = { ...directMessage(300, [EMMA]), flags: [] as never[] };
    s.mergeFetchedMessages('a', dmKey, [directMessage(280, [EMMA]), stale], {
      foundOldest: true,
      foundNewest: false,
      anchor: 300,
    });
    const list = t.account().narrows.lists.get(dmKey)!;
    expect([...list.ids]).toEqual([280, 300, 310]);
    expect(list.foundOldest && list.foundNewest).toBe(true);
    expect(t.account().messages.byId.get(300)!.rendered_content).toBe('<p>new</p>');
    // Later events keep the fetched list current.
    t.apply(
      messageEvent(directMessage(320, [EMMA])),
      messageEvent(directMessage(321, [EMMA, SELF, FARID])),
    );
    expect([...t.account().narrows.lists.get(dmKey)!.ids]).toEqual([280, 300, 310, 320]);
  });

  it('replaces the list when a page jumps to a far anchor', () => {
    const t = setupStore();
    const s = t.store.getState();
    s.mergeFetchedMessages('a', GENERAL_KEY, [channelMessage(900, GENERAL, 'a')], {
      foundOldest: false,
      foundNewest: true,
      anchor: 'newest',
    });
    s.mergeFetchedMessages(
      'a',
      GENERAL_KEY,
      [channelMessage(10, GENERAL, 'a'), channelMessage(11, GENERAL, 'a')],
      { foundOldest: true, foundNewest: false, anchor: 10 },
    );
    const list = t.account().narrows.lists.get(GENERAL_KEY)!;
    expect([...list.ids]).toEqual([10, 11]);
    expect(list.foundNewest).toBe(false);
  });

  it('lets a list be closed', () => {
    const t = withOpenNarrows(ALL);
    t.store.getState().closeNarrow('a', ALL);
    expect(t.account().narrows.lists.has(ALL)).toBe(false);
  });
});
