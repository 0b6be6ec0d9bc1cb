// @vitest-environment node
// The store as a whole: one update per batch, accounts kept apart, snapshot replacement, local echo,
// and record identity (what keeps re-renders local).
import { describe, expect, it } from 'vitest';
import {
  createChatStore,
  selectActiveAccount,
  selectOutboxForNarrow,
} from '../../../renderer/store';
import type { ServerEvent } from '../../../shared/api/events';
import { ALL_MESSAGES, channelNarrow, dmNarrow, narrowKey } from '../../../shared/narrow';
import {
  channelMessage,
  directMessage,
  eventId,
  messageEvent,
  readEvent,
  register,
  setupStore,
  unreadMsgs,
  DESIGN,
  EMMA,
  GENERAL,
  SELF,
} from './fixtures';

const ALL = narrowKey(ALL_MESSAGES);

describe('applyEventBatch', () => {
  it('applies a whole batch as one store update', () => {
    const t = setupStore();
    let updates = 0;
    t.store.subscribe(() => updates++);
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, DESIGN, 'logo')),
      readEvent([101]),
      { id: eventId(), type: 'user_status', user_id: EMMA, status_text: 'away' },
      { id: eventId(), type: 'heartbeat' },
    );
    expect(updates).toBe(1);
    expect(t.account().messages.byId.size).toBe(2);
  });

  it('replaces only the slices a batch changed, and only the records that changed', () => {
    const t = setupStore();
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'planning')),
    );
    const before = t.account();
    const m101 = before.messages.byId.get(101);
    const m102 = before.messages.byId.get(102);
    t.apply({
      id: eventId(),
      type: 'reaction',
      op: 'add',
      message_id: 101,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
      user_id: EMMA,
    });
    const after = t.account();
    expect(after.messages).not.toBe(before.messages);
    expect(after.messages.version).toBe(before.messages.version + 1);
    expect(after.users).toBe(before.users);
    expect(after.channels).toBe(before.channels);
    expect(after.unreads).toBe(before.unreads);
    expect(after.messages.byId.get(102)).toBe(m102);
    expect(after.messages.byId.get(101)).not.toBe(m101);
    expect(after.messages.byId.get(101)?.reactions).toHaveLength(1);
  });

  it('leaves earlier snapshots of a list untouched when later batches append to it', () => {
    const t = setupStore();
    t.store.getState().mergeFetchedMessages('a', ALL, [], { foundOldest: true, foundNewest: true });
    t.apply(
      messageEvent(channelMessage(1, GENERAL, 'x')),
      messageEvent(channelMessage(2, GENERAL, 'x')),
    );
    const first = t.account().narrows.lists.get(ALL)!;
    t.apply(
      messageEvent(channelMessage(3, GENERAL, 'x')),
      messageEvent(channelMessage(4, DESIGN, 'y')),
      messageEvent(channelMessage(5, GENERAL, 'x')),
    );
    const second = t.account().narrows.lists.get(ALL)!;
    t.apply(messageEvent(channelMessage(6, GENERAL, 'x')));
    expect([...first.ids]).toEqual([1, 2]);
    expect(first.ids.toArray()).toEqual([1, 2]);
    expect([...second.ids]).toEqual([1, 2, 3, 4, 5]);
    expect([...t.account().narrows.lists.get(ALL)!.ids]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(second).not.toBe(first);
  });

  it('skips events it has already applied (re-delivery after a lost acknowledgement)', () => {
    const t = setupStore({
      unread_msgs: unreadMsgs({
        streams: [{ stream_id: GENERAL, topic: 'planning', unread_message_ids: [5] }],
      }),
    });
    const markUnread: ServerEvent = {
      id: eventId(),
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [5],
      all: false,
      message_details: { '5': { type: 'stream', stream_id: GENERAL, topic: 'planning' } },
    };
    const markRead = readEvent([5]);
    markUnread.id = eventId(); // after markRead
    t.apply(markRead, markUnread);
    const state = t.account();
    t.apply(markRead); // an old event id again
    expect(t.account().unreads).toBe(state.unreads);
    expect(t.account().unreads.locations.has(5)).toBe(true);
  });

  it('ignores batches for accounts it does not know', () => {
    const store = createChatStore();
    store.getState().applyEventBatch('nobody', [messageEvent(channelMessage(1, GENERAL, 'x'))]);
    expect(store.getState().accounts).toEqual({});
  });
});

describe('accounts', () => {
  it('keeps each account’s state apart and selects an active account', () => {
    const store = createChatStore();
    const s = store.getState();
    s.replaceSnapshot('work', register());
    s.replaceSnapshot('home', register({ user_id: EMMA }));
    expect(store.getState().activeAccountId).toBe('work');
    s.applyEventBatch('home', [messageEvent(directMessage(7, [SELF]), [])]);
    expect(store.getState().accounts.home.messages.byId.has(7)).toBe(true);
    expect(store.getState().accounts.work.messages.byId.has(7)).toBe(false);
    s.setActiveAccount('home');
    expect(store.getState().activeAccountId).toBe('home');
    s.removeAccount('home');
    expect(store.getState().activeAccountId).toBe('work');
    expect(store.getState().accounts.home).toBeUndefined();
  });

  it('holds the active account main chose before its state arrives', () => {
    const store = createChatStore();
    const s = store.getState();
    s.replaceSnapshot('work', register());
    // Just signed in: main made the new account active; its snapshot is still on the way.
    s.setActiveAccount('new');
    expect(store.getState().activeAccountId).toBe('new');
    expect(selectActiveAccount(store.getState())).toBeUndefined();
    s.replaceSnapshot('new', register({ user_id: EMMA }));
    expect(store.getState().activeAccountId).toBe('new');
    expect(selectActiveAccount(store.getState())?.selfUserId).toBe(EMMA);
  });

  it('tracks the connection state', () => {
    const t = setupStore();
    expect(t.account().connection.status).toBe('connected');
    t.clock.now += 500;
    t.store
      .getState()
      .setConnectionState('a', { status: 'reconnecting', error: 'BAD_EVENT_QUEUE_ID' });
    expect(t.account().connection).toMatchObject({
      status: 'reconnecting',
      error: 'BAD_EVENT_QUEUE_ID',
      since: t.clock.now,
    });
  });
});

