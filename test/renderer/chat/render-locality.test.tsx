// Re-renders stay local to what changed: with the sidebar and a topic's narrow view (message list
// with reactions, typing line, compose) on screen, events about other conversations re-render
// neither, counted with React's Profiler. Each case also has its counterpart in the open
// conversation, which must re-render, so the counting is shown to see renders at all.
import { Profiler, act, type ProfilerOnRenderCallback } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { Sidebar } from '../../../renderer/features/sidebar/Sidebar';
import { NarrowView } from '../../../renderer/features/messages/NarrowView';
import { createChatStore } from '../../../renderer/store';
import { navigate, uiStore } from '../../../renderer/store/ui-store';
import { topicNarrow } from '../../../shared/narrow';
import type { ServerEvent } from '../../../shared/api/events';
import type { MessageWithFlags } from '../../../shared/api/types';
import {
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  channelMessage,
  eventId,
  messageEvent,
  readEvent,
  register,
  unreadMsgs,
} from '../store/fixtures';
import {
  fakeLayout,
  installFakeApi,
  LIVE_ACCOUNT,
  Providers,
  QUIET_MAIN_ANSWERS,
  resetUi,
} from './harness';

const LUNCH = topicNarrow(GENERAL, 'lunch');

/** Runs timers and effects until nothing has committed for three rounds. */
async function settle(commitCount: () => number) {
  for (let quiet = 0; quiet < 3;) {
    const before = commitCount();
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    quiet = commitCount() === before ? quiet + 1 : 0;
  }
}

/** Three read messages in general > lunch, the middle one with Farid's 👍. */
const lunchPage: MessageWithFlags[] = [101, 102, 103].map((id) => ({
  ...channelMessage(id, GENERAL, 'lunch', { content: `lunch ${id}` }),
  reactions:
    id === 102
      ? [{ emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: FARID }]
      : [],
  flags: ['read'],
}));

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  installFakeApi({
    getMessages: () => ({ messages: lunchPage, found_oldest: true, found_newest: true }),
  });
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const user = (id: number) => ({
  user_id: id,
  email: register().realm_users.find((u) => u.user_id === id)!.email,
});
const typing = (streamId: number, topic: string): ServerEvent => ({
  id: eventId(),
  type: 'typing',
  op: 'start',
  message_type: 'stream',
  sender: user(EMMA),
  stream_id: streamId,
  topic,
});

async function setup() {
  // Typing entries expire by the wall clock the indicator reads, so the store uses it too.
  const store = createChatStore({ now: () => Date.now() });
  store.getState().replaceSnapshot(
    'a',
    register({
      unread_msgs: unreadMsgs({
        streams: [
          { stream_id: DESIGN, topic: 'logo', unread_message_ids: [201, 202] },
          { stream_id: GENERAL, topic: 'dinner', unread_message_ids: [150] },
        ],
      }),
    }),
  );
  navigate({ kind: 'narrow', narrow: LUNCH });
  const commits = { sidebar: 0, narrow: 0 };
  const onRender: ProfilerOnRenderCallback = (id) => commits[id as keyof typeof commits]++;
  render(
    <Providers store={store}>
      <Profiler id="sidebar" onRender={onRender}>
        <Sidebar accountId="a" />
      </Profiler>
      <Profiler id="narrow" onRender={onRender}>
        <NarrowView accountId="a" narrow={LUNCH} />
      </Profiler>
    </Providers>,
  );
  await screen.findByText('lunch 103');
  await screen.findByRole('button', { name: /\+1: 1, Farid/ });
  // Let the list finish positioning and the topic fetch settle.
  await settle(() => commits.sidebar + commits.narrow);
  /** Applies a batch and reports how many commits each tree made for it. */
  const apply = async (...events: ServerEvent[]) => {
    commits.sidebar = 0;
    commits.narrow = 0;
    await act(async () => store.getState().applyEventBatch('a', events));
    return { ...commits };
  };
  return { store, apply };
}

const countIn = (name: RegExp) => {
  const button = screen.getAllByRole('button', { name }).find((b) => b.className.includes('nav'))!;
  return within(button).queryByTestId('unread-count')?.textContent ?? '0';
};
const typingLine = () => document.querySelector('.typing')!.textContent;

