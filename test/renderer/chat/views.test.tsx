// Views on the demo snapshot with a recording bridge: the inbox (unread conversations, muted topics
// left out), drafts (newest first, reopen, delete; an account with no draft list yet), and the
// account switcher (connection state, unread total, switching, adding).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Inbox } from '../../../renderer/features/views/Inbox';
import { Drafts } from '../../../renderer/features/views/Drafts';
import { AccountSwitcher } from '../../../renderer/features/accounts/AccountSwitcher';
import { homeRoute, uiStore } from '../../../renderer/store/ui-store';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import type { LocalDraft } from '../../../shared/ipc/drafts';
import { dmNarrow, narrowKey, topicNarrow } from '../../../shared/narrow';
import {
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  readEvent,
  register,
  setupStore,
  unreadMsgs,
} from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
});
afterEach(cleanup);

const routeKey = () => {
  const route = uiStore.getState().route;
  return route.kind === 'narrow' ? narrowKey(route.narrow) : route.kind;
};

describe('Inbox', () => {
  // The inbox's channel groups are virtualized: they need a viewport to fill.
  let restoreLayout: () => void;
  beforeEach(() => {
    restoreLayout = fakeLayout();
  });
  afterEach(() => restoreLayout());

  function renderInbox() {
    const ctx = setupStore({
      unread_msgs: unreadMsgs({
        mentions: [12],
        streams: [
          { stream_id: GENERAL, topic: 'lunch', unread_message_ids: [11, 12] },
          { stream_id: GENERAL, topic: 'noise', unread_message_ids: [13] },
          { stream_id: DESIGN, topic: 'mockups', unread_message_ids: [14] },
        ],
        pms: [{ other_user_id: EMMA, unread_message_ids: [15, 16, 17] }],
      }),
      user_topics: [
        { stream_id: GENERAL, topic_name: 'noise', last_updated: 1, visibility_policy: 1 },
      ],
    });
    render(
      <Providers store={ctx.store}>
        <Inbox />
      </Providers>,
    );
    return ctx;
  }

  it('lists unread direct messages and topics with counts, leaving muted topics out', () => {
    renderInbox();
    const dms = screen.getByRole('list', { name: 'Unread direct messages' });
    expect(dms.textContent).toBe('Emma Member 3');
    const general = screen.getByRole('list', { name: 'Unread topics in #general' });
    expect(
      within(general)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['lunch @2']);
    expect(screen.getByRole('button', { name: '#general' }).parentElement!.textContent).toBe(
      '#general @2',
    );
    expect(screen.getByRole('list', { name: 'Unread topics in #design' }).textContent).toBe(
      'mockups 1',
    );
  });

  it('opens a conversation on click and follows reads', () => {
    const ctx = renderInbox();
    fireEvent.click(screen.getByRole('button', { name: 'lunch' }));
    expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch')));
    fireEvent.click(screen.getByRole('button', { name: 'Emma Member' }));
    expect(routeKey()).toBe(narrowKey(dmNarrow([EMMA])));
    act(() => ctx.apply(readEvent([11, 12, 14, 15, 16, 17])));
    expect(screen.queryByRole('list', { name: 'Unread direct messages' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'lunch' })).toBeNull();
    expect(screen.getByText('You have no unread messages.')).toBeTruthy();
  });

  it('filters conversations by channel, topic and people, and Esc empties the filter', () => {
    renderInbox();
    const filter = screen.getByRole('searchbox', { name: 'Filter conversations' });
    fireEvent.change(filter, { target: { value: 'mock' } });
    expect(screen.getByRole('list', { name: 'Unread topics in #design' }).textContent).toBe(
      'mockups 1',
    );
    expect(screen.queryByRole('list', { name: 'Unread topics in #general' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Unread direct messages' })).toBeNull();
    // Every word, in the channel's name or the topic's.
    fireEvent.change(filter, { target: { value: 'general lun' } });
    expect(screen.getByRole('button', { name: 'lunch' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'mockups' })).toBeNull();
    fireEvent.change(filter, { target: { value: 'emma' } });
    expect(screen.getByRole('list', { name: 'Unread direct messages' }).textContent).toBe(
      'Emma Member 3',
    );
    fireEvent.change(filter, { target: { value: 'nothing like this' } });
    expect(screen.getByText('No unread conversations match this filter.')).toBeTruthy();
    fireEvent.keyDown(filter, { key: 'Escape' });
    expect((filter as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'mockups' })).toBeTruthy();
  });

  it('folds a group away and remembers it, and marks where you were mentioned', () => {
    localStorage.removeItem('tributary:inbox-collapsed');
    renderInbox();
    // Message 12 (general > lunch) mentions the user: the topic and its channel show it.
    const lunch = screen.getByRole('button', { name: 'lunch' }).closest('li')!;
    expect(within(lunch).getByTitle('You were mentioned')).toBeTruthy();
    const general = screen.getByRole('button', { name: '#general' }).parentElement!;
    expect(within(general).getByTitle('You were mentioned')).toBeTruthy();
    expect(
      within(screen.getByRole('button', { name: '#design' }).parentElement!).queryByTitle(
        'You were mentioned',
      ),
    ).toBeNull();

    const fold = screen.getByRole('button', { name: 'Collapse #general' });
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(fold);
    expect(screen.queryByRole('list', { name: 'Unread topics in #general' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Expand #general' })).toBeTruthy();
    // The header and its count stay.
    expect(general.textContent).toContain('#general');
    cleanup();
    // Folded still in the next Inbox (the web app remembers it too), then opened again.
    renderInbox();
    expect(screen.queryByRole('list', { name: 'Unread topics in #general' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand #general' }));
    expect(screen.getByRole('list', { name: 'Unread topics in #general' })).toBeTruthy();
  });

  it('marks a topic or a whole channel read through main', async () => {
    api = installFakeApi({
      updateFlagsForNarrow: () => ({
        result: 'success',
        msg: '',
        processed_count: 2,
        updated_count: 2,
        first_processed_id: 11,
        last_processed_id: 12,
        found_oldest: true,
        found_newest: true,
      }),
    });
    renderInbox();
    fireEvent.click(screen.getByRole('button', { name: 'Mark #general > lunch as read' }));
    expect(api.updateFlagsForNarrow).toHaveBeenLastCalledWith(
      expect.objectContaining({
        op: 'add',
        flag: 'read',
        narrow: [...topicNarrow(GENERAL, 'lunch'), { operator: 'is', operand: 'unread' }],
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Mark #design as read' }));
    expect(api.updateFlagsForNarrow).toHaveBeenLastCalledWith(
      expect.objectContaining({
        narrow: [
          { operator: 'channel', operand: DESIGN },
          { operator: 'is', operand: 'unread' },
        ],
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Mark all direct messages as read' }));
    expect(api.updateFlagsForNarrow).toHaveBeenLastCalledWith(
      expect.objectContaining({
        narrow: [
          { operator: 'is', operand: 'dm' },
          { operator: 'is', operand: 'unread' },
        ],
      }),
    );
    await act(async () => undefined);
  });

  it('shows the server’s error when marking read fails', async () => {
    api = installFakeApi({
      updateFlagsForNarrow: () => {
        throw new Error('Not logged in: API authentication or user session required');
      },
    });
    renderInbox();
    fireEvent.click(screen.getByRole('button', { name: 'Mark Emma Member as read' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Not logged in');
  });

  it('moves the focus between the filter and the rows with the arrow keys', () => {
    localStorage.removeItem('tributary:inbox-collapsed');
    renderInbox();
    const filter = screen.getByRole('searchbox', { name: 'Filter conversations' });
    filter.focus();
    fireEvent.keyDown(filter, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Emma Member' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    const next = document.activeElement as HTMLElement;
    expect(next.textContent).toMatch(/^#/);
    fireEvent.keyDown(next, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Emma Member' }));
  });
});

describe('Inbox of a large organization', () => {
  let restoreLayout: () => void;
  beforeEach(() => {
    restoreLayout = fakeLayout();
  });
  afterEach(() => restoreLayout());

  it('renders the channel groups near the viewport only', () => {
    const base = register();
    const template = base.subscriptions[0];
    const channels = 300;
    const subscriptions = Array.from({ length: channels }, (_, i) => ({
      ...template,
      stream_id: 5000 + i,
      name: `team-${i}`,
    }));
    const ctx = setupStore({
      subscriptions,
      unread_msgs: unreadMsgs({
        streams: subscriptions.map((s, i) => ({
          stream_id: s.stream_id,
          topic: 'plans',
          unread_message_ids: [10_000 + i],
        })),
      }),
    });
    render(
      <Providers store={ctx.store}>
        <Inbox />
      </Providers>,
    );
    const groups = screen.getAllByRole('list', { name: /^Unread topics in #/ });
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.length).toBeLessThan(channels);
    expect(groups[0].getAttribute('aria-label')).toBe('Unread topics in #team-0');
  });
});

describe('Drafts view', () => {
  const draft = (key: string, timestamp: number, body: LocalDraft['draft']): LocalDraft => ({
    key,
    serverId: null,
    draft: body,
    timestamp,
    synced: false,
  });

  it('shows an account with no draft list yet without looping', () => {
    const ctx = setupStore();
    uiStore.setState({ drafts: {} });
    render(
      <Providers store={ctx.store}>
        <Drafts accountId="a" />
      </Providers>,
    );
    expect(screen.getByText('No drafts.')).toBeTruthy();
  });

  it('lists drafts newest first, reopens one and deletes one through main', () => {
    const ctx = setupStore();
    uiStore.setState({
      drafts: {
        a: [
          draft('d1', 100, { type: 'stream', to: [GENERAL], topic: 'lunch', content: 'older' }),
          draft('d2', 200, { type: 'private', to: [EMMA, FARID], topic: '', content: 'newer' }),
        ],
      },
    });
    render(
      <Providers store={ctx.store}>
        <Drafts accountId="a" />
      </Providers>,
    );
    const items = screen.getAllByTestId('draft');
    expect(items.map((li) => li.querySelector('.draft-content')?.textContent)).toEqual([
      'newer',
      'older',
    ]);
    fireEvent.click(within(items[1]).getByRole('button', { name: '#general > lunch' }));
    expect(routeKey()).toBe(narrowKey(topicNarrow(GENERAL, 'lunch')));
    fireEvent.click(
      within(items[0]).getByRole('button', { name: 'Delete draft to Emma Member, Farid Member' }),
    );
    expect(api.deleteDraft).toHaveBeenCalledWith({ accountId: 'a', key: 'd2' });
  });
});

describe('AccountSwitcher', () => {
  const summary = (id: string, realmName: string, email: string): AccountSummary => ({
    id,
    site: `https://${id}.example.test`,
    email,
    userId: 1,
    realmName,
    featureLevel: 400,
    secretBackend: 'file-0600',
    connection: { status: 'live', queueId: `q-${id}` },
  });

  it('shows each account with its connection state and unread total; switches and adds', () => {
    const ctx = setupStore({
      unread_msgs: unreadMsgs({
        streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [11, 12] }],
      }),
    });
    ctx.store.getState().replaceSnapshot('b', register());
    ctx.store.getState().setActiveAccount('a');
    uiStore.setState({
      accounts: [summary('a', 'Demo realm', 'owner@a.test'), summary('b', 'Other', 'me@b.test')],
      connections: {
        b: { status: 'backoff', retryAt: Date.now() + 10_000, attempt: 1, reason: 'refused' },
      },
      route: { kind: 'inbox' },
    });
    render(
      <Providers store={ctx.store}>
        <AccountSwitcher />
      </Providers>,
    );
    // Named by the person and the organization; e-mail, connection and unread in the description.
    const a = screen.getByRole('button', { name: 'Olivia Owner at Demo realm' });
    expect(a.getAttribute('aria-current')).toBe('true');
    expect(a.getAttribute('aria-description')).toBe('owner@a.test, connected, 2 unread');
    expect(a.querySelector('.count')?.textContent).toBe('2');
    const b = screen.getByRole('button', { name: 'Olivia Owner at Other' });
    expect(b.getAttribute('aria-description')).toBe('me@b.test, reconnecting');
    expect(b.querySelector('.count')).toBeNull();

    fireEvent.click(b);
    expect(ctx.store.getState().activeAccountId).toBe('b');
    expect(api.switchAccount).toHaveBeenCalledWith({ accountId: 'b' });
    // Its home view the first time (switch-account.test.tsx: then where it was left).
    expect(uiStore.getState().route).toEqual(homeRoute(register().user_settings.web_home_view));
    expect(
      screen.getByRole('button', { name: 'Olivia Owner at Other' }).getAttribute('aria-current'),
    ).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Add account' }));
    expect(uiStore.getState().route).toEqual({ kind: 'signin' });
  });
});
