// A sender's name opens a card anchored to it (not a modal dialog); the full profile is a second
// step; Escape closes the card.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { UserPopover } from '../../../renderer/features/people/UserPopover';
import { uiStore, useUi } from '../../../renderer/store/ui-store';
import { narrowKey } from '../../../shared/narrow';
import { channelMessage, EMMA, GENERAL, setupStore } from '../store/fixtures';
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
});
