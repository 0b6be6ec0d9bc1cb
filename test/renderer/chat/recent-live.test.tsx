// Recent conversations as someone coming from the public web app uses it, end to end below the
// browser: the view and the real store, through the browser-mode bridge and main, against the real
// local realm server. A row's bell mutes (with the feedback widget's undo), unmutes and follows its
// topic; the column headers sort; the topics menu (followed / standard / all) and the toggles are
// kept per account across launches; ←/→ move between a row's cells and ↑/↓ keep the cell.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Recent } from '../../../renderer/features/views/Recent';
import { readFilters } from '../../../renderer/features/views/recent-model';
import { FeedbackToast, clearFeedback } from '../../../renderer/lib/ui/feedback';
import { selectActiveAccount, topicVisibility } from '../../../renderer/store';
import { uiStore } from '../../../renderer/store/ui-store';
import { fakeLayout, Providers, resetUi } from './harness';
import { liveAccountForFile } from './live-realm';

const liveAccount = liveAccountForFile();
let restoreLayout: () => void;
beforeEach(() => {
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  clearFeedback();
  restoreLayout();
});

let general: number;
/** Topics of this file, each with one message from Emma (unread for the owner). */
const TOPICS = ['zq apple', 'zq Banana', 'zq cherry'];

beforeAll(async () => {
  const live = liveAccount();
  general = live.channelId('general');
  const emma = live.realm.client('emma');
  for (const topic of TOPICS) {
    const res = await emma.post('/messages', { type: 'stream', to: general, topic, content: 'hi' });
    expect(res.status).toBe(200);
  }
  // Two unread in cherry, for the unread sort.
  await emma.post('/messages', {
    type: 'stream',
    to: general,
    topic: 'zq cherry',
    content: 'again',
  });
});

function show() {
  const live = liveAccount();
  resetUi(live.accountId);
  render(
    <Providers store={live.store}>
      <Recent accountId={live.accountId} />
      <FeedbackToast />
    </Providers>,
  );
  // The demo realm's own conversations aside (the table is virtualized: only rows in view exist).
  search('zq');
}
const search = (text: string) =>
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: text } });

const grid = () => screen.getByRole('grid', { name: 'Recent conversations' });
const bodyRows = () => within(grid()).getAllByRole('row').slice(1);
const rowOf = (topic: string) =>
  bodyRows().find((r) => r.querySelector('.recent-topic .name')?.textContent === topic);
/** This file's topics in the order the table shows them. */
const ours = () =>
  bodyRows()
    .map((r) => r.querySelector('.recent-topic .name')?.textContent ?? '')
    .filter((t) => TOPICS.includes(t));
const policyOf = (topic: string) => {
  const account = selectActiveAccount(liveAccount().store.getState());
  return account ? topicVisibility(account.userTopics, general, topic) : -1;
};
function chooseFromBell(topic: string, item: string) {
  const bell = within(rowOf(topic)!).getByRole('button', { name: /this topic/ });
  fireEvent.click(bell);
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}
function chooseTopics(current: string, choice: string) {
  fireEvent.click(screen.getByRole('button', { name: `Topics shown: ${current}` }));
  fireEvent.click(screen.getByRole('menuitem', { name: new RegExp(`^${choice}`) }));
}
const header = (name: string) =>
  within(grid()).getByRole('button', { name: new RegExp(`^${name}$`) });

