// @vitest-environment node
// Unread counts: from the register snapshot, new messages, read/unread flags, moves, deletes,
// muted channels and topics.
import { describe, expect, it } from 'vitest';
import { selectUnreadCounts } from '../../../renderer/store';
import { narrowKey } from '../../../shared/narrow';
import {
  channelMessage,
  directMessage,
  eventId,
  messageEvent,
  moveEvent,
  readEvent,
  setupStore,
  unreadMsgs,
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  RANDOM,
  SELF,
} from './fixtures';

const snapshotUnreads = unreadMsgs({
  count: 6,
  streams: [
    { stream_id: GENERAL, topic: 'planning', unread_message_ids: [10, 11] },
    { stream_id: GENERAL, topic: 'lunch', unread_message_ids: [12] },
    { stream_id: DESIGN, topic: 'logo', unread_message_ids: [13] },
  ],
  pms: [{ other_user_id: EMMA, unread_message_ids: [14] }],
  huddles: [{ user_ids_string: `${SELF},${EMMA},${FARID}`, unread_message_ids: [15] }],
  mentions: [11, 15],
});

function counts(t: ReturnType<typeof setupStore>) {
  return selectUnreadCounts(t.account());
}

describe('unread counts', () => {
  it('are built from unread_msgs per channel, topic, DM conversation and mentions', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    const c = counts(t);
    expect(c.total).toBe(6);
    expect(c.channels.get(GENERAL)?.count).toBe(3);
    expect(c.channels.get(GENERAL)?.topics.get('planning')?.count).toBe(2);
    expect(c.dms.get(String(EMMA))).toBe(1);
    expect(c.dms.get(`${EMMA},${FARID}`)).toBe(1);
    expect(c.mentions).toBe(2);
  });

  it('take an id listed twice once, in the conversation listed last, losing none after it', () => {
    const t = setupStore({
      unread_msgs: unreadMsgs({
        count: 5,
        streams: [
          // 20 twice in one topic (which it alone would empty and drop on the move); 24 moves.
          { stream_id: GENERAL, topic: 'planning', unread_message_ids: [20, 20, 21, 24] },
          { stream_id: DESIGN, topic: 'logo', unread_message_ids: [22, 24] },
        ],
        pms: [{ other_user_id: EMMA, unread_message_ids: [23] }],
        huddles: [],
        mentions: [],
      }),
    });
    const c = counts(t);
    expect(c.total).toBe(5);
    expect(c.channels.get(GENERAL)?.topics.get('planning')?.count).toBe(2);
    expect(c.channels.get(DESIGN)?.topics.get('logo')?.count).toBe(2);
    expect(c.dms.get(String(EMMA))).toBe(1);
  });

  it('exclude muted channels and muted topics from totals, but not unmuted topics of muted channels', () => {
    const t = setupStore({
      unread_msgs: snapshotUnreads,
      user_topics: [
        { stream_id: GENERAL, topic_name: 'Lunch', last_updated: 1, visibility_policy: 1 },
      ],
    });
    expect(counts(t).total).toBe(5);
    expect(counts(t).channels.get(GENERAL)?.countIncludingMuted).toBe(3);
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'update',
      stream_id: DESIGN,
      property: 'is_muted',
      value: true,
    });
    expect(counts(t).total).toBe(4);
    expect(counts(t).channels.get(DESIGN)?.count).toBe(0);
    t.apply({
      id: eventId(),
      type: 'user_topic',
      stream_id: DESIGN,
      topic_name: 'logo',
      last_updated: 2,
      visibility_policy: 2,
    });
    expect(counts(t).total).toBe(5);
  });

  it('count new unread messages once, even if delivered twice, and never count read ones', () => {
    const t = setupStore();
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning'), ['mentioned']),
      messageEvent(channelMessage(102, GENERAL, 'planning'), ['read']),
    );
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning'), ['mentioned']));
    expect(counts(t).total).toBe(1);
    expect(counts(t).mentions).toBe(1);
    // Read, then a late duplicate delivery must not make it unread again.
    t.apply(readEvent([101]));
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning')));
    expect(counts(t).total).toBe(0);
  });

  it('never count the user’s own messages as unread', () => {
    const t = setupStore();
    t.apply(messageEvent(directMessage(150, [EMMA], { sender: SELF }), []));
    expect(counts(t).total).toBe(0);
  });

  it('mark read and unread again, locating messages from message_details', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    t.apply(readEvent([10, 11, 14, 999]));
    expect(counts(t).total).toBe(3);
    expect(counts(t).mentions).toBe(1);
    t.apply({
      id: eventId(),
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [11, 14],
      all: false,
      message_details: {
        '11': { type: 'stream', stream_id: GENERAL, topic: 'planning', mentioned: true },
        '14': { type: 'private', user_ids: [EMMA] },
      },
    });
    expect(counts(t).channels.get(GENERAL)?.topics.get('planning')?.count).toBe(1);
    expect(counts(t).dms.get(String(EMMA))).toBe(1);
    expect(counts(t).mentions).toBe(2);
    t.apply({
      id: eventId(),
      type: 'update_message_flags',
      op: 'add',
      flag: 'read',
      messages: [],
      all: true,
    });
    expect(counts(t).total).toBe(0);
    expect(counts(t).mentions).toBe(0);
  });

  it('move with their messages between topics and channels (also for messages not in the store)', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    t.apply(
      moveEvent({
        messageIds: [11],
        streamId: GENERAL,
        origTopic: 'planning',
        newTopic: 'roadmap',
        propagateMode: 'change_one',
      }),
    );
    expect(counts(t).channels.get(GENERAL)?.topics.get('planning')?.count).toBe(1);
    expect(counts(t).channels.get(GENERAL)?.topics.get('roadmap')?.count).toBe(1);
    t.apply(
      moveEvent({
        messageIds: [10, 12],
        streamId: GENERAL,
        origTopic: 'planning',
        newStreamId: RANDOM,
      }),
    );
    expect(counts(t).channels.get(RANDOM)?.count).toBe(2);
    expect(counts(t).channels.get(RANDOM)?.topics.get('planning')?.count).toBe(1);
    expect(counts(t).channels.get(GENERAL)?.count).toBe(1);
    expect(counts(t).total).toBe(6);
  });

  it('follow a topic being resolved', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    t.apply(
      moveEvent({
        messageIds: [10, 11],
        streamId: GENERAL,
        origTopic: 'planning',
        newTopic: '✔ planning',
      }),
    );
    const general = counts(t).channels.get(GENERAL)!;
    expect(general.topics.has('planning')).toBe(false);
    expect(general.topics.get('✔ planning')?.count).toBe(2);
  });

  it('drop deleted messages', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    t.apply({
      id: eventId(),
      type: 'delete_message',
      message_ids: [13, 15],
      message_type: 'stream',
    });
    expect(counts(t).channels.has(DESIGN)).toBe(false);
    expect(counts(t).dms.has(`${EMMA},${FARID}`)).toBe(false);
    expect(counts(t).mentions).toBe(1);
  });

  it('leave with the channel the user unsubscribes from', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'remove',
      subscriptions: [{ stream_id: GENERAL, name: 'general' }],
    });
    const c = counts(t);
    expect(c.channels.has(GENERAL)).toBe(false);
    // Other channels and direct messages keep theirs; the mention in #general goes with it.
    expect(c.channels.get(DESIGN)?.count).toBe(1);
    expect(c.total).toBe(3);
    expect(c.mentions).toBe(1);
    expect(t.account().unreads.locations.has(10)).toBe(false);
    // A message read later in another client changes nothing more.
    t.apply(readEvent([10]));
    expect(counts(t).total).toBe(3);
  });

  it('count DMs in one conversation whichever way participants are listed', () => {
    const t = setupStore();
    t.apply(
      messageEvent(directMessage(201, [EMMA, FARID])),
      messageEvent(directMessage(202, [FARID, EMMA], { sender: FARID })),
    );
    expect(counts(t).dms.get(`${EMMA},${FARID}`)).toBe(2);
  });

  it('are the same object until unreads, subscriptions or user topics change', () => {
    const t = setupStore({ unread_msgs: snapshotUnreads });
    const first = counts(t);
    t.apply({ id: eventId(), type: 'user_status', user_id: EMMA, status_text: 'lunch' });
    expect(counts(t)).toBe(first);
    t.apply(messageEvent(channelMessage(300, GENERAL, 'planning')));
    expect(counts(t)).not.toBe(first);
  });
});

