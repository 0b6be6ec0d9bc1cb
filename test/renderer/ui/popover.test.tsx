// The popover every popover in the app stands on (lib/ui/Popover, Radix): it opens from its
// button with the focus inside, Esc closes it (marked handled, so the app's own Esc does nothing
// more) and gives the focus back, a click elsewhere closes it, and one real consumer — the emoji
// picker of a message — still picks an emoji.
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Popover } from '../../../renderer/lib/ui/Popover';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { narrowKey } from '../../../shared/narrow';
import { channelMessage, GENERAL, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from '../chat/harness';

afterEach(cleanup);

function Example() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Elsewhere</button>
      <Popover
        label="Example card"
        open={open}
        onOpenChange={setOpen}
        trigger={<button type="button">Open card</button>}
      >
        <button type="button">First action</button>
        <button type="button">Second action</button>
      </Popover>
    </>
  );
}

/** What the app's window listener (shortcuts.ts) would see of an Esc: whether it was handled. */
function escapeOn(target: Element): boolean {
  const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
  act(() => {
    target.dispatchEvent(event);
  });
  return event.defaultPrevented;
}

describe('Popover', () => {
  it('opens from its button with the focus inside, as a labelled non-modal dialog', async () => {
    render(<Example />);
    const trigger = screen.getByRole('button', { name: 'Open card' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('dialog');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(trigger);
    const card = screen.getByRole('dialog', { name: 'Example card' });
    expect(card.getAttribute('aria-modal')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(card.id);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(card).getByRole('button', { name: 'First action' }),
      ),
    );
  });

  it('closes on Esc wherever the focus is inside, marks the key handled, and gives the focus back', async () => {
    render(<Example />);
    const trigger = screen.getByRole('button', { name: 'Open card' });
    fireEvent.click(trigger);
    const second = screen.getByRole('button', { name: 'Second action' });
    second.focus();
    expect(escapeOn(second)).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    // Closed, it no longer takes Esc: the app's own Esc goes ahead.
    expect(escapeOn(trigger)).toBe(false);
  });

  it('closes on a click elsewhere, leaving the focus where the click put it', async () => {
    render(<Example />);
    fireEvent.click(screen.getByRole('button', { name: 'Open card' }));
    const card = screen.getByRole('dialog', { name: 'Example card' });
    // The library listens for clicks outside from the task after it opens (so the opening click
    // does not count): a person's next click comes later anyway.
    await waitFor(() => expect(card.contains(document.activeElement)).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    fireEvent.pointerDown(elsewhere);
    elsewhere.focus();
    fireEvent.click(elsewhere);
    expect(screen.queryByRole('dialog')).toBeNull();
    // A task later, when the library would give the focus back: it stays on what was clicked.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(document.activeElement).toBe(elsewhere);
  });

  it('with no button, stands beside an anchor and gives the focus back to what had it', async () => {
    function Anchored() {
      const [open, setOpen] = useState(true);
      const [anchor] = useState(() => document.querySelector<HTMLElement>('#opener')!);
      return open ? (
        <Popover label="Anchored card" open onOpenChange={setOpen} anchor={anchor}>
          <button type="button">Inside</button>
        </Popover>
      ) : null;
    }
    const opener = document.createElement('button');
    opener.id = 'opener';
    document.body.append(opener);
    try {
      opener.focus();
      render(<Anchored />);
      const card = screen.getByRole('dialog', { name: 'Anchored card' });
      await waitFor(() => expect(card.contains(document.activeElement)).toBe(true));
      expect(escapeOn(document.activeElement!)).toBe(true);
      expect(screen.queryByRole('dialog')).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(opener));
    } finally {
      opener.remove();
    }
  });
});

describe("a message's emoji picker (a Popover consumer)", () => {
  let api: FakeApi;
  beforeEach(() => {
    resetUi('a');
    api = installFakeApi();
  });

  it('opens from Add reaction, picks an emoji for the message, and closes', async () => {
    const ctx = setupStore();
    ctx.store
      .getState()
      .mergeFetchedMessages('a', narrowKey([]), [channelMessage(7, GENERAL, 'react here')], {
        foundOldest: true,
        foundNewest: true,
      });
    render(
      <Providers store={ctx.store}>
        <MessageRow accountId="a" id={7} prevId={undefined} selected={false} />
      </Providers>,
    );
    const row = screen.getByText('react here').closest('[data-testid=message]') as HTMLElement;
    fireEvent.pointerEnter(row);
    const button = within(row).getByRole('button', { name: 'Add reaction' });
    fireEvent.click(button);
    const picker = screen.getByRole('dialog', { name: 'Emoji picker' });
    const search = within(picker).getByRole('searchbox', { name: 'Search emoji' });
    await waitFor(() => expect(document.activeElement).toBe(search));
    fireEvent.change(search, { target: { value: 'tada' } });
    // The emoji table loads on first use (slow on a busy machine).
    fireEvent.click(
      await within(picker).findByRole('button', { name: 'tada' }, { timeout: 15_000 }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.addReaction).toHaveBeenCalledWith({
      accountId: 'a',
      messageId: 7,
      emojiName: 'tada',
      emojiCode: '1f389',
      reactionType: 'unicode_emoji',
    });
    // The button itself, found again: Radix mounts the trigger anew once the picker is anchored to
    // the row (MessageActions), so the element clicked may not be the one that now has the focus.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(row).getByRole('button', { name: 'Add reaction' }),
      ),
    );
  });
});
