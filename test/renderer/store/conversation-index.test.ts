// @vitest-environment node
// The per-conversation indexes the sidebar reads (messages.conversations, the unread buckets'
// newest ids) must never drift from the stored messages and unreads they summarise. Random event
// sequences (new, duplicate and fetched messages, moves, resolves, deletes, read/unread changes,
// snapshots, unsubscribes, channel deletes and renames) are applied to the real store, and after
// every step the indexes and the sidebar's topic and conversation lists are compared with a
// brute-force recompute over every stored message (the sidebar's former algorithm).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountState } from '../../../renderer/store';
import {
  selectChannelTopics,
  selectDmConversations,
  type ServerTopic,
} from '../../../renderer/features/sidebar/sidebar-model';
import { dmConversationKey, isTopicResolved, unresolvedTopicName } from '../../../shared/narrow';
import type { ServerEvent } from '../../../shared/api/events';
import type { UnreadMessages } from '../../../shared/api/types';
import {
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  GUS,
  RANDOM,
  SELF,
  channelMessage,
  directMessage,
  eventId,
  messageEvent,
  moveEvent,
  readEvent,
  register,
  setupStore,
  unreadMsgs,
} from './fixtures';

const CHANNELS = [GENERAL, DESIGN, RANDOM];
const TOPICS = ['lunch', 'Lunch', 'plans', '✔ plans', ''];
const DM_PEERS = [[EMMA], [FARID], [EMMA, FARID], [], [GUS, EMMA]];
const SERVER_TOPICS: readonly ServerTopic[] = [
  { name: 'plans', max_id: 7 },
  { name: 'archive', max_id: 3 },
];

type Action =
  | { kind: 'message'; at: number; dm: boolean; unread: boolean; fromSelf: boolean }
  | { kind: 'duplicate'; pick: number; at: number; dm: boolean }
  | { kind: 'fetch'; at: number; dm: boolean; count: number; below: number }
  | { kind: 'move'; pick: number; count: number; to: number; channel: boolean; extra: number }
  | { kind: 'resolve'; pick: number }
  | { kind: 'delete'; picks: number[] }
  | { kind: 'read'; picks: number[]; unread: boolean }
  | { kind: 'readAll' }
  | { kind: 'snapshot'; picks: number[]; at: number }
  | { kind: 'unsubscribe' | 'deleteChannel' | 'rename'; at: number };

const nat = fc.nat({ max: 1000 });
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('message' as const),
      at: nat,
      dm: fc.boolean(),
      unread: fc.boolean(),
      fromSelf: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('duplicate' as const), pick: nat, at: nat, dm: fc.boolean() }),
  fc.record({
    kind: fc.constant('fetch' as const),
    at: nat,
    dm: fc.boolean(),
    count: fc.integer({ min: 1, max: 4 }),
    below: fc.integer({ min: 0, max: 30 }),
  }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      pick: nat,
      count: fc.integer({ min: 1, max: 5 }),
      to: nat,
      channel: fc.boolean(),
      extra: nat,
    }),
  },
  fc.record({ kind: fc.constant('resolve' as const), pick: nat }),
  fc.record({ kind: fc.constant('delete' as const), picks: fc.array(nat, { maxLength: 3 }) }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      picks: fc.array(nat, { minLength: 1, maxLength: 4 }),
      unread: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('readAll' as const) }),
  fc.record({
    kind: fc.constant('snapshot' as const),
    picks: fc.array(nat, { maxLength: 6 }),
    at: nat,
  }),
  fc.record({
    kind: fc.constantFrom('unsubscribe' as const, 'deleteChannel' as const, 'rename' as const),
    at: nat,
  }),
);