describe('replaceSnapshot after a lost queue', () => {
  it('replaces realm state and history but keeps unsent messages and local drafts', () => {
    const t = setupStore();
    const s = t.store.getState();
    s.mergeFetchedMessages('a', ALL, [channelMessage(1, GENERAL, 'x')], {
      foundOldest: true,
      foundNewest: true,
    });
    s.addLocalEcho('a', {
      localId: 'l1',
      destination: { type: 'stream', streamId: GENERAL, topic: 'x' },
      content: 'unsent',
    });
    s.markLocalEchoFailed('a', 'l1', 'network down');
    s.setLocalDraft('a', 'compose:general', {
      type: 'stream',
      to: [GENERAL],
      topic: 'x',
      content: 'typing…',
    });
    t.apply({ id: eventId(), type: 'user_status', user_id: EMMA, status_text: 'stale' });
    const generation = t.account().generation;

    s.replaceSnapshot(
      'a',
      register({
        last_event_id: 41,
        unread_msgs: unreadMsgs({
          mentions: [],
          streams: [{ stream_id: GENERAL, topic: 'x', unread_message_ids: [9] }],
        }),
      }),
    );
    const a = t.account();
    expect(a.generation).toBe(generation + 1);
    expect(a.lastEventId).toBe(41);
    expect(a.statuses.byUser.has(EMMA)).toBe(false);
    expect(a.messages.byId.size).toBe(0);
    expect(a.narrows.lists.size).toBe(0);
    expect(a.unreads.locations.has(9)).toBe(true);
    expect(a.outbox.byLocalId.get('l1')).toMatchObject({ status: 'failed', content: 'unsent' });
    expect(a.drafts.local.get('compose:general')?.content).toBe('typing…');
  });
});

describe('local echo', () => {
  it('shows a pending message in matching narrows until the server’s message replaces it', () => {
    const t = setupStore();
    const s = t.store.getState();
    s.mergeFetchedMessages('a', ALL, [], { foundOldest: true, foundNewest: true });
    s.addLocalEcho('a', {
      localId: 'l1',
      destination: { type: 'stream', streamId: GENERAL, topic: 'planning' },
      content: 'hi',
    });
    s.addLocalEcho('a', {
      localId: 'l2',
      destination: { type: 'private', to: [EMMA] },
      content: 'psst',
    });
    expect(
      selectOutboxForNarrow(t.account(), narrowKey(channelNarrow(GENERAL))).map((e) => e.localId),
    ).toEqual(['l1']);
    expect(
      selectOutboxForNarrow(t.account(), narrowKey(dmNarrow([EMMA]))).map((e) => e.localId),
    ).toEqual(['l2']);
    expect(selectOutboxForNarrow(t.account(), narrowKey(channelNarrow(DESIGN)))).toEqual([]);

    let updates = 0;
    t.store.subscribe(() => updates++);
    t.apply(
      messageEvent(channelMessage(300, GENERAL, 'planning', { sender: SELF }), ['read'], 'l1'),
    );
    expect(updates).toBe(1);
    expect(t.account().outbox.byLocalId.has('l1')).toBe(false);
    expect([...t.account().narrows.lists.get(ALL)!.ids]).toEqual([300]);
  });

  it('marks a failed send, retries, and drops a sent one when its message arrives by id', () => {
    const t = setupStore();
    const s = t.store.getState();
    s.addLocalEcho('a', {
      localId: 'l3',
      destination: { type: 'stream', streamId: GENERAL, topic: 'x' },
      content: 'retry me',
    });
    s.markLocalEchoFailed('a', 'l3', 'HTTP 502');
    expect(t.account().outbox.byLocalId.get('l3')).toMatchObject({
      status: 'failed',
      error: 'HTTP 502',
    });
    s.markLocalEchoPending('a', 'l3');
    s.markLocalEchoSent('a', 'l3', 400);
    expect(t.account().outbox.byLocalId.get('l3')).toMatchObject({
      status: 'sent',
      messageId: 400,
    });
    // The event comes on a new queue (after a re-register), so without local_message_id.
    t.apply(messageEvent(channelMessage(400, GENERAL, 'x', { sender: SELF }), ['read']));
    expect(t.account().outbox.byLocalId.size).toBe(0);
  });

  it('removes the echo at once when the message event arrived before POST /messages answered', () => {
    const t = setupStore();
    const s = t.store.getState();
    s.addLocalEcho('a', {
      localId: 'l4',
      destination: { type: 'private', to: [EMMA] },
      content: 'fast',
    });
    t.apply(messageEvent(directMessage(401, [EMMA], { sender: SELF }), ['read']));
    s.markLocalEchoSent('a', 'l4', 401);
    expect(t.account().outbox.byLocalId.size).toBe(0);
  });
});
