// The sidebar's counts come from the store's unread state: channels, topics (muted ones excluded),
// direct messages, mentions; and they move when events mark messages read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Sidebar } from '../../../renderer/features/sidebar/Sidebar';
import { navigate, uiStore } from '../../../renderer/store/ui-store';
import { channelNarrow, dmNarrow, topicNarrow } from '../../../shared/narrow';
import { act } from 'react';
import {
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  RANDOM,
  readEvent,
  register,
  setupStore,
  unreadMsgs,
} from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi } from './harness';
import { channelMatchesFilter } from '../../../renderer/features/sidebar/sidebar-model';
import { VIRTUALIZE_FROM } from '../../../renderer/features/sidebar/ChannelList';

beforeEach(() => {
  resetUi('a');
  installFakeApi();
});
afterEach(cleanup);

function setup() {
  const base = register();
  const ctx = setupStore({
    unread_msgs: unreadMsgs({
      streams: [
        { stream_id: GENERAL, topic: 'lunch', unread_message_ids: [101, 102, 103] },
        { stream_id: GENERAL, topic: 'muted topic', unread_message_ids: [104, 105] },
        { stream_id: DESIGN, topic: 'logo', unread_message_ids: [201] },
      ],
      pms: [{ other_user_id: EMMA, sender_id: EMMA, unread_message_ids: [301, 302] }],
      mentions: [102],
    }),
    user_topics: [
      ...base.user_topics,
      { stream_id: GENERAL, topic_name: 'muted topic', last_updated: 1, visibility_policy: 1 },
    ],
  });
  render(
    <Providers store={ctx.store}>
      <Sidebar accountId="a" />
    </Providers>,
  );
  return ctx;
}

const countOf = (name: RegExp) => {
  const button = screen.getAllByRole('button', { name }).find((b) => b.className.includes('nav'))!;
  return within(button).queryByTestId('unread-count')?.textContent ?? '0';
};

