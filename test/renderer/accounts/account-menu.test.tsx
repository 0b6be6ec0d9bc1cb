// The account rail's ⋯ menu (lib/ui/Menu): a screen reader's click opens it, letters typed in it
// stay the menu's (the window's shortcuts never hear them), and a move main refuses says why.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import { AccountSwitcher } from '../../../renderer/features/accounts/AccountSwitcher';
import { createChatStore } from '../../../renderer/store';
import { uiStore } from '../../../renderer/store/ui-store';
import { installFakeApi, Providers, resetUi, type FakeApi } from '../chat/harness';

const summary = (id: string, realmName: string): AccountSummary => ({
  id,
  site: `http://127.0.0.1:9/${id}`,
  email: `${id}@example.test`,
  userId: 1,
  realmName,
  featureLevel: 400,
  secretBackend: 'file-0600',
  connection: { status: 'live', queueId: `q-${id}` },
});

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  uiStore.setState({ accounts: [summary('a', 'Work'), summary('b', 'Home')] });
  api = installFakeApi({
    moveAccount: () => {
      throw new Error('the account list could not be saved');
    },
  });
  render(
    <Providers store={createChatStore()}>
      <AccountSwitcher />
    </Providers>,
  );
});
afterEach(cleanup);

function openMenu() {
  // detail 0: a click with no pointer behind it, as a screen reader's activation is.
  fireEvent.click(screen.getByRole('button', { name: 'Menu of a@example.test at Work' }));
  return screen.getByRole('menu', { name: 'Menu of a@example.test at Work' });
}

describe("an account's menu", () => {
  it('keeps the letters typed in it from the window’s shortcuts', () => {
    const menu = openMenu();
    const windowKeys = vi.fn();
    window.addEventListener('keydown', windowKeys);
    try {
      for (const key of ['q', 'w', 's', '?'])
        fireEvent.keyDown(within(menu).getAllByRole('menuitem')[0], { key });
    } finally {
      window.removeEventListener('keydown', windowKeys);
    }
    expect(windowKeys).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBe(menu);
  });

  it('says why a move failed', async () => {
    const menu = openMenu();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Move down' }));
    expect(api.moveAccount).toHaveBeenCalledWith({ accountId: 'a', toIndex: 1 });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Could not move a@example.test at Work: the account list could not be saved',
    );
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
