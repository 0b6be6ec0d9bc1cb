// Keyboard shortcuts in the whole app (App on a fake bridge): c and x from views without compose,
// Esc closing an open menu before going back, arrow keys then r, / and Ctrl+K (search), Ctrl+Shift+K (the switcher); and `n` choosing the
// next unread topic in sidebar order after the open one (`p` the next direct message); and the web
// app's keys that act on the selected message (j/k, Ctrl+S, +, Shift+M, s, Shift+R), q/w and the
// view keys, checked against the requests the bridge receives.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { navigate, uiStore, type Route } from '../../../renderer/store/ui-store';
import { useShortcuts } from '../../../renderer/shell/shortcuts';
import { dmNarrow, narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';
import type { RegisterResponse } from '../../../shared/api/types';
import {
  channelMessage,
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  RANDOM,
  register,
  SELF,
  setupStore,
  unreadMsgs,
} from '../store/fixtures';
import {
  fakeLayout,
  installFakeApi,
  liveAppAnswers,
  Providers,
  QUIET_MAIN_ANSWERS,
  resetUi,
} from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

/** The app on a bridge whose snapshot is the demo register and whose history is `messages`. */
async function startApp(messageIds: number[] = [], userSettings: Record<string, unknown> = {}) {
  const base = register();
  const snapshot = () => ({ ...base, user_settings: { ...base.user_settings, ...userSettings } });
  const messages = messageIds.map((id) => ({
    ...channelMessage(id, GENERAL, 'lunch'),
    flags: ['read'],
  }));
  const bridge = installFakeApi({
    ...liveAppAnswers(snapshot),
    getMessages: (input) => ({
      ...(QUIET_MAIN_ANSWERS.getMessages(input) as object),
      messages,
    }),
  });
  uiStore.setState({ accountsLoaded: false });
  render(<App store={createChatStore()} />);
  await screen.findByRole('navigation', { name: 'Conversations' });
  return bridge;
}

const go = (route: Route) => act(() => navigate(route));

/**
 * What r (or Enter) does with message `id` of general > lunch in All messages, as in the public web
 * app: the view stays, the message stays selected, and compose opens focused on its topic.
 */
async function expectReplyAt(id: number) {
  expect(uiStore.getState().route).toMatchObject({ kind: 'narrow', narrow: [] });
  expect(uiStore.getState().selectedMessageId).toBe(id);
  const message = await screen.findByRole('textbox', { name: 'Message' });
  await waitFor(() => expect(document.activeElement).toBe(message));
  expect((screen.getByRole('combobox', { name: 'Topic' }) as HTMLInputElement).value).toBe('lunch');
  expect((screen.getByRole('combobox', { name: 'Channel' }) as HTMLSelectElement).value).toBe(
    String(GENERAL),
  );
}
const routeKey = () => {
  const route = uiStore.getState().route;
  return route.kind === 'narrow' ? narrowKey(route.narrow) : route.kind;
};

describe('c and x outside a conversation', () => {
  it('c in the inbox reopens the last topic visited with compose pointed at it', async () => {
    await startApp();
    go({ kind: 'narrow', narrow: topicNarrow(DESIGN, 'mockups') });
    go({ kind: 'narrow', narrow: dmNarrow([EMMA]) });
    go({ kind: 'inbox' });
    await screen.findByRole('heading', { name: 'Inbox' });
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(routeKey()).toBe(narrowKey(topicNarrow(DESIGN, 'mockups')));
    const topic = await screen.findByRole('combobox', { name: 'Topic' });
    await waitFor(() => expect(document.activeElement).toBe(topic));
    expect((topic as HTMLInputElement).value).toBe('mockups');
  });

  it('c in settings with no channel visited opens all messages with a channel compose', async () => {
    await startApp();
    go({ kind: 'settings' });
    // Settings is a lazily loaded chunk: its first import (transformed on demand) can take seconds.
    await screen.findByRole('heading', { name: 'Settings' }, { timeout: 15_000 });
    fireEvent.keyDown(document.body, { key: 'c' });
    await waitFor(() => expect(routeKey()).toBe(narrowKey([])));
    const topic = await screen.findByRole('combobox', { name: 'Topic' });
    await waitFor(() => expect(document.activeElement).toBe(topic));
  });

  it('x in drafts opens a new direct message with no recipients, whatever was visited', async () => {
    await startApp();
    go({ kind: 'narrow', narrow: dmNarrow([FARID]) });
    go({ kind: 'drafts' });
    await screen.findByRole('heading', { name: 'Drafts' });
    fireEvent.keyDown(document.body, { key: 'x' });
    expect(routeKey()).toBe(narrowKey([]));
    const recipients = await screen.findByRole('combobox', { name: 'Recipients' });
    await waitFor(() => expect(document.activeElement).toBe(recipients));
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
  });
});

describe('Esc', () => {
  it('closes an open message menu and returns focus to its button, without going back', async () => {
    await startApp([101, 102]);
    go({ kind: 'inbox' });
    go({ kind: 'narrow', narrow: [] });
    const rows = await screen.findAllByTestId('message');
    fireEvent.pointerEnter(rows[0]);
    const trigger = within(rows[0]).getByRole('button', { name: 'Message actions' });
    fireEvent.click(trigger);
    const menu = screen.getByRole('menu', { name: 'Message actions' });
    const item = within(menu).getAllByRole('menuitem')[0];
    item.focus();
    fireEvent.keyDown(item, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    // The menu gives the focus back as it unmounts.
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(routeKey()).toBe(narrowKey([]));
    // With nothing open, Esc goes to the home view (the demo's: the inbox).
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(routeKey()).toBe('inbox');
  });

  it("closes a sidebar channel's menu the same way", async () => {
    await startApp();
    go({ kind: 'inbox' });
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    const trigger = screen.getByRole('button', { name: 'Channel #design options' });
    fireEvent.click(trigger);
    const menu = screen.getByRole('menu', { name: 'Channel #design options' });
    const item = within(menu).getAllByRole('menuitem')[0];
    item.focus();
    fireEvent.keyDown(item, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch')));
  });

  it('closes the conversation switcher opened with Ctrl+Shift+K before going back', async () => {
    await startApp();
    go({ kind: 'inbox' });
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    fireEvent.keyDown(document.body, { key: 'K', ctrlKey: true, shiftKey: true });
    // Its code loads when first opened (renderer/shell/lazy-views.ts).
    expect(await screen.findByRole('dialog', { name: 'Switch conversation' })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch')));
  });

  it('over Settings, ignores the chat’s letters and closes Settings on Esc from anywhere', async () => {
    await startApp();
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    go({ kind: 'settings' });
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(document.body, { key: 'a' });
    fireEvent.keyDown(document.body, { key: 't' });
    expect(uiStore.getState().route.kind).toBe('settings');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch'))));
  });

  it('with nothing open goes to the home view the person chose, and nowhere if they said so', async () => {
    await startApp([], { web_home_view: 'recent' });
    go({ kind: 'inbox' });
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(routeKey()).toBe('recent');
    cleanup();
    resetUi('a');
    await startApp([], { web_escape_navigates_to_home_view: false });
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch')));
  });

  it('closes the shortcut help dialog and gives the focus back to what had it', async () => {
    await startApp();
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    const before = screen.getByRole('button', { name: 'Channel #design options' });
    before.focus();
    fireEvent.keyDown(before, { key: '?' });
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    // The focus is trapped inside: it starts on the dialog's first control.
    await waitFor(() => expect(help.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(before));
    expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch')));
  });
});

describe('arrow keys, r and /', () => {
  it('arrow keys select messages and r replies to the selected one in its conversation', async () => {
    await startApp([101, 102, 103]);
    const list = await screen.findByRole('list', { name: 'Messages' });
    await screen.findAllByTestId('message');
    list.focus();
    fireEvent.keyDown(list, { key: 'Home' });
    expect(uiStore.getState().selectedMessageId).toBe(101);
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(uiStore.getState().selectedMessageId).toBe(102);
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    expect(uiStore.getState().selectedMessageId).toBe(101);
    fireEvent.keyDown(list, { key: 'r' });
    await expectReplyAt(101);
  });

  it('/ and Ctrl+K (the web app’s second search key, from a field too) focus the search box', async () => {
    await startApp();
    const search = screen.getByRole('combobox', { name: 'Search messages' });
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(search);
    search.blur();
    const filter = screen.getByRole('searchbox', { name: 'Filter sidebar channels' });
    filter.focus();
    fireEvent.keyDown(filter, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(search);
    expect(screen.queryByRole('dialog', { name: 'Switch conversation' })).toBeNull();
  });
});

function Shortcuts({ store }: { store: ChatStore }) {
  useShortcuts(store, { current: null });
  return null;
}

/** `key` pressed in `from`; the narrow it opened (or null when it stayed). */
function pressN(store: ChatStore, from: Narrow | null, key = 'n'): Narrow | null {
  act(() =>
    uiStore.setState({
      route: from ? { kind: 'narrow', narrow: from } : { kind: 'inbox' },
      previous: [],
    }),
  );
  fireEvent.keyDown(document.body, { key, shiftKey: key !== key.toLowerCase() });
  const route = uiStore.getState().route;
  return route.kind === 'narrow' && (!from || narrowKey(route.narrow) !== narrowKey(from))
    ? route.narrow
    : null;
}

describe('n: next unread topic', () => {
  // Sidebar order of the demo channels: announcements, design, general, leadership, random.
  // Unread: design > mockups (40), general > lunch (50, newest topic of general),
  // general > plans (30), random > later (60).
  function setup(overrides: Partial<RegisterResponse> = {}) {
    installFakeApi();
    const ctx = setupStore({
      unread_msgs: unreadMsgs({
        streams: [
          { stream_id: DESIGN, topic: 'mockups', unread_message_ids: [40] },
          { stream_id: GENERAL, topic: 'lunch', unread_message_ids: [50] },
          { stream_id: GENERAL, topic: 'plans', unread_message_ids: [30] },
          { stream_id: RANDOM, topic: 'later', unread_message_ids: [60] },
        ],
        pms: [{ other_user_id: EMMA, unread_message_ids: [70] }],
      }),
      ...overrides,
    });
    render(
      <Providers store={ctx.store}>
        <Shortcuts store={ctx.store} />
      </Providers>,
    );
    return ctx.store;
  }

  it('goes to the next topic in the same channel, then the next channels, wrapping around', () => {
    const store = setup();
    expect(pressN(store, topicNarrow(GENERAL, 'lunch'))).toEqual(topicNarrow(GENERAL, 'plans'));
    expect(pressN(store, topicNarrow(GENERAL, 'plans'))).toEqual(topicNarrow(RANDOM, 'later'));
    expect(pressN(store, topicNarrow(RANDOM, 'later'))).toEqual(topicNarrow(DESIGN, 'mockups'));
    expect(pressN(store, topicNarrow(DESIGN, 'mockups'))).toEqual(topicNarrow(GENERAL, 'lunch'));
    // From outside a channel: the first unread topic in sidebar order.
    expect(pressN(store, null)).toEqual(topicNarrow(DESIGN, 'mockups'));
  });

  it('wraps to the topics before the open one in its own channel last', () => {
    const store = setup({
      unread_msgs: unreadMsgs({
        streams: [
          { stream_id: GENERAL, topic: 'lunch', unread_message_ids: [50] },
          { stream_id: GENERAL, topic: 'plans', unread_message_ids: [30] },
        ],
      }),
    });
    expect(pressN(store, topicNarrow(GENERAL, 'plans'))).toEqual(topicNarrow(GENERAL, 'lunch'));
  });

  it('skips muted topics and muted channels', () => {
    const demo = register();
    const store = setup({
      subscriptions: demo.subscriptions.map((s) =>
        s.stream_id === RANDOM ? { ...s, is_muted: true } : s,
      ),
      user_topics: [
        { stream_id: GENERAL, topic_name: 'plans', last_updated: 1, visibility_policy: 1 },
      ],
    });
    expect(pressN(store, topicNarrow(GENERAL, 'lunch'))).toEqual(topicNarrow(DESIGN, 'mockups'));
  });

  it('goes to unread direct messages when no other topic is unread', () => {
    const store = setup({
      unread_msgs: unreadMsgs({
        streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [50] }],
        pms: [{ other_user_id: EMMA, unread_message_ids: [70] }],
      }),
    });
    expect(pressN(store, topicNarrow(GENERAL, 'lunch'))).toEqual(dmNarrow([EMMA]));
    expect(pressN(store, dmNarrow([EMMA]))).toEqual(topicNarrow(GENERAL, 'lunch'));
  });

  it('goes on to the next direct-message conversation, however the open one lists its people', () => {
    const store = setup({
      unread_msgs: unreadMsgs({
        streams: [],
        pms: [
          { other_user_id: EMMA, unread_message_ids: [70] },
          { other_user_id: FARID, unread_message_ids: [65] },
        ],
      }),
    });
    expect(pressN(store, dmNarrow([EMMA]))).toEqual(dmNarrow([FARID]));
    // A link or search may name the user too: still Emma's conversation, so Farid's comes next.
    expect(pressN(store, dmNarrow([SELF, EMMA]))).toEqual(dmNarrow([FARID]));
    expect(pressN(store, dmNarrow([FARID]))).toEqual(dmNarrow([EMMA]));
  });

  it('Shift+N goes through unread followed topics only', () => {
    const store = setup({
      user_topics: [
        { stream_id: GENERAL, topic_name: 'plans', last_updated: 1, visibility_policy: 3 },
        { stream_id: RANDOM, topic_name: 'later', last_updated: 1, visibility_policy: 3 },
      ],
    });
    expect(pressN(store, topicNarrow(DESIGN, 'mockups'), 'N')).toEqual(
      topicNarrow(GENERAL, 'plans'),
    );
    expect(pressN(store, topicNarrow(GENERAL, 'plans'), 'N')).toEqual(topicNarrow(RANDOM, 'later'));
    expect(pressN(store, topicNarrow(RANDOM, 'later'), 'N')).toEqual(topicNarrow(GENERAL, 'plans'));
  });

  it('p goes through unread direct messages only, from a topic as from a conversation', () => {
    const store = setup({
      unread_msgs: unreadMsgs({
        streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [50] }],
        pms: [
          { other_user_id: EMMA, unread_message_ids: [70] },
          { other_user_id: FARID, unread_message_ids: [65] },
        ],
      }),
    });
    expect(pressN(store, topicNarrow(GENERAL, 'lunch'), 'p')).toEqual(dmNarrow([EMMA]));
    expect(pressN(store, dmNarrow([EMMA]), 'p')).toEqual(dmNarrow([FARID]));
    expect(pressN(store, dmNarrow([FARID]), 'p')).toEqual(dmNarrow([EMMA]));
  });
});

describe("the web app's message keys", () => {
  /** The app in all messages with 101-103 (general > lunch, from Emma) listed. */
  async function inAllMessages() {
    const bridge = await startApp([101, 102, 103]);
    await screen.findAllByTestId('message');
    return bridge;
  }
  const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
    fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
  const selected = () => uiStore.getState().selectedMessageId;

  it('j and k move the selection from anywhere, and put the focus on the list', async () => {
    await inAllMessages();
    (document.activeElement as HTMLElement | null)?.blur();
    // Nothing selected: from the last message in view, as the arrow keys start.
    press('j');
    expect(selected()).toBe(103);
    expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Messages' }));
    press('k');
    expect(selected()).toBe(102);
    press('k');
    press('k');
    expect(selected()).toBe(101);
    press('G', { shiftKey: true });
    expect(selected()).toBe(103);
    // Typed into a field they are letters.
    const search = screen.getByRole('combobox', { name: 'Search messages' });
    search.focus();
    fireEvent.keyDown(search, { key: 'k' });
    expect(selected()).toBe(103);
  });

  it('Ctrl+S stars, + reacts with 👍 and Shift+M mutes the topic of the selected message', async () => {
    const bridge = await inAllMessages();
    press('k');
    expect(selected()).toBe(102);
    press('s', { ctrlKey: true });
    expect(bridge.updateFlags).toHaveBeenCalledWith(
      expect.objectContaining({ messages: [102], op: 'add', flag: 'starred' }),
    );
    press('+');
    expect(bridge.addReaction).toHaveBeenCalledWith(
      expect.objectContaining({ messageId: 102, emojiCode: '1f44d', emojiName: '+1' }),
    );
    // M without Shift (Caps Lock) is not Shift+M.
    press('M');
    expect(bridge.setUserTopic).not.toHaveBeenCalled();
    press('M', { shiftKey: true });
    expect(bridge.setUserTopic).toHaveBeenCalledWith(
      expect.objectContaining({ streamId: GENERAL, topic: 'lunch', visibilityPolicy: 1 }),
    );
    // Nothing acts behind a dialog (the help's own keys, the image viewer's + and -).
    press('?');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    press('+');
    expect(bridge.addReaction).toHaveBeenCalledTimes(1);
    press('?');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('s opens the selected message’s topic, then its channel', async () => {
    await inAllMessages();
    press('k');
    press('s');
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(GENERAL, 'lunch'),
      anchor: 102,
    });
    press('s');
    expect(routeKey()).toBe(narrowKey([{ operator: 'channel', operand: GENERAL }]));
  });

  it('Shift+R replies to the sender directly', async () => {
    await inAllMessages();
    press('k');
    press('R', { shiftKey: true });
    // As in the public web app, the view stays; compose is addressed to the sender.
    expect(routeKey()).toBe(narrowKey([]));
    const message = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(document.activeElement).toBe(message));
    expect(screen.getByRole('button', { name: /^Remove .+/ }).getAttribute('aria-label')).toBe(
      `Remove ${channelMessage(102, GENERAL, 'lunch').sender_full_name}`,
    );
  });

  it('@ replies in the conversation mentioning the sender', async () => {
    await inAllMessages();
    press('k');
    press('@');
    expect(routeKey()).toBe(narrowKey([]));
    const message = await screen.findByRole('textbox', { name: 'Message' });
    const name = channelMessage(102, GENERAL, 'lunch').sender_full_name;
    await waitFor(() =>
      expect((message as HTMLTextAreaElement).value).toBe(`@**${name}|${EMMA}** `),
    );
  });

  it('Enter on the message list replies to the selected message, as r does', async () => {
    await inAllMessages();
    press('k');
    const list = screen.getByRole('list', { name: 'Messages' });
    expect(document.activeElement).toBe(list);
    fireEvent.keyDown(list, { key: 'Enter' });
    await expectReplyAt(102);
  });

  it("u shows the selected message's sender card", async () => {
    await inAllMessages();
    press('k');
    press('u');
    expect(uiStore.getState().overlay).toMatchObject({ kind: 'user', userId: EMMA });
  });

  it('q and w go to the channel filter and the people search', async () => {
    await startApp();
    press('q');
    expect(document.activeElement).toBe(
      screen.getByRole('searchbox', { name: 'Filter sidebar channels' }),
    );
    (document.activeElement as HTMLElement).blur();
    press('w');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search people' })),
    );
  });

  it('views: Shift+I inbox, t recent, a all messages, * starred, Shift+P direct messages, d drafts and back', async () => {
    await startApp();
    press('I', { shiftKey: true });
    expect(routeKey()).toBe('inbox');
    press('t');
    expect(routeKey()).toBe('recent');
    press('*');
    expect(routeKey()).toBe(narrowKey([{ operator: 'is', operand: 'starred' }]));
    press('P', { shiftKey: true });
    expect(routeKey()).toBe(narrowKey([{ operator: 'is', operand: 'dm' }]));
    press('a');
    expect(routeKey()).toBe(narrowKey([]));
    press('d');
    expect(routeKey()).toBe('drafts');
    press('d');
    expect(routeKey()).toBe(narrowKey([]));
  });

  it('t in Recent conversations puts the keyboard in its filter box, as the web app does', async () => {
    await startApp();
    go({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    press('t');
    expect(routeKey()).toBe('recent');
    const filter = await screen.findByRole('searchbox', {
      name: 'Filter conversations by channel, topic or people',
    });
    expect(document.activeElement).not.toBe(filter);
    press('t');
    await waitFor(() => expect(document.activeElement).toBe(filter));
    // Still the one visit: back leaves Recent conversations.
    expect(routeKey()).toBe('recent');
    expect(uiStore.getState().previous.filter((r) => r.kind === 'recent')).toEqual([]);
  });
});
