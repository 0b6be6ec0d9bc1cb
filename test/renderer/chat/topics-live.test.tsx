// Topic actions and reminders in jsdom against the real local realm server through the real bridge
// and main process (live-realm.ts), signed in as a member (dev): the sidebar's topic menu offers
// only what the realm lets the person do (and all of it once they are an administrator), a move
// from the sidebar moves the whole topic with the chosen notices, and the Reminders list follows
// reminders set and deleted elsewhere (over the API) without being reopened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { act, type ReactElement } from 'react';
import { Sidebar } from '../../../renderer/features/sidebar/Sidebar';
import { Reminders } from '../../../renderer/features/views/Reminders';
import { ScheduledMessages } from '../../../renderer/features/views/ScheduledMessages';
import { navigate, uiStore } from '../../../renderer/store/ui-store';
import { channelNarrow, topicNarrow } from '../../../shared/narrow';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
let general: number;
beforeAll(async () => {
  live = await startLiveAccount('dev');
  general = live.channelId('general');
}, 60_000);
afterAll(async () => {
  cleanup();
  await live?.close();
});

/** Events reach the store over the live bridge: a generous wait for them. */
const LIVE = { timeout: 10_000 };

const owner = () => live.realm.client('owner');
const groupId = (name: string) =>
  (live.register.realm_user_groups as Array<{ id: number; name: string }>).find(
    (g) => g.name === name,
  )!.id;

/** Sends `count` messages to a topic of #general as the owner; returns their ids. */
async function post(topic: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await owner().post('/messages', {
      type: 'stream',
      to: general,
      topic,
      content: `${topic} ${i}`,
    });
    ids.push(res.body.id as number);
  }
  return ids;
}

async function topicMessages(topic: string) {
  const res = await live.api.getMessages({
    accountId: live.accountId,
    anchor: 'newest',
    numBefore: 50,
    numAfter: 0,
    narrow: topicNarrow(general, topic),
  });
  return res.messages;
}

function showSidebar() {
  resetUi(live.accountId);
  render(
    <Providers store={live.store}>
      <Sidebar accountId={live.accountId} />
    </Providers>,
  );
  act(() => navigate({ kind: 'narrow', narrow: channelNarrow(general) }));
}

/**
 * #general's topic rows: a role query by name over the whole sidebar computes every button's
 * accessible name (0.1–0.7 s of CPU a call in jsdom, several calls a wait), most of this file's time.
 */
const generalTopics = () => within(screen.getByRole('list', { name: 'Topics in #general' }));

/** The menu of a sidebar topic row, opened; returns its items' names. */
async function openTopicMenu(topic: string): Promise<string[]> {
  const name = `Topic ${topic} options`;
  const menu = await waitFor(
    () => {
      const button = generalTopics().getByRole('button', { name });
      if (button.getAttribute('aria-expanded') !== 'true') fireEvent.click(button);
      return screen.getByRole('menu', { name });
    },
    { timeout: 10_000 },
  );
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent ?? '');
}

const closeMenu = (topic: string) =>
  fireEvent.click(generalTopics().getByRole('button', { name: `Topic ${topic} options` }));

