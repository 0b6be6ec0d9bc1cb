// The right sidebar's user list: grouped by presence (active, idle, offline), bots and deactivated
// users left out, the current user first, a channel's subscribers when a channel is open, search
// by name words (accents folded) and email; a row opens the card, whose actions mute, mention,
// copy the email and open the sender narrow.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { User } from '../../../shared/api/types';
import { UserList } from '../../../renderer/features/people/UserList';
import { UserPopover } from '../../../renderer/features/people/UserPopover';
import { groupUsers, matchesUserQuery } from '../../../renderer/features/people/user-list-model';
import { navigate, uiStore, useUi } from '../../../renderer/store/ui-store';
import { channelNarrow } from '../../../shared/narrow';
import { register, setupStore, EMMA, FARID, GENERAL, GUS, SELF } from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi, type FakeApi } from './harness';

const T = 1_700_000_000;
const at = (active: number, idle: number) => ({ active_timestamp: active, idle_timestamp: idle });

function realm() {
  const base = register();
  return setupStore({
    server_timestamp: T,
    presences: {
      [SELF]: at(T, T),
      [EMMA]: at(T - 20, T - 20),
      [FARID]: at(T - 900, T - 30),
      // The bot reported (it cannot on the public server, but a list must not show it anyway).
      8: at(T, T),
    },
    subscriptions: base.subscriptions.map((s) =>
      s.stream_id === GENERAL ? { ...s, subscribers: [SELF, FARID, GUS] } : s,
    ),
  });
}

function Overlay() {
  const overlay = useUi((s) => s.overlay);
  return overlay?.kind === 'user' ? (
    <UserPopover userId={overlay.userId} anchor={overlay.anchor} />
  ) : null;
}

let fake: FakeApi;
let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  fake = installFakeApi();
  // The list is virtualized: jsdom needs a viewport for it to render rows at all.
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const groupOf = (name: string) =>
  screen.getByRole('button', { name: new RegExp(name) }).closest('li')?.dataset.group;

describe('user list model', () => {
  const users = (): User[] => [...realm().account().users.users.values()];

  it('groups by presence, leaves out bots and deactivated users, puts the current user first', () => {
    const t = realm();
    const statusOf = (id: number) =>
      id === SELF || id === EMMA || id === 8 ? 'active' : id === FARID ? 'idle' : 'offline';
    const withDeactivated = users().map((u) =>
      u.user_id === GUS ? { ...u, is_active: false } : u,
    );
    const groups = groupUsers({ users: withDeactivated, statusOf, selfUserId: SELF });
    expect(groups.map((g) => g.status)).toEqual(['active', 'idle', 'offline']);
    expect(groups[0].userIds[0]).toBe(SELF);
    expect(groups[0].userIds).toContain(EMMA);
    expect(groups[1].userIds).toEqual([FARID]);
    const listed = groups.flatMap((g) => g.userIds);
    expect(listed).not.toContain(8);
    expect(listed).not.toContain(9);
    expect(listed).not.toContain(GUS);
    // Each group sorted by name.
    const names = groups[2].userIds.map((id) => t.account().users.users.get(id)!.full_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('keeps only the given subscribers and drops empty groups', () => {
    const groups = groupUsers({
      users: users(),
      statusOf: () => 'offline',
      selfUserId: SELF,
      only: new Set([FARID, GUS]),
    });
    expect(groups).toHaveLength(1);
    expect(groups[0].userIds.sort()).toEqual([FARID, GUS]);
  });

  it('matches name word prefixes, folded accents, and email', () => {
    const user = { full_name: 'José Álvarez Ruiz', email: 'jar@example.com' } as User;
    expect(matchesUserQuery(user, 'jose')).toBe(true);
    expect(matchesUserQuery(user, 'alv')).toBe(true);
    expect(matchesUserQuery(user, 'ruiz jo')).toBe(true);
    expect(matchesUserQuery(user, 'jar@')).toBe(true);
    expect(matchesUserQuery(user, 'varez')).toBe(false);
  });
});

describe('user list', () => {
  it('shows everyone by presence with dots, and a channel’s subscribers when it is open', () => {
    const t = realm();
    render(
      <Providers store={t.store}>
        <UserList />
      </Providers>,
    );
    const list = screen.getByRole('complementary', { name: 'People' });
    expect(within(list).getByText('Everyone in the organization')).toBeTruthy();
    expect(groupOf('Emma Member')).toBe('active');
    expect(groupOf('Farid Member')).toBe('idle');
    expect(groupOf('Gus Guest')).toBe('offline');
    expect(within(list).queryByText('Helper Bot')).toBeNull();
    const emmaRow = screen.getByRole('button', { name: /Emma Member/ });
    expect(emmaRow.querySelector('.presence-dot')?.getAttribute('data-presence')).toBe('active');

    // Gus comes online: his row moves to the active group.
    act(() =>
      t.store.getState().applyPresenceUpdate({
        accountId: 'a',
        presences: { [GUS]: at(T + 5, T + 5) },
        serverTimestamp: T + 5,
        complete: false,
      }),
    );
    expect(groupOf('Gus Guest')).toBe('active');

    act(() => navigate({ kind: 'narrow', narrow: channelNarrow(GENERAL) }));
    expect(within(list).getByText('In #general')).toBeTruthy();
    expect(within(list).queryByText('Emma Member')).toBeNull();
    expect(within(list).getByText('Farid Member')).toBeTruthy();
  });

  it('searches, opens the card from a row, and the card mutes, mentions and narrows', async () => {
    const t = realm();
    render(
      <Providers store={t.store}>
        <UserList />
        <Overlay />
      </Providers>,
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search people' }), {
      target: { value: 'far' },
    });
    const list = screen.getByRole('complementary', { name: 'People' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Farid Member']);

    fireEvent.click(screen.getByRole('button', { name: /Farid Member/ }));
    const card = screen.getByRole('dialog', { name: 'User card: Farid Member' });
    fireEvent.click(within(card).getByRole('button', { name: 'Mute this user' }));
    expect(fake.muteUser).toHaveBeenCalledWith({ accountId: 'a', userId: FARID });
    expect(await within(card).findByText('Muted')).toBeTruthy();

    // The muted_users event marks the card and the row.
    act(() =>
      t.apply({ id: 1_000_000, type: 'muted_users', muted_users: [{ id: FARID, timestamp: T }] }),
    );
    expect(within(card).getByText('You have muted this user.')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Unmute this user' })).toBeTruthy();
    // Muted users leave the list, as the API asks of presence lists.
    expect(within(list).queryByText('Farid Member')).toBeNull();

    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    fireEvent.click(within(card).getByRole('button', { name: 'Copy email' }));
    expect(await within(card).findByText('Email copied')).toBeTruthy();
    expect(written).toEqual([t.account().users.users.get(FARID)!.email]);

    fireEvent.click(within(card).getByRole('button', { name: 'Mention' }));
    expect(uiStore.getState().composeRequest).toMatchObject({ text: '@**Farid Member** ' });

    act(() => t.apply({ id: 1_000_001, type: 'muted_users', muted_users: [] }));
    fireEvent.click(screen.getByRole('button', { name: /Farid Member/ }));
    fireEvent.click(screen.getByRole('button', { name: 'View messages sent' }));
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: [{ operator: 'sender', operand: FARID }],
    });
  });
});
