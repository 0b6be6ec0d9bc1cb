// The message store against the real local realm server: the server's own events (a new message, a
// content edit, a move of one message to another topic, a reaction, a star, a poll vote, a deletion,
// marking everything read) are applied to the cached messages as they arrive, so after the app is
// restarted with the server gone the cache shows the server's current state, narrow by narrow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import type { NarrowTerm } from '../../shared/narrow';
import type { TestServer } from '../support/server';
import type { FaultProxy } from './support/fault-proxy';
import { eventually, startMain, type MainHarness } from './support/harness';
import { realmThroughProxy } from './support/through-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let main: MainHarness;

realmThroughProxy((env) => ({ realm, proxy } = env));
beforeAll(async () => {
  // Background sync stays out of the way: this file is about events.
  main = await startMain({
    site: proxy.url,
    user: realm.users.owner,
    syncOptions: { startDelayMs: 3_600_000 },
  });
});
afterAll(async () => {
  await main?.close();
});

const newest = { anchor: 'newest' as const, numBefore: 50, numAfter: 0 };

describe('events applied to the cached messages', () => {
  it('keeps the cache equal to the server through edits, moves, reactions, flags, votes and deletions', async () => {
    const snapshot = await main.live();
    const streamId = snapshot.register.subscriptions[0].stream_id;
    const topic = `store ${Date.now()}`;
    const send = async (content: string, to = topic) =>
      (
        await main.services.handlers.sendMessage({
          accountId: main.accountId,
          message: { type: 'channel', to: streamId, topic: to, content },
        })
      ).messageId!;
    const narrowOf = (name: string): NarrowTerm[] => [
      { operator: 'channel', operand: streamId },
      { operator: 'topic', operand: name },
    ];
    const get = (narrow: NarrowTerm[]) =>
      main.services.handlers.getMessages({ accountId: main.accountId, narrow, ...newest });

    const [first, second, poll] = [
      await send('the first words'),
      await send('the second words'),
      await send('/poll Lunch?\nPizza\nSalad'),
    ];
    // Opened once: the whole conversation is in the cache, complete to its newest message.
    expect((await get(narrowOf(topic))).messages.map((m) => m.id)).toEqual([first, second, poll]);

    const other = realm.client('owner'); // another device of the same person
    const session = main.services.session(main.accountId);
    const seen = (match: (e: ServerEvent) => boolean) =>
      eventually(() => (session.getSnapshot().events.some(match) ? true : undefined));

    expect((await other.patch(`/messages/${first}`, { content: 'edited words' })).status).toBe(200);
    expect(
      (
        await other.patch(`/messages/${second}`, {
          topic: `${topic} moved`,
          propagate_mode: 'change_one',
        })
      ).status,
    ).toBe(200);
    expect(
      (await other.post(`/messages/${second}/reactions`, { emoji_name: 'smile' })).status,
    ).toBe(200);
    expect(
      (await other.post('/messages/flags', { messages: [poll], op: 'add', flag: 'starred' }))
        .status,
    ).toBe(200);
    const vote = JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 });
    expect(
      (await other.post('/submessage', { message_id: poll, msg_type: 'widget', content: vote }))
        .status,
    ).toBe(200);
    const doomed = await send('soon gone');
    const later = await send('a newer message');
    expect((await other.delete(`/messages/${doomed}`)).status).toBe(200);
    expect((await other.post('/mark_all_as_read')).status).toBe(200);
    await seen((e) => e.type === 'delete_message' && e.message_ids.includes(doomed));
    await seen((e) => e.type === 'update_message_flags' && e.flag === 'read' && e.all);

    // The app restarts with the server gone: everything comes from the cache.
    await proxy.refuseConnections();
    await main.restart();
    const restarted = main.services.session(main.accountId);
    await eventually(() => (restarted.connection.status === 'backoff' ? true : undefined));

    const conversation = await get(narrowOf(topic));
    expect(conversation).toMatchObject({ from_cache: true, offline_coverage: 'synced' });
    expect(conversation.messages.map((m) => m.id)).toEqual([first, poll, later]);
    const byId = new Map(conversation.messages.map((m) => [m.id, m]));
    expect(byId.get(first)!.content).toContain('edited words');
    expect(byId.get(first)!.last_edit_timestamp).toBeGreaterThan(0);
    expect(byId.get(poll)!.flags).toContain('starred');
    expect(byId.get(poll)!.submessages.map((s) => JSON.parse(s.content))).toContainEqual(
      JSON.parse(vote),
    );
    expect(conversation.messages.every((m) => m.flags.includes('read'))).toBe(true);

    const moved = await get(narrowOf(`${topic} moved`));
    // The moved message, and the notice the server posted beside it.
    expect(moved.messages.map((m) => m.id)[0]).toBe(second);
    expect(moved.messages[1].content).toContain('was moved here');
    expect(moved.messages[0].reactions.map((r) => r.emoji_name)).toEqual(['smile']);
    // Only one message of it is known: the moved-to topic may hold more than the cache has.
    expect(moved.offline_coverage).toBe('partial');

    const starred = await get([{ operator: 'is', operand: 'starred' }]);
    expect(starred.messages.map((m) => m.id)).toEqual([poll]);
    const reacted = await get([
      { operator: 'channel', operand: streamId },
      { operator: 'has', operand: 'reaction' },
    ]);
    expect(reacted.messages.map((m) => m.id)).toContain(second);
    const unread = await get([{ operator: 'is', operand: 'unread' }]);
    expect(unread.messages).toEqual([]);
    const found = await get([{ operator: 'search', operand: 'edited' }]);
    expect(found.messages.map((m) => m.id)).toEqual([first]);
    const gone = await get([{ operator: 'search', operand: 'gone' }]);
    expect(gone.messages).toEqual([]);
    const never = await get(narrowOf('a topic nobody opened'));
    expect(never).toMatchObject({ messages: [], offline_coverage: 'never' });
    await proxy.acceptConnections();
  });
});