describe('topic menu permissions', () => {
  it('offers a member only what the realm allows, and everything once an administrator', async () => {
    await post('permissions', 1);
    const admins = groupId('role:administrators');
    await owner().patch('/realm', {
      can_move_messages_between_channels_group: JSON.stringify({ new: admins }),
      can_resolve_topics_group: JSON.stringify({ new: admins }),
    });
    showSidebar();
    // Renaming only: the item says so, resolving is absent.
    await waitFor(async () => {
      const items = await openTopicMenu('permissions');
      expect(items).toContain('Rename topic');
      expect(items).not.toContain('Mark as resolved');
    }, LIVE);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename topic' }));
    const dialog = screen.getByRole('dialog', { name: 'Move or rename permissions' });
    // No channel to choose, and from a topic row the whole topic moves: no choice of messages.
    expect(within(dialog).queryByLabelText('Channel')).toBeNull();
    expect(within(dialog).queryByLabelText(/Which messages/)).toBeNull();
    expect(within(dialog).getByLabelText('New topic')).toHaveProperty('disabled', false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // No moving at all once topics too are kept to administrators.
    await owner().patch('/realm', {
      can_move_messages_between_topics_group: JSON.stringify({ new: admins }),
    });
    await waitFor(async () => {
      closeMenu('permissions');
      const items = await openTopicMenu('permissions');
      expect(items.filter((i) => /Move|Rename|resolved/.test(i))).toEqual([]);
      // What anyone may do stays; deleting a topic is for administrators alone.
      expect(items).toContain('Copy link to topic');
      expect(items).not.toContain('Delete topic');
    }, LIVE);

    // The same person made an administrator (a realm_user event) gets every action.
    await owner().patch(`/users/${live.realm.users.dev!.user_id}`, { role: 200 });
    await waitFor(async () => {
      closeMenu('permissions');
      const items = await openTopicMenu('permissions');
      expect(items).toContain('Move or rename topic');
      expect(items).toContain('Mark as resolved');
      expect(items).toContain('Delete topic');
    }, LIVE);
    closeMenu('permissions');
    cleanup();
  });
});

describe('moving a topic from the sidebar', () => {
  it('moves the whole topic, telling the old topic and not the new one as chosen', async () => {
    const ids = await post('sidebar move', 3);
    showSidebar();
    await waitFor(async () =>
      expect(await openTopicMenu('sidebar move')).toContain('Move or rename topic'),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move or rename topic' }));
    const dialog = screen.getByRole('dialog', { name: 'Move or rename sidebar move' });
    expect(within(dialog).getByLabelText('Channel')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('New topic'), {
      target: { value: 'sidebar moved' },
    });
    fireEvent.click(within(dialog).getByLabelText('Send automated notice to new topic'));
    fireEvent.click(within(dialog).getByLabelText('Send automated notice to old topic'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Every message moved; the only message left behind is the notice.
    const moved = await topicMessages('sidebar moved');
    expect(moved.map((m) => m.id)).toEqual(ids);
    const left = await topicMessages('sidebar move');
    expect(left.map((m) => m.sender_full_name)).toEqual(['Notification Bot']);
    cleanup();
  });
});

/** A view of the live account, from a fresh UI state. */
function showView(view: ReactElement) {
  resetUi(live.accountId);
  render(<Providers store={live.store}>{view}</Providers>);
}

describe('reminders list', () => {
  it('shows a reminder set over the API and drops it when deleted, while open', async () => {
    const [target] = await post('remind me', 1);
    showView(<Reminders accountId={live.accountId} />);
    await screen.findByText('No reminders.');
    // An empty list says how to fill it.
    screen.getByText(/choose “Remind me about this” in its menu/);
    const dev = live.realm.client('dev');
    const set = await dev.post('/reminders', {
      message_id: target,
      scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(set.status).toBe(200);
    const item = await screen.findByTestId('reminder');
    expect(item.textContent).toMatch(/remind me 0/);
    expect((await dev.delete(`/reminders/${set.body.reminder_id as number}`)).status).toBe(200);
    await screen.findByText('No reminders.');
    expect(screen.queryByTestId('reminder')).toBeNull();
    cleanup();
  });
});

describe('deleting a topic', () => {
  const setDevRole = (role: number) =>
    owner().patch(`/users/${live.realm.users.dev!.user_id}`, { role });

  it('asks first, naming the topic, deletes it all and leaves its view for the channel', async () => {
    await setDevRole(200);
    await post('doomed', 3);
    showSidebar();
    act(() => navigate({ kind: 'narrow', narrow: topicNarrow(general, 'doomed') }));
    await waitFor(
      async () => expect(await openTopicMenu('doomed')).toContain('Delete topic'),
      LIVE,
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete topic' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete topic' });
    expect(within(dialog).getByText('doomed').tagName).toBe('STRONG');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), LIVE);
    expect(await topicMessages('doomed')).toEqual([]);
    expect(uiStore.getState().route).toEqual({ kind: 'narrow', narrow: channelNarrow(general) });
    await waitFor(
      () => expect(screen.queryByRole('button', { name: 'Topic doomed options' })).toBeNull(),
      LIVE,
    );
    cleanup();
  });

  it("shows the server's refusal in the dialog and deletes nothing", async () => {
    await setDevRole(200);
    await post('spared', 2);
    showSidebar();
    await waitFor(
      async () => expect(await openTopicMenu('spared')).toContain('Delete topic'),
      LIVE,
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete topic' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete topic' });
    // No longer an administrator by the time the answer is given.
    await setDevRole(400);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert', {}, LIVE)).textContent).toMatch(
      /Must be an organization administrator/,
    );
    expect(screen.getByRole('alertdialog', { name: 'Delete topic' })).toBeTruthy();
    expect(await topicMessages('spared')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await setDevRole(200);
    cleanup();
  });
});

describe('scheduled messages list', () => {
  it('says how to schedule one when there are none', async () => {
    showView(<ScheduledMessages accountId={live.accountId} />);
    await screen.findByText('No scheduled messages.');
    screen.getByText(/choose Schedule beside Send in the compose box/);
    cleanup();
  });
});