describe('re-renders stay local to what changed', () => {
  it('a typing event in another conversation re-renders neither the sidebar nor the open view', async () => {
    const { apply } = await setup();
    expect(await apply(typing(DESIGN, 'logo'))).toEqual({ sidebar: 0, narrow: 0 });
    expect(typingLine()).toBe('');

    // In the open topic it is shown (so the view does re-render for its own conversation).
    const own = await apply(typing(GENERAL, 'lunch'));
    expect(own.narrow).toBeGreaterThan(0);
    expect(own.sidebar).toBe(0);
    expect(typingLine()).toBe('Emma Member is typing…');
  });

  it('a message in another channel re-renders neither, unless it changes a count shown', async () => {
    const { apply } = await setup();
    // Read (sent elsewhere by the user, say): nothing on screen changes.
    expect(await apply(messageEvent(channelMessage(301, DESIGN, 'logo'), ['read']))).toEqual({
      sidebar: 0,
      narrow: 0,
    });
    // Unread: only the sidebar, whose counts change.
    const unread = await apply(messageEvent(channelMessage(302, DESIGN, 'logo')));
    expect(unread.narrow).toBe(0);
    expect(unread.sidebar).toBeGreaterThan(0);
    expect(countIn(/#design/)).toBe('3');

    // One in the open topic is listed there, and the sidebar's topic list shows it as newest.
    const own = await apply(messageEvent(channelMessage(303, GENERAL, 'lunch'), ['read']));
    expect(own.narrow).toBeGreaterThan(0);
    expect(await screen.findByText('message 303')).toBeTruthy();
  });

  it('an unread change in another channel leaves the open view alone', async () => {
    const { apply } = await setup();
    const other = await apply(readEvent([201]));
    expect(other.narrow).toBe(0);
    expect(countIn(/#design/)).toBe('1');

    // An unread elsewhere in the open channel changes the open channel's count and topic list.
    const own = await apply(readEvent([150]));
    expect(own.sidebar).toBeGreaterThan(0);
    expect(countIn(/#general/)).toBe('0');
  });

  it('names still follow the users slice (a reactor renamed)', async () => {
    const { apply } = await setup();
    const renamed = await apply({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: FARID, full_name: 'Farid Renamed' },
    });
    expect(renamed.narrow).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: /\+1: 1, Farid Renamed/ })).toBeTruthy();
  });
});

describe('the whole app shell', () => {
  it('does not re-render for typing or a read message in another conversation', async () => {
    const listeners = new Map<string, ((payload: unknown) => void)[]>();
    const fake = installFakeApi({
      ...QUIET_MAIN_ANSWERS,
      getMessages: () => ({ messages: lunchPage, found_oldest: true, found_newest: true }),
      listAccounts: () => ({
        accounts: [LIVE_ACCOUNT],
        activeAccountId: 'a',
      }),
      getSnapshot: () => ({
        snapshot: { accountId: 'a', queueId: 'q1', register: register() },
        events: [],
        connection: { status: 'live', queueId: 'q1' },
      }),
    });
    fake.on = vi.fn((channel: string, listener: (payload: unknown) => void) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return () => undefined;
    });
    uiStore.setState({ accountsLoaded: false });
    navigate({ kind: 'narrow', narrow: LUNCH });
    let commits = 0;
    render(
      <Profiler id="app" onRender={() => commits++}>
        <App store={createChatStore({ now: () => Date.now() })} />
      </Profiler>,
    );
    await screen.findByText('lunch 103');
    await settle(() => commits);
    const push = async (...events: ServerEvent[]) => {
      commits = 0;
      await act(async () => {
        for (const l of listeners.get('events') ?? []) l({ accountId: 'a', queueId: 'q1', events });
      });
      return commits;
    };

    expect(await push(typing(DESIGN, 'logo'))).toBe(0);
    expect(await push(messageEvent(channelMessage(301, DESIGN, 'logo'), ['read']))).toBe(0);
    expect(await push(typing(GENERAL, 'lunch'))).toBeGreaterThan(0);
    expect(typingLine()).toBe('Emma Member is typing…');
  });
});