/** The sidebar's former topic list: every stored message of the channel scanned. */
function bruteTopics(
  account: AccountState,
  streamId: number,
  serverTopics: readonly ServerTopic[],
) {
  const topics = new Map<string, { name: string; lastId: number; unread: number }>();
  const put = (name: string, lastId: number, unread: number) => {
    const key = name.toLowerCase();
    const t = topics.get(key);
    if (t) {
      t.lastId = Math.max(t.lastId, lastId);
      t.unread += unread;
    } else topics.set(key, { name, lastId, unread });
  };
  for (const t of serverTopics) put(t.name, t.max_id, 0);
  for (const m of account.messages.byId.values())
    if (m.type === 'stream' && m.stream_id === streamId) put(m.subject, m.id, 0);
  for (const [name, { ids }] of account.unreads.streams.get(streamId) ?? [])
    put(name, Math.max(...ids), ids.size);
  return normalize(
    [...topics].map(([key, t]) => ({
      key,
      lastId: t.lastId,
      unread: t.unread,
      resolved: isTopicResolved(t.name),
    })),
  );
}

/** The sidebar's former conversation list: every stored direct message scanned. */
function bruteDms(account: AccountState) {
  const self = account.selfUserId;
  const convs = new Map<string, { lastId: number; unread: number }>();
  const put = (key: string, lastId: number, unread: number) => {
    const c = convs.get(key);
    if (c) {
      c.lastId = Math.max(c.lastId, lastId);
      c.unread += unread;
    } else convs.set(key, { lastId, unread });
  };
  for (const r of account.recentConversations)
    put(dmConversationKey(r.user_ids, self), r.max_message_id, 0);
  for (const m of account.messages.byId.values())
    if (m.type === 'private')
      put(
        dmConversationKey(
          m.display_recipient.map((r) => r.id),
          self,
        ),
        m.id,
        0,
      );
  for (const [key, { ids }] of account.unreads.dms) put(key, Math.max(...ids), ids.size);
  return normalize([...convs].map(([key, c]) => ({ key, ...c })));
}

/**
 * Newest first; ties (and which spelling of a topic differing only in case is shown) depend on
 * arrival order, which the two computations see differently, so they are compared by lower-cased
 * key and in key order within a tie.
 */
function normalize<T extends { key: string; lastId: number }>(items: T[]): T[] {
  return items.sort((a, b) => b.lastId - a.lastId || a.key.localeCompare(b.key));
}

function checkIndexes(account: AccountState) {
  // messages.conversations lists exactly the stored messages, each where it says it is.
  const expectedTopics = new Map<string, number[]>();
  const expectedDms = new Map<string, number[]>();
  for (const m of account.messages.byId.values()) {
    const [map, key] =
      m.type === 'stream'
        ? [expectedTopics, `${m.stream_id}\u0000${m.subject}`]
        : [
            expectedDms,
            m.display_recipient
              .map((r) => r.id)
              .sort((a, b) => a - b)
              .join(','),
          ];
    map.set(key, [...(map.get(key) ?? []), m.id]);
  }
  const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
  const actualTopics = new Map<string, number[]>();
  for (const [streamId, topics] of account.messages.conversations.channels) {
    expect(topics.size).toBeGreaterThan(0);
    for (const [topic, ids] of topics) {
      expect(ids.size).toBeGreaterThan(0);
      expect(ids.newest).toBe(Math.max(...ids));
      actualTopics.set(`${streamId}\u0000${topic}`, sorted(ids));
    }
  }
  const actualDms = new Map<string, number[]>();
  for (const [key, ids] of account.messages.conversations.dms) {
    expect(ids.size).toBeGreaterThan(0);
    expect(ids.newest).toBe(Math.max(...ids));
    actualDms.set(key, sorted(ids));
  }
  const sortedEntries = (m: Map<string, number[]>) =>
    [...m]
      .map(([k, ids]) => [k, sorted(ids)])
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
  expect(sortedEntries(actualTopics)).toEqual(sortedEntries(expectedTopics));
  expect(sortedEntries(actualDms)).toEqual(sortedEntries(expectedDms));

  // Each unread bucket knows its newest id.
  for (const topics of account.unreads.streams.values())
    for (const { ids } of topics.values()) expect(ids.newest).toBe(Math.max(...ids));
  for (const { ids } of account.unreads.dms.values()) expect(ids.newest).toBe(Math.max(...ids));

  // And the sidebar lists what the brute force lists.
  for (const streamId of CHANNELS) {
    for (const server of [undefined, SERVER_TOPICS]) {
      const topics = selectChannelTopics(account, streamId, server).map((t) => ({
        key: t.name.toLowerCase(),
        lastId: t.lastId,
        unread: t.unread,
        resolved: t.resolved,
      }));
      expect(normalize(topics)).toEqual(bruteTopics(account, streamId, server ?? []));
    }
  }
  const dms = selectDmConversations(account).map((d) => ({
    key: d.key,
    lastId: d.lastId,
    unread: d.unread,
  }));
  expect(normalize(dms)).toEqual(bruteDms(account));
}