describe('Sidebar', () => {
  it('shows channel, direct-message, mention and inbox counts from the store', () => {
    setup();
    expect(countOf(/^#general/)).toBe('3'); // the muted topic's 2 are left out
    expect(countOf(/^#design/)).toBe('1');
    expect(countOf(/^#random/)).toBe('0');
    expect(countOf(/^Emma Member/)).toBe('2');
    expect(countOf(/^Mentions/)).toBe('1');
    expect(countOf(/^Inbox/)).toBe('6');
    void RANDOM;
  });

  it('lists the open channel topics, marking muted ones and leaving their count out', () => {
    setup();
    act(() => navigate({ kind: 'narrow', narrow: channelNarrow(GENERAL) }));
    const topics = screen.getByRole('list', { name: 'Topics in #general' });
    const lunch = within(topics).getByRole('button', { name: /^lunch/ });
    expect(within(lunch).getByTestId('unread-count').textContent).toBe('3');
    const muted = within(topics).getByRole('button', { name: /^muted topic/ });
    expect(within(muted).getByRole('img', { name: 'Muted' })).toBeTruthy();
    expect(within(muted).queryByTestId('unread-count')).toBeNull();
  });

  it('mutes, unmutes and follows topics from their menu', () => {
    const api = installFakeApi();
    setup();
    act(() => navigate({ kind: 'narrow', narrow: channelNarrow(GENERAL) }));
    const choose = (menu: string, item: string) => {
      fireEvent.click(screen.getByRole('button', { name: menu }));
      fireEvent.click(screen.getByRole('menuitem', { name: item }));
    };
    choose('Topic lunch options', 'Mute topic');
    choose('Topic muted topic options', 'Unmute topic');
    choose('Topic lunch options', 'Follow topic');
    expect(api.setUserTopic.mock.calls.map(([input]) => input)).toEqual([
      { accountId: 'a', streamId: GENERAL, topic: 'lunch', visibilityPolicy: 1 },
      { accountId: 'a', streamId: GENERAL, topic: 'muted topic', visibilityPolicy: 0 },
      { accountId: 'a', streamId: GENERAL, topic: 'lunch', visibilityPolicy: 3 },
    ]);
  });

  it('mutes and pins channels from their menu', () => {
    const api = installFakeApi();
    const ctx = setup();
    const sub = (id: number) => ctx.account().channels.subscriptions.get(id)!;
    const name = `#${sub(GENERAL).name}`;
    const choose = (item: RegExp) => {
      fireEvent.click(screen.getByRole('button', { name: `Channel ${name} options` }));
      fireEvent.click(screen.getByRole('menuitem', { name: item }));
    };
    choose(/mute channel/i);
    choose(/pin channel/i);
    expect(api.updateSubscriptionProperties.mock.calls.map(([input]) => input)).toEqual([
      {
        accountId: 'a',
        changes: [{ streamId: GENERAL, property: 'is_muted', value: !sub(GENERAL).is_muted }],
      },
      {
        accountId: 'a',
        changes: [{ streamId: GENERAL, property: 'pin_to_top', value: !sub(GENERAL).pin_to_top }],
      },
    ]);
  });

  it("lists the channel's topics from the server, beyond those with loaded messages", async () => {
    const api = installFakeApi({
      getStreamTopics: () => ({
        result: 'success',
        msg: '',
        topics: [
          { name: 'old history', max_id: 90 },
          { name: '✔ settled question', max_id: 12 },
        ],
      }),
    });
    setup();
    act(() => navigate({ kind: 'narrow', narrow: channelNarrow(GENERAL) }));
    const topics = screen.getByRole('list', { name: 'Topics in #general' });
    expect(await within(topics).findByRole('button', { name: /^old history/ })).toBeTruthy();
    expect(within(topics).getByRole('button', { name: /^✔ settled question/ })).toBeTruthy();
    // Unread topics from the snapshot are still there, with their counts.
    const lunch = within(topics).getByRole('button', { name: /^lunch/ });
    expect(within(lunch).getByTestId('unread-count').textContent).toBe('3');
    expect(api.getStreamTopics).toHaveBeenCalledWith({ accountId: 'a', streamId: GENERAL });
  });

  it('does not open the clicked channel when the person went elsewhere while its topics loaded', async () => {
    let answer!: (topics: unknown) => void;
    const api = installFakeApi({
      getStreamTopics: () => new Promise((resolve) => (answer = resolve)),
    });
    setup();
    // The default channel view (the top topic) needs the channel's topics first.
    const general = screen
      .getAllByRole('button', { name: /^#general/ })
      .find((b) => b.className.includes('nav'))!;
    fireEvent.click(general);
    await waitFor(() => expect(api.getStreamTopics).toHaveBeenCalled());
    act(() => navigate({ kind: 'narrow', narrow: dmNarrow([EMMA]) }));
    await act(async () =>
      answer({ result: 'success', msg: '', topics: [{ name: 'lunch', max_id: 103 }] }),
    );
    expect(uiStore.getState().route).toEqual({ kind: 'narrow', narrow: dmNarrow([EMMA]) });

    // Left alone, the same click opens the channel's top topic.
    act(() => navigate({ kind: 'inbox' }));
    fireEvent.click(general);
    await waitFor(() =>
      expect(uiStore.getState().route).toEqual({
        kind: 'narrow',
        narrow: topicNarrow(GENERAL, 'lunch'),
      }),
    );
  });

  it('updates the counts when messages are marked read', () => {
    const { apply } = setup();
    act(() => apply(readEvent([101, 102, 301])));
    expect(countOf(/^#general/)).toBe('1');
    expect(countOf(/^Emma Member/)).toBe('1');
    expect(countOf(/^Mentions/)).toBe('0');
    expect(countOf(/^Inbox/)).toBe('3');
  });

  it('lists direct-message conversations from the snapshot whose messages are not loaded', () => {
    const ctx = setupStore({
      recent_private_conversations: [
        { max_message_id: 40, user_ids: [FARID] },
        { max_message_id: 90, user_ids: [EMMA, FARID] },
      ],
    });
    render(
      <Providers store={ctx.store}>
        <Sidebar accountId="a" />
      </Providers>,
    );
    const section = screen.getByRole('region', { name: 'Direct messages' });
    const names = within(section)
      .getAllByRole('button')
      .map((b) => b.textContent ?? '');
    const farid = ctx.account().users.users.get(FARID)!.full_name;
    const emma = ctx.account().users.users.get(EMMA)!.full_name;
    // Newest conversation first.
    expect(names[0]).toContain(emma);
    expect(names[0]).toContain(farid);
    expect(names[1]).toContain(farid);
    expect(names[1]).not.toContain(emma);
  });

  it('highlights the open view: the channel, then one of its topics, then a conversation', () => {
    setup();
    const nav = (name: RegExp) =>
      screen.getAllByRole('button', { name }).find((b) => b.className.includes('nav'))!;
    const active = () =>
      [...document.querySelectorAll('.sidebar button.nav.active')].map(
        (b) => b.querySelector('.name')?.textContent,
      );
    act(() => navigate({ kind: 'narrow', narrow: channelNarrow(GENERAL) }));
    expect(active()).toEqual(['#general']);
    act(() => navigate({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') }));
    expect(active()).toEqual(['lunch']);
    expect(nav(/#general/).className).not.toContain('active');
    act(() => navigate({ kind: 'narrow', narrow: dmNarrow([EMMA]) }));
    expect(active()).toEqual([register().realm_users.find((u) => u.user_id === EMMA)!.full_name]);
    act(() => navigate({ kind: 'inbox' }));
    expect(active()).toEqual(['Inbox']);
  });
});

describe('Sidebar channel filter', () => {
  const channelNames = () =>
    [...document.querySelectorAll('.sidebar li.channel .name')].map((n) => n.textContent);

  it('matches the start of the name or of one of its words, ignoring case', () => {
    expect(channelMatchesFilter('design-team', 'des')).toBe(true);
    expect(channelMatchesFilter('design-team', 'TEAM')).toBe(true);
    expect(channelMatchesFilter('design-team', 'sign')).toBe(false);
    expect(channelMatchesFilter('Release notes', 'not')).toBe(true);
    expect(channelMatchesFilter('general', '  ')).toBe(true);
  });

  it('shows only the matching channels while it holds text, and all of them again on Escape', () => {
    setup();
    const all = channelNames();
    expect(all.length).toBeGreaterThan(1);
    const filter = screen.getByRole('searchbox', { name: 'Filter sidebar channels' });
    fireEvent.change(filter, { target: { value: 'gen' } });
    expect(channelNames()).toEqual(['#general']);
    fireEvent.change(filter, { target: { value: 'zzz' } });
    expect(channelNames()).toEqual([]);
    fireEvent.keyDown(filter, { key: 'Escape' });
    expect((filter as HTMLInputElement).value).toBe('');
    expect(channelNames()).toEqual(all);
  });

  it('renders a long channel list in part, and filters it as a whole', () => {
    const restore = fakeLayout();
    try {
      const { count } = renderManyChannels();
      const rendered = channelNames();
      expect(rendered.length).toBeGreaterThan(0);
      expect(rendered.length).toBeLessThan(count);
      expect(rendered[0]).toBe('#team-000');
      // Scrolling the sidebar brings later rows in and takes the first ones out.
      const sidebar = screen.getByRole('navigation', { name: 'Conversations' });
      act(() => sidebar.scrollTo({ top: 60 * 200 }));
      const scrolled = channelNames();
      expect(scrolled).not.toContain('#team-000');
      expect(Number(scrolled[0]?.slice('#team-'.length))).toBeGreaterThan(100);
      act(() => sidebar.scrollTo({ top: 0 }));
      // The filter looks through every subscription, not only the rendered rows.
      fireEvent.change(screen.getByRole('searchbox', { name: 'Filter sidebar channels' }), {
        target: { value: 'team-29' },
      });
      // (Still a virtualized list: the ten matches from the top, as many as the viewport holds.)
      const matches = channelNames();
      expect(matches[0]).toBe('#team-290');
      expect(matches.every((name) => /^#team-29\d$/.test(name ?? ''))).toBe(true);
    } finally {
      restore();
    }
  });

  it('lays out no row as it comes into view while filtering (its height comes after layout)', () => {
    const restore = fakeLayout();
    // Every read of a row's offsetHeight: a forced layout of the whole page in a keystroke.
    const faked = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
    let rowReads = 0;
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        if (this.matches('li.channel')) rowReads += 1;
        return faked.get!.call(this) as number;
      },
    });
    try {
      renderManyChannels();
      const filter = screen.getByRole('searchbox', { name: 'Filter sidebar channels' });
      for (const value of ['t', 'te', 'team-1', 'team-2', 'team-29'])
        fireEvent.change(filter, { target: { value } });
      expect(channelNames()[0]).toBe('#team-290');
      expect(rowReads).toBe(0);
    } finally {
      Object.defineProperty(HTMLElement.prototype, 'offsetHeight', faked);
      restore();
    }
  });

  it('gives the rows in view new channels in place as the filter narrows, their counts live', () => {
    const restore = fakeLayout();
    try {
      // #team-250 has 2 unread messages; #team-000, in the first row before filtering, has none.
      const { apply } = renderManyChannels([
        { stream_id: 5250, topic: 'plans', unread_message_ids: [901, 902] },
      ]);
      const rows = () => [...document.querySelectorAll('.virtual-rows > li.channel')];
      const before = rows();
      expect(channelNames()[0]).toBe('#team-000');
      const filter = screen.getByRole('searchbox', { name: 'Filter sidebar channels' });
      for (const value of ['team-2', 'team-25']) fireEvent.change(filter, { target: { value } });
      expect(channelNames()[0]).toBe('#team-250');
      // The same elements, not new ones: a keystroke changes their text rather than mounting rows.
      const after = rows();
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((row) => before.includes(row))).toBe(true);
      expect(after[0]).toBe(before[0]);
      expect(after[0].getAttribute('data-testid')).toBe('channel-team-250');
      expect(countOf(/^#team-250/)).toBe('2');
      expect(countOf(/^#team-251/)).toBe('0');
      // The reused row's count follows its new channel's unreads.
      act(() => apply(readEvent([901])));
      expect(countOf(/^#team-250/)).toBe('1');
    } finally {
      restore();
    }
  });
});

/**
 * A sidebar with enough channels (#team-000, #team-001, ...) to be virtualized, with these unread
 * messages; returns how many channels, and the store's apply for events.
 */
function renderManyChannels(streams: Parameters<typeof unreadMsgs>[0]['streams'] = []) {
  const template = register().subscriptions[0];
  const count = VIRTUALIZE_FROM + 200;
  const subscriptions = Array.from({ length: count }, (_, i) => ({
    ...template,
    stream_id: 5000 + i,
    name: `team-${String(i).padStart(3, '0')}`,
    pin_to_top: false,
    is_muted: false,
  }));
  const ctx = setupStore({ subscriptions, unread_msgs: unreadMsgs({ streams }) });
  render(
    <Providers store={ctx.store}>
      <Sidebar accountId="a" />
    </Providers>,
  );
  return { count, apply: ctx.apply };
}