describe('an open is:unread list', () => {
  // What users expect (and the web app does): messages read while the view is open stay in it, so
  // the list does not jump under the reader; re-entering the view shows only what is still unread.
  const UNREAD = narrowKey([{ operator: 'is', operand: 'unread' }]);

  it('keeps messages read while it is open, and drops them when entered again', () => {
    const t = setupStore({
      unread_msgs: unreadMsgs({
        streams: [
          { stream_id: GENERAL, topic: 'planning', unread_message_ids: [101] },
          { stream_id: DESIGN, topic: 'logo', unread_message_ids: [102] },
        ],
      }),
    });
    const s = t.store.getState();
    const page = [channelMessage(101, GENERAL, 'planning'), channelMessage(102, DESIGN, 'logo')];
    s.mergeFetchedMessages('a', UNREAD, page, { foundOldest: true, foundNewest: true });
    t.apply(readEvent([101]));
    const list = () => [...(t.account().narrows.lists.get(UNREAD)?.ids ?? [])];
    expect(list()).toEqual([101, 102]);
    expect(t.account().messages.byId.get(101)?.flags).toContain('read');
    expect(counts(t).total).toBe(1);
    // A new unread message still joins the open list.
    t.apply(messageEvent(channelMessage(103, GENERAL, 'planning')));
    expect(list()).toEqual([101, 102, 103]);

    // Entering the view again fetches it afresh: the server leaves out what was read.
    s.closeNarrow('a', UNREAD);
    const stillUnread = [102, 103].map((id) => t.account().messages.byId.get(id)!);
    s.mergeFetchedMessages('a', UNREAD, stillUnread, { foundOldest: true, foundNewest: true });
    expect(list()).toEqual([102, 103]);
  });
});