function run(actions: Action[]) {
  const t = setupStore();
  let nextId = 100;
  /** Every id handed out so far (stored or not: reads and deletes may name either). */
  const known: number[] = [];
  const pick = <T>(items: readonly T[], n: number): T | undefined =>
    items.length ? items[n % items.length] : undefined;
  const stored = () => [...t.account().messages.byId.values()];
  const newMessage = (id: number, at: number, dm: boolean, sender?: number) =>
    dm
      ? directMessage(id, pick(DM_PEERS, at)!, sender === undefined ? {} : { sender })
      : channelMessage(id, pick(CHANNELS, at)!, pick(TOPICS, at >> 2)!, {
          sender: sender ?? EMMA,
        });
  const apply = (...events: ServerEvent[]) => t.apply(...events);

  for (const a of actions) {
    switch (a.kind) {
      case 'message': {
        const id = nextId++;
        known.push(id);
        const m = newMessage(id, a.at, a.dm, a.fromSelf ? SELF : undefined);
        apply(messageEvent(m, a.unread && !a.fromSelf ? [] : ['read']));
        break;
      }
      case 'duplicate': {
        // A re-delivered id, possibly with another place than the stored copy has now.
        const id = pick(known, a.pick);
        if (id !== undefined) apply(messageEvent(newMessage(id, a.at, a.dm), ['read']));
        break;
      }
      case 'fetch': {
        // A history page: older ids (some already stored, some not) from one conversation.
        const page = [];
        for (let i = 0; i < a.count; i++) {
          const id = Math.max(1, nextId - 1 - a.below - i * 3);
          page.push({ ...newMessage(id, a.at, a.dm), flags: ['read' as const] });
          if (!known.includes(id)) known.push(id);
        }
        t.store
          .getState()
          .mergeFetchedMessages('a', '[]', page, { foundOldest: false, foundNewest: false });
        break;
      }
      case 'move': {
        const channelMessages = stored().filter((m) => m.type === 'stream');
        const m = pick(channelMessages, a.pick);
        if (!m || m.type !== 'stream') break;
        const sameTopic = channelMessages
          .filter(
            (o) => o.type === 'stream' && o.stream_id === m.stream_id && o.subject === m.subject,
          )
          .map((o) => o.id)
          .slice(0, a.count);
        // Sometimes also an id that is not stored (an unread from the snapshot, say).
        const extra = pick(known, a.extra);
        const ids = extra !== undefined && a.extra % 3 === 0 ? [...sameTopic, extra] : sameTopic;
        const newStreamId = a.channel ? pick(CHANNELS, a.to) : undefined;
        const newTopic = pick(TOPICS, a.to >> 2)!;
        apply(
          moveEvent({
            messageIds: [m.id, ...ids.filter((id) => id !== m.id)],
            streamId: m.stream_id,
            origTopic: m.subject,
            newTopic:
              newTopic === m.subject && newStreamId === undefined ? `${newTopic}!` : newTopic,
            newStreamId,
          }),
        );
        break;
      }
      case 'resolve': {
        const m = pick(
          stored().filter((o) => o.type === 'stream'),
          a.pick,
        );
        if (!m || m.type !== 'stream') break;
        const plain = unresolvedTopicName(m.subject);
        const ids = stored()
          .filter(
            (o) => o.type === 'stream' && o.stream_id === m.stream_id && o.subject === m.subject,
          )
          .map((o) => o.id);
        apply(
          moveEvent({
            messageIds: [m.id, ...ids.filter((id) => id !== m.id)],
            streamId: m.stream_id,
            origTopic: m.subject,
            newTopic: isTopicResolved(m.subject) ? plain : `✔ ${plain}`,
          }),
        );
        break;
      }
      case 'delete': {
        const ids = a.picks.map((p) => pick(known, p)).filter((id) => id !== undefined);
        if (ids.length)
          apply({
            id: eventId(),
            type: 'delete_message',
            message_ids: ids,
            message_type: 'stream',
          });
        break;
      }
      case 'read': {
        const ids = a.picks.map((p) => pick(known, p)).filter((id) => id !== undefined);
        if (ids.length) apply(readEvent(ids, a.unread ? 'remove' : 'add'));
        break;
      }
      case 'readAll':
        apply({
          id: eventId(),
          type: 'update_message_flags',
          op: 'add',
          flag: 'read',
          messages: [],
          all: true,
        });
        break;
      case 'snapshot': {
        // A fresh register: unreads from the server (some ids, anywhere), stored messages gone.
        const streams: UnreadMessages['streams'] = [];
        a.picks.forEach((p, i) => {
          const id = pick(known, p);
          if (id === undefined) return;
          const stream_id = pick(CHANNELS, a.at + i)!;
          const topic = pick(TOPICS, (a.at >> 2) + i)!;
          const entry = streams.find((s) => s.stream_id === stream_id && s.topic === topic);
          if (entry) entry.unread_message_ids.push(id);
          else streams.push({ stream_id, topic, unread_message_ids: [id] });
        });
        t.store.getState().replaceSnapshot(
          'a',
          register({
            unread_msgs: unreadMsgs({
              streams,
              pms: [{ other_user_id: FARID, sender_id: FARID, unread_message_ids: [nextId++] }],
            }),
            recent_private_conversations: [{ user_ids: [EMMA], max_message_id: nextId - 5 }],
          }),
        );
        break;
      }
      case 'unsubscribe': {
        const streamId = pick(CHANNELS, a.at)!;
        apply({
          id: eventId(),
          type: 'subscription',
          op: 'remove',
          subscriptions: [{ stream_id: streamId, name: `channel ${streamId}` }],
        });
        break;
      }
      case 'deleteChannel':
        apply({ id: eventId(), type: 'stream', op: 'delete', stream_ids: [pick(CHANNELS, a.at)!] });
        break;
      case 'rename': {
        const streamId = pick(CHANNELS, a.at)!;
        apply({
          id: eventId(),
          type: 'stream',
          op: 'update',
          stream_id: streamId,
          name: `channel ${streamId}`,
          property: 'name',
          value: `renamed ${a.at}`,
        });
        break;
      }
    }
    checkIndexes(t.account());
  }
}

describe('conversation indexes', () => {
  it('match a brute-force recompute over the stored messages after any event sequence', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { minLength: 1, maxLength: 40 }), (actions) => run(actions)),
      { numRuns: 150 },
    );
  });

  it('keep the sidebar lists the same objects when another conversation changes', () => {
    const t = setupStore();
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'lunch')),
      messageEvent(directMessage(102, [EMMA])),
    );
    const topics = selectChannelTopics(t.account(), GENERAL);
    const dms = selectDmConversations(t.account());
    t.apply(messageEvent(channelMessage(103, DESIGN, 'logo'), ['read']));
    expect(selectChannelTopics(t.account(), GENERAL)).toBe(topics);
    expect(selectDmConversations(t.account())).toBe(dms);
    t.apply(messageEvent(channelMessage(104, GENERAL, 'lunch')));
    const after = selectChannelTopics(t.account(), GENERAL);
    expect(after).not.toBe(topics);
    expect(after).toEqual([expect.objectContaining({ name: 'lunch', lastId: 104, unread: 2 })]);
  });
});