describe('Recent conversations, live', () => {
  it("mutes a topic from its row's bell, says so with an undo, and the undo brings it back", async () => {
    show();
    await waitFor(() => expect(ours()).toHaveLength(3));
    expect(
      within(rowOf('zq apple')!).getByRole('button', {
        name: 'You will get default notifications for this topic',
      }),
    ).toBeTruthy();

    chooseFromBell('zq apple', 'Mute');
    await waitFor(() => expect(policyOf('zq apple')).toBe(1));
    const toast = (await screen.findByText('Topic muted')).closest<HTMLElement>('.feedback-toast')!;
    expect(toast.textContent).toContain('You muted #general > zq apple.');
    // The standard view lists unmuted topics only, as the web app's does.
    await waitFor(() => expect(rowOf('zq apple')).toBeUndefined());

    fireEvent.click(within(toast).getByRole('button', { name: 'Undo mute' }));
    await waitFor(() => expect(policyOf('zq apple')).toBe(0));
    await waitFor(() => expect(rowOf('zq apple')).toBeDefined());
  });

  it('follows a topic from its bell; the topics menu lists followed topics or all of them', async () => {
    show();
    await waitFor(() => expect(ours()).toHaveLength(3));
    chooseFromBell('zq Banana', 'Follow');
    await waitFor(() => expect(policyOf('zq Banana')).toBe(3));
    await waitFor(() =>
      within(rowOf('zq Banana')!).getByRole('button', { name: 'You follow this topic' }),
    );
    // Following says nothing, as in the web app.
    expect(screen.queryByText('Topic muted')).toBeNull();

    chooseTopics('Standard view', 'Followed topics');
    await waitFor(() => expect(ours()).toEqual(['zq Banana']));

    chooseFromBell('zq Banana', 'Mute');
    await waitFor(() => expect(policyOf('zq Banana')).toBe(1));
    await waitFor(() => expect(ours()).toEqual([]));
    chooseTopics('Followed topics', 'All topics');
    await waitFor(() => expect(ours()).toHaveLength(3));
    expect(rowOf('zq Banana')!.classList.contains('muted')).toBe(true);
    within(rowOf('zq Banana')!).getByRole('button', { name: 'You have muted this topic' });
    chooseFromBell('zq Banana', 'Default');
    await waitFor(() => expect(policyOf('zq Banana')).toBe(0));
    chooseTopics('All topics', 'Standard view');
  });

  it('shows the server’s refusal of a policy change above the table', async () => {
    show();
    await waitFor(() => expect(ours()).toHaveLength(3));
    // A fault injected on the way to main: the server's words come back as the bridge's error.
    const bridge = window.tributary as unknown as Record<string, (input: unknown) => unknown>;
    const real = bridge.setUserTopic!;
    bridge.setUserTopic = () => Promise.reject(new Error('Invalid channel ID'));
    try {
      chooseFromBell('zq cherry', 'Follow');
      expect((await screen.findByRole('alert')).textContent).toBe('Invalid channel ID');
      expect(policyOf('zq cherry')).toBe(0);
    } finally {
      bridge.setUserTopic = real;
    }
  });

  it('sorts by the channel, topic, unread and time columns, and back the other way', async () => {
    show();
    await waitFor(() => expect(ours()).toHaveLength(3));
    const sortOf = (name: string) => header(name).closest('[role="columnheader"]')!;
    // Newest first, as the table opens.
    expect(sortOf('Time').getAttribute('aria-sort')).toBe('descending');
    expect(ours()).toEqual(['zq cherry', 'zq Banana', 'zq apple']);

    // Another column sorts ascending (case aside); a second click turns it around.
    fireEvent.click(header('Topic'));
    expect(sortOf('Topic').getAttribute('aria-sort')).toBe('ascending');
    expect(sortOf('Time').getAttribute('aria-sort')).toBeNull();
    expect(ours()).toEqual(['zq apple', 'zq Banana', 'zq cherry']);
    fireEvent.click(header('Topic'));
    expect(ours()).toEqual(['zq cherry', 'zq Banana', 'zq apple']);

    // The most unread last, ascending; the other way round first.
    fireEvent.click(header('Unread count'));
    expect(ours().at(-1)).toBe('zq cherry');
    fireEvent.click(header('Unread count'));
    expect(ours()[0]).toBe('zq cherry');

    // Direct messages before channels, then channels by name (in the rows in view).
    search('');
    fireEvent.click(header('Channel'));
    const channels = bodyRows().map((r) => r.querySelector('.recent-channel')?.textContent ?? '');
    const firstChannel = channels.findIndex((c) => c.startsWith('#'));
    expect(channels.slice(0, firstChannel).every((c) => c === 'Direct messages')).toBe(true);
    const names = channels.slice(firstChannel);
    expect(names).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );

    search('zq');
    fireEvent.click(header('Time'));
    expect(sortOf('Time').getAttribute('aria-sort')).toBe('ascending');
    expect(ours()).toEqual(['zq apple', 'zq Banana', 'zq cherry']);
    fireEvent.click(header('Time'));
    expect(ours()).toEqual(['zq cherry', 'zq Banana', 'zq apple']);
  });

  it('keeps the filters per account across launches, not the text', async () => {
    const live = liveAccount();
    show();
    await waitFor(() => expect(ours()).toHaveLength(3));
    chooseTopics('Standard view', 'All topics');
    fireEvent.click(screen.getByRole('button', { name: 'Unread' }));
    fireEvent.click(screen.getByRole('button', { name: '✓ Include DMs' }));
    // What the next launch reads for this account; another account keeps its own (the defaults).
    expect(readFilters(live.accountId)).toEqual({
      topics: 'all',
      unread: true,
      participated: false,
      includeDms: false,
      text: '',
    });
    expect(readFilters('another-account')).toMatchObject({ topics: 'standard', unread: false });
    cleanup();
    // Back as they were, for the other cases.
    show();
    await waitFor(() => expect(ours().length).toBeGreaterThan(0));
    chooseTopics('All topics', 'Standard view');
    fireEvent.click(screen.getByRole('button', { name: '✓ Unread' }));
    fireEvent.click(screen.getByRole('button', { name: 'Include DMs' }));
    expect(readFilters(live.accountId).topics).toBe('standard');
  });

  it('marks a conversation whose unread messages mention you with @, as the web app does', async () => {
    const live = liveAccount();
    const owner = live.register.realm_users?.find((u) => u.user_id === live.register.user_id);
    const emma = live.realm.client('emma');
    await emma.post('/messages', {
      type: 'stream',
      to: general,
      topic: 'zm mentioned',
      content: `@**${owner!.full_name}** look`,
    });
    await emma.post('/messages', { type: 'stream', to: general, topic: 'zm plain', content: 'x' });
    show();
    search('zm');
    await waitFor(() => expect(rowOf('zm mentioned')).toBeDefined());
    await waitFor(() => expect(rowOf('zm plain')).toBeDefined());
    expect(within(rowOf('zm mentioned')!).getByTitle('You were mentioned').textContent).toBe('@');
    expect(within(rowOf('zm plain')!).queryByTitle('You were mentioned')).toBeNull();
  });

  it('names the participants beyond the four avatars on "+N"', async () => {
    const live = liveAccount();
    const who = ['guest', 'farid', 'dev', 'moderator', 'admin', 'emma'];
    for (const user of who) {
      const res = await live.realm
        .client(user)
        .post('/messages', { type: 'stream', to: general, topic: 'zp crowd', content: user });
      expect(res.status).toBe(200);
    }
    show();
    search('zp');
    await waitFor(() => expect(rowOf('zp crowd')).toBeDefined());
    const more = await waitFor(() => within(rowOf('zp crowd')!).getByText('+2'));
    // The most recent senders have avatars; the two before them are named on "+2", newest first.
    const fullName = (key: string) =>
      live.register.realm_users!.find((u) => u.user_id === live.realm.users[key]!.user_id)!
        .full_name;
    expect(more.getAttribute('title')).toBe(`${fullName('farid')}\n${fullName('guest')}`);
  });

  it('moves between a row’s cells with ←/→ (around), keeps the cell on ↑/↓, Enter presses it', async () => {
    show();
    await waitFor(() => expect(ours()).toHaveLength(3));
    fireEvent.click(header('Topic'));
    await act(async () => undefined);
    // apple, Banana, cherry: channel topics, each with unread messages.
    const apple = rowOf('zq apple')!;
    const body = grid().querySelector('.recent-rows')!;
    act(() => apple.focus());
    fireEvent.keyDown(apple, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(
      within(rowOf('zq apple')!).getByRole('button', { name: /Mark as read/ }),
    );
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/this topic/);
    expect(rowOf('zq apple')!.contains(document.activeElement)).toBe(true);
    // Around: the last cell's right is the channel, whose left is the last again.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement?.textContent).toBe('#general');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/this topic/);
    // Down keeps the cell: the next row's bell.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(rowOf('zq Banana')!.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/this topic/);
    // Left twice: the count, then the topic (the row itself).
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(rowOf('zq Banana'));
    expect(body.contains(document.activeElement)).toBe(true);
    // Enter on a cell's control is that control's: on the bell it opens its menu, not the topic.
    const route = uiStore.getState().route;
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement?.textContent).toBe('#general');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    await screen.findByRole('menu');
    expect(uiStore.getState().route).toBe(route);
  });
});
