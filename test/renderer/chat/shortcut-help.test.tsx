// The keyboard shortcut help: `?` outside text fields opens it over the app, grouped as the public
// app's help; Esc closes it; it lists every key the global handler acts on (read from the handler's
// own table), so the help cannot fall behind the keys.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { createChatStore } from '../../../renderer/store';
import { uiStore } from '../../../renderer/store/ui-store';
import { GLOBAL_SHORTCUTS } from '../../../renderer/shell/shortcuts';
import { shortcutSections } from '../../../renderer/features/help/shortcut-list';
import { register } from '../store/fixtures';
import { fakeLayout, installFakeApi, liveAppAnswers, resetUi } from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

async function startApp() {
  installFakeApi(liveAppAnswers(register));
  uiStore.setState({ accountsLoaded: false });
  render(<App store={createChatStore()} />);
  await screen.findByRole('navigation', { name: 'Conversations' });
}

describe('keyboard shortcut help', () => {
  it('opens on ? with the shortcuts by group, and closes on Esc', async () => {
    await startApp();
    fireEvent.keyDown(document.body, { key: '?' });
    // The list loads when first opened (renderer/shell/lazy-views.ts).
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const groups = within(help)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(groups.slice(0, 4)).toEqual([
      'The basics',
      'Search',
      'Navigation',
      'Composing messages',
    ]);
    const basics = within(help).getByRole('region', { name: 'The basics' });
    const row = within(basics).getByText('New message in a channel').closest('tr')!;
    expect(row.querySelector('kbd')!.textContent).toBe('c');
    for (const key of ['x', 'r', '?', 'Esc'])
      expect(within(basics).getAllByText(key, { selector: 'kbd' }).length).toBeGreaterThan(0);
    const navigation = within(help).getByRole('region', { name: 'Navigation' });
    for (const key of ['n', 'Ctrl+Shift+K', '↑', 'Home'])
      expect(within(navigation).getAllByText(key, { selector: 'kbd' }).length).toBeGreaterThan(0);
    const accounts = within(help).getByRole('region', { name: 'Accounts' });
    for (const key of ['Ctrl+Tab', 'Ctrl+Shift+Tab', 'Ctrl+1…9'])
      expect(within(accounts).getByText(key, { selector: 'kbd' })).toBeTruthy();
    const search = within(help).getByRole('region', { name: 'Search' });
    for (const key of ['/', 'Ctrl+K'])
      expect(within(search).getByText(key, { selector: 'kbd' })).toBeTruthy();
    expect(within(help).getByText('i', { selector: 'kbd' })).toBeTruthy();
    expect(within(help).getByText('Alt+P', { selector: 'kbd' })).toBeTruthy();

    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('does not open while typing in a field', async () => {
    await startApp();
    const search = screen.getByRole('combobox', { name: 'Search messages' });
    fireEvent.keyDown(search, { key: '?' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('lists every key the global handler acts on', () => {
    const listed = shortcutSections(GLOBAL_SHORTCUTS).flatMap((s) =>
      s.shortcuts.flatMap((x) => x.keys),
    );
    for (const shortcut of GLOBAL_SHORTCUTS)
      for (const key of shortcut.keys) expect(listed).toContain(key);
    expect(GLOBAL_SHORTCUTS.flatMap((s) => s.keys)).toEqual(
      expect.arrayContaining(
        // The public web app's common keys (issue #19).
        ['c', 'x', 'r', 'n', 'p', 's', 'j', 'k', '/', 'q', 'w', '?', 'Esc', 'Ctrl+K'].concat([
          'Shift+M',
          '*',
          '+',
          'Ctrl+S',
          'Shift+R',
          '@',
          '>',
          'Shift+I',
          't',
          'a',
          'd',
        ]),
      ),
    );
  });
});
