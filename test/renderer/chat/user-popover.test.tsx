// A sender's name opens a card anchored to it (not a modal dialog); the full profile is a second
// step; Escape closes the card.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { UserPopover } from '../../../renderer/features/people/UserPopover';
import { uiStore, useUi } from '../../../renderer/store/ui-store';
import { narrowKey } from '../../../shared/narrow';
import { channelMessage, EMMA, FARID, GENERAL, register, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi } from './harness';

beforeEach(() => {
  resetUi('a');
  installFakeApi();
});
afterEach(cleanup);

function Overlay() {
  const overlay = useUi((s) => s.overlay);
  return overlay?.kind === 'user' ? (
    <UserPopover userId={overlay.userId} anchor={overlay.anchor} />
  ) : null;
}

describe('user card', () => {
  it('opens beside the sender name, leads to the profile, and closes with Escape', () => {
    const ctx = setupStore();
    ctx.store
      .getState()
      .mergeFetchedMessages('a', narrowKey([]), [channelMessage(7, GENERAL, 'hello')], {
        foundOldest: true,
        foundNewest: true,
      });
    render(
      <Providers store={ctx.store}>
        <MessageRow accountId="a" id={7} prevId={undefined} selected={false} />
        <Overlay />
      </Providers>,
    );
    const emma = ctx.account().users.users.get(EMMA)!;
    fireEvent.click(screen.getByRole('button', { name: emma.full_name }));
    const card = screen.getByRole('dialog', { name: `User card: ${emma.full_name}` });
    expect(card.getAttribute('aria-modal')).toBeNull();
    // Placed by the library below the name it was opened from.
    expect(card.getAttribute('data-side')).toBe('bottom');
    expect(card.textContent).toMatch(/Member|Administrator|Owner|Moderator|Guest/);

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: emma.full_name }));
    fireEvent.click(screen.getByRole('button', { name: 'View profile' }));
    expect(uiStore.getState().overlay).toEqual({ kind: 'profile', userId: EMMA });
  });

  it('shows the picture and the address, and no address where the realm hides it', () => {
    // Farid's address hidden as the public server hides it: a stand-in `user<id>@…`, no real one.
    const users = register().realm_users.map((u) =>
      u.user_id === FARID ? { ...u, email: `user${FARID}@zulipdev.com`, delivery_email: null } : u,
    );
    const ctx = setupStore({ realm_users: users });
    const open = (userId: number) =>
      render(
        <Providers store={ctx.store}>
          <UserPopover userId={userId} anchor={{ top: 10, bottom: 30, left: 10 }} />
        </Providers>,
      );
    const emma = ctx.account().users.users.get(EMMA)!;
    open(EMMA);
    let card = screen.getByRole('dialog', { name: `User card: ${emma.full_name}` });
    expect(card.querySelector('.user-list-avatar-image')).not.toBeNull();
    expect(card.textContent).toContain(emma.delivery_email ?? emma.email);
    expect(screen.getByRole('button', { name: 'Copy email' })).toBeTruthy();
    cleanup();

    const farid = ctx.account().users.users.get(FARID)!;
    open(FARID);
    card = screen.getByRole('dialog', { name: `User card: ${farid.full_name}` });
    expect(card.textContent).not.toContain('@zulipdev.com');
    expect(screen.queryByRole('button', { name: 'Copy email' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send direct message' })).toBeTruthy();
  });
});
