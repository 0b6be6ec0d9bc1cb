// @vitest-environment node
// A real register response and events from a public server at feature level 372 (older than ours
// in places, newer in others: deprecated muted_topics events, `operation` beside `op`, presence,
// a poll with a vote) through replaceSnapshot and applyEventBatch.
import { describe, expect, it } from 'vitest';
import {
  createChatStore,
  selectUnreadCounts,
  typingKeyForDm,
  type AccountState,
} from '../../../renderer/store';
import type { ServerEvent } from '../../../shared/api/events';
import { fl372Events, fl372Register } from './fixtures/fl372';
import { widgetFromSubmessages } from '../../../shared/widgets/widget';
import type { PollState } from '../../../shared/widgets/poll';

const register = fl372Register();
const events = fl372Events();

const KING_HAMLET = 51;
const IAGO = 52;
const VERONA = 22;

function load(batches: ServerEvent[][]) {
  const store = createChatStore({ now: () => 1_795_504_141_000 });
  store.getState().replaceSnapshot('z', structuredClone(register));
  for (const batch of batches) store.getState().applyEventBatch('z', structuredClone(batch));
  return { store, account: () => store.getState().accounts.z };
}

describe('the register snapshot', () => {
  it('becomes the account state', () => {
    const account = load([]).account();
    expect(account.selfUserId).toBe(KING_HAMLET);
    expect(account.users.users.get(IAGO)?.full_name).toBe('Iago');
    expect(account.channels.subscriptions.get(VERONA)).toMatchObject({
      name: 'Verona',
      pin_to_top: false,
    });
    expect(account.statuses.byUser.get(IAGO)).toBeUndefined();
    expect(selectUnreadCounts(account).total).toBe(register.unread_msgs.count);
  });
});

describe('the events', () => {
  const final = (account: AccountState) => {
    const byId = account.messages.byId;
    expect([...byId.keys()].sort()).toEqual([122, 123, 125]);

    // Edited (content and flags) and then moved to another topic.
    const edited = byId.get(122)!;
    expect(edited.content).toContain('An edited message with');
    expect(edited.content).toContain('class="emoji emoji-1f389"');
    expect(edited).toMatchObject({
      subject: 'fixture capture moved',
      last_edit_timestamp: 1795504139,
      last_moved_timestamp: 1795504139,
      flags: [],
    });
    // The public server's emoji name (an alias of +1) as the reaction's name.
    expect(edited.reactions).toEqual([
      {
        emoji_name: 'thumbs_up',
        emoji_code: '1f44d',
        reaction_type: 'unicode_emoji',
        user_id: IAGO,
      },
    ]);
    expect(byId.get(123)).toMatchObject({
      sender_full_name: 'Notification Bot',
      subject: 'fixture capture moved',
    });

    // The poll: its widget submessage from the message event, the vote from the submessage event.
    const poll = byId.get(125)!;
    expect(poll.submessages.map((s) => [s.id, s.sender_id])).toEqual([
      [1, IAGO],
      [2, IAGO],
    ]);
    const widget = widgetFromSubmessages(poll.sender_id, poll.submessages) as PollState;
    expect(widget.question).toBe('Lunch?');
    expect(widget.options.map((o) => [o.option, o.voters])).toEqual([
      ['Pizza', []],
      ['Salad', [IAGO]],
    ]);

    // The direct message was read, then deleted: gone from messages and unreads.
    expect(account.unreads.locations.has(124)).toBe(false);
    // The edit dropped the mention of King Hamlet.
    expect(account.unreads.mentions.size).toBe(0);
    const counts = selectUnreadCounts(account);
    expect(counts.total).toBe(register.unread_msgs.count + 3);
    expect(counts.mentions).toBe(0);

    expect(account.statuses.byUser.get(IAGO)).toEqual({
      status_text: 'in a meeting',
      emoji_name: 'calendar',
      emoji_code: '1f4c5',
      reaction_type: 'unicode_emoji',
    });
    expect(account.channels.subscriptions.get(VERONA)?.pin_to_top).toBe(true);
    // The followed topic went with the move; unfollowing the old name removed it.
    const verona = account.userTopics.byChannel.get(VERONA)!;
    expect(verona.get('fixture capture')).toBeUndefined();
    expect(verona.get('fixture capture moved')?.visibility_policy).toBe(3);
    // Iago's direct message ended his typing notice.
    expect(account.typing.byConversation.size).toBe(0);
    expect(account.lastEventId).toBe(18);
  };

  it('apply as one batch', () => {
    final(load([events]).account());
  });

  it('apply one event per batch, with the same result', () => {
    final(load(events.map((e) => [e])).account());
  });

  it('show the mention until the edit removes it', () => {
    const upToEdit = events.findIndex((e) => e.type === 'update_message');
    const account = load([events.slice(0, upToEdit)]).account();
    expect(account.unreads.mentions.has(122)).toBe(true);
    expect(account.messages.byId.get(122)!.flags).toEqual(['mentioned']);
  });

  it('show Iago typing to King Hamlet until his direct message arrives', () => {
    const typing = events.findIndex((e) => e.type === 'typing');
    const account = load([events.slice(0, typing + 1)]).account();
    const key = typingKeyForDm([KING_HAMLET, IAGO], KING_HAMLET);
    expect(account.typing.byConversation.get(key)?.has(IAGO)).toBe(true);
  });

  it('change nothing when delivered again', () => {
    const t = load([events]);
    const before = t.account();
    t.store.getState().applyEventBatch('z', structuredClone(events));
    expect(t.account().messages).toBe(before.messages);
    expect(t.account().unreads).toBe(before.unreads);
  });
});
