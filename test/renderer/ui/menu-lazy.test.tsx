// lib/ui/Menu mounts Radix's menu only when its button is about to be used: a page of rows with a
// "⋮" menu each adds no document-wide key listener until one of them is hovered, focused or
// pressed; the first press (pointer or key) opens the menu at once; and the button is the same
// element before and after (what tests and assistive technology hold on to).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Menu, MenuItem } from '../../../renderer/lib/ui/Menu';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Rows({ count, onPick = () => {} }: { count: number; onPick?: (row: number) => void }) {
  return (
    <ul>
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <Menu label={`Row ${i} options`} button="⋮">
            <MenuItem onSelect={() => onPick(i)}>Mark row {i} as read</MenuItem>
            <MenuItem onSelect={() => {}}>Mute row {i}</MenuItem>
          </Menu>
        </li>
      ))}
    </ul>
  );
}

/** Keydown listeners added to the document in the capture phase (each mounted Radix menu's). */
function countCaptureKeydownListeners() {
  const added = vi.spyOn(document, 'addEventListener');
  return () =>
    added.mock.calls.filter(
      ([type, , options]) =>
        type === 'keydown' &&
        (options === true || (typeof options === 'object' && options?.capture === true)),
    ).length;
}

describe('a row menu', () => {
  it('adds no document key listener of its own until its button is hovered or focused', () => {
    const listeners = countCaptureKeydownListeners();
    render(<Rows count={40} />);
    // One for all menus (which input was last: a key or the pointer), none per row.
    const shared = listeners();
    expect(shared).toBeLessThanOrEqual(1);
    // Closed, each button already says what it opens.
    const button = screen.getByRole('button', { name: 'Row 3 options' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.pointerOver(button);
    expect(listeners()).toBe(shared + 1);
    fireEvent.focus(screen.getByRole('button', { name: 'Row 7 options' }));
    expect(listeners()).toBe(shared + 2);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens on the first press of a button nothing touched before, on the same element', () => {
    const picked = vi.fn();
    render(<Rows count={5} onPick={picked} />);
    const button = screen.getByRole('button', { name: 'Row 2 options' });
    // A press with no hover before it (a touch screen, a fast pointer).
    fireEvent.pointerDown(button, { button: 0, pointerType: 'mouse' });
    const menu = screen.getByRole('menu', { name: 'Row 2 options' });
    expect(screen.getByRole('button', { name: 'Row 2 options' })).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mark row 2 as read' }));
    expect(picked).toHaveBeenCalledWith(2);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    // Radix's trigger now handles the same element: a second press opens it again.
    fireEvent.pointerDown(button, { button: 0, pointerType: 'mouse' });
    expect(screen.getByRole('menu', { name: 'Row 2 options' })).toBeTruthy();
  });

  it('opens from the keyboard on the first try, with the first item focused', async () => {
    render(<Rows count={3} />);
    const button = screen.getByRole('button', { name: 'Row 1 options' });
    // The key reaches a button whose menu is not mounted yet (no focus event before it).
    act(() => {
      fireEvent.keyDown(button, { key: 'Enter' });
    });
    expect(screen.getByRole('menu', { name: 'Row 1 options' })).toBeTruthy();
    expect(document.activeElement).toBe(
      screen.getByRole('menuitem', { name: 'Mark row 1 as read' }),
    );
    // Esc closes it and gives the focus back to the same button.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    // (Radix gives the focus back a task later.)
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('opens by focus then Enter as Radix always did, and by a click with no pointer', async () => {
    render(<Rows count={3} />);
    const first = screen.getByRole('button', { name: 'Row 0 options' });
    act(() => first.focus());
    fireEvent.keyDown(first, { key: 'Enter' });
    expect(screen.getByRole('menu', { name: 'Row 0 options' })).toBeTruthy();
    expect(document.activeElement).toBe(
      screen.getByRole('menuitem', { name: 'Mark row 0 as read' }),
    );
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    // A screen reader's activation: a click event with no pointer behind it.
    const other = screen.getByRole('button', { name: 'Row 2 options' });
    act(() => other.click());
    expect(screen.getByRole('menu', { name: 'Row 2 options' })).toBeTruthy();
  });
});
