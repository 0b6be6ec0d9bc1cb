// The Inbox, Recent conversations, Drafts and the Ctrl/Cmd+K switcher select only what they show
// (names, unread counts, the conversation index), so events that change none of it re-render none
// of them, counted with React's Profiler. Each case has its counterpart that must re-render, so the
// counting is shown to see renders at all.
import { Profiler, type ProfilerOnRenderCallback } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { Inbox } from '../../../renderer/features/views/Inbox';
import { Recent } from '../../../renderer/features/views/Recent';
import { Drafts } from '../../../renderer/features/views/Drafts';
import { ConversationSwitcher } from '../../../renderer/features/views/ConversationSwitcher';
import type { ServerEvent } from '../../../shared/api/events';
import {
  EMMA,
  GENERAL,
  SELF,
  channelMessage,
  directMessage,
  eventId,
  messageEvent,
  register,
  setupStore,
} from '../store/fixtures';
import { EMPTY_HISTORY, fakeLayout, installFakeApi, Providers, resetUi } from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  installFakeApi({ getMessages: EMPTY_HISTORY });
  // Recent's rows are virtualized: they need a viewport to be drawn in.
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const VIEWS = ['inbox', 'recent', 'drafts', 'switcher'] as const;
type Counts = Record<(typeof VIEWS)[number], number>;

async function setup() {
  const t = setupStore();
  t.apply(
    messageEvent(channelMessage(101, GENERAL, 'planning')),
    messageEvent(directMessage(102, [SELF, EMMA]), ['read']),
  );
  const commits: Counts = { inbox: 0, recent: 0, drafts: 0, switcher: 0 };
  const onRender: ProfilerOnRenderCallback = (id) => commits[id as keyof Counts]++;
  render(
    <Providers store={t.store}>
      <Profiler id="inbox" onRender={onRender}>
        <Inbox />
      </Profiler>
      <Profiler id="recent" onRender={onRender}>
        <Recent accountId="a" />
      </Profiler>
      <Profiler id="drafts" onRender={onRender}>
        <Drafts accountId="a" />
      </Profiler>
      <Profiler id="switcher" onRender={onRender}>
        <ConversationSwitcher />
      </Profiler>
    </Providers>,
  );
  // Recent's first history page (empty here) has arrived, and the virtualized views (Inbox,
  // Recent) have settled: a virtualizer renders once more when its "is scrolling" flag resets,
  // 150 ms after it measured its viewport.
  await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
  const apply = async (...events: ServerEvent[]) => {
    for (const view of VIEWS) commits[view] = 0;
    await act(async () => t.apply(...events));
    return { ...commits };
  };
  return { apply };
}

/** The topic column of Recent's rows: the topic, or the people of a direct message. */
// hidden: the switcher, rendered beside it here, is a modal dialog that hides the rest from the
// accessibility tree.
const recentTitles = () =>
  within(screen.getByRole('grid', { name: 'Recent conversations', hidden: true }))
    .getAllByRole('row', { hidden: true })
    .slice(1)
    .map((r) => r.querySelector('.recent-topic .name')?.textContent);
const emma = register().realm_users.find((u) => u.user_id === EMMA)!.full_name;

describe('the views re-render only for what they show', () => {
  it('typing re-renders none of them', async () => {
    const { apply } = await setup();
    const typing: ServerEvent = {
      id: eventId(),
      type: 'typing',
      op: 'start',
      message_type: 'stream',
      sender: { user_id: EMMA, email: 'emma@example.test' },
      stream_id: GENERAL,
      topic: 'planning',
    };
    expect(await apply(typing)).toEqual({ inbox: 0, recent: 0, drafts: 0, switcher: 0 });
  });

  it('a read message in the newest conversation re-renders only Recent (its time)', async () => {
    const { apply } = await setup();
    expect(recentTitles()[0]).toBe(emma);
    const counts = await apply(messageEvent(directMessage(103, [SELF, EMMA]), ['read']));
    // Recent shows when the conversation was last active; the others show nothing of it.
    expect(counts).toEqual({ inbox: 0, recent: counts.recent, drafts: 0, switcher: 0 });
    expect(counts.recent).toBeGreaterThan(0);
  });

  it('a message edit re-renders none of them', async () => {
    const { apply } = await setup();
    const edit: ServerEvent = {
      id: eventId(),
      type: 'update_message',
      user_id: EMMA,
      rendering_only: false,
      message_id: 101,
      message_ids: [101],
      flags: [],
      edit_timestamp: 1_795_400_000,
      stream_id: GENERAL,
      orig_content: 'message 101',
      orig_rendered_content: '<p>message 101</p>',
      content: 'changed',
      rendered_content: '<p>changed</p>',
      is_me_message: false,
    };
    expect(await apply(edit)).toEqual({ inbox: 0, recent: 0, drafts: 0, switcher: 0 });
  });

  it('a conversation moving to the top re-renders Recent; an unread one the Inbox too', async () => {
    const { apply } = await setup();
    const moved = await apply(messageEvent(channelMessage(104, GENERAL, 'planning'), ['read']));
    expect(moved.recent).toBeGreaterThan(0);
    expect(moved.inbox).toBe(0);
    expect(recentTitles()[1]).toBe(emma);

    const unread = await apply(messageEvent(channelMessage(105, GENERAL, 'new topic')));
    expect(unread.inbox).toBeGreaterThan(0);
    expect(unread.recent).toBeGreaterThan(0);
    expect(unread.switcher).toBeGreaterThan(0);
    expect(unread.drafts).toBe(0);
    expect(screen.getByRole('option', { name: /> new topic/ })).toBeTruthy();
  });
});
