// The Profile screen honours the realm's locks as the public web app does: with
// realm_name_changes_disabled a member's name is read-only (administrators may still change it), with
// realm_avatar_changes_disabled the avatar buttons are replaced by a note; a name is checked before
// it is sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profile } from '../../../renderer/features/settings/personal/Profile';
import { register, setupStore, SELF } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from '../chat/harness';

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
});
afterEach(cleanup);

function renderProfile(role: number, locks: boolean) {
  const base = register();
  const realm_users = (base.realm_users ?? []).map((u) =>
    u.user_id === SELF ? { ...u, role, is_admin: role <= 200, is_owner: role === 100 } : u,
  );
  const ctx = setupStore({
    realm_users,
    custom_profile_fields: [],
    realm_name_changes_disabled: locks,
    realm_avatar_changes_disabled: locks,
  } as Parameters<typeof setupStore>[0]);
  render(
    <Providers store={ctx.store}>
      <Profile accountId="a" />
    </Providers>,
  );
}

describe('profile screen', () => {
  it("locks a member's name and avatar when the realm disables changes", () => {
    renderProfile(400, true);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).disabled).toBe(true);
    screen.getByText('Name changes are disabled in this organization.');
    screen.getByText('Avatar changes are disabled in this organization.');
    expect(screen.queryByRole('button', { name: 'Upload new avatar' })).toBeNull();
  });

  it('lets an administrator change them anyway', () => {
    renderProfile(200, true);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).disabled).toBe(
      false,
    );
    screen.getByRole('button', { name: 'Upload new avatar' });
  });

  it('refuses an empty or overlong name before sending, and sends a good one trimmed on leaving it', () => {
    renderProfile(400, false);
    const name = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.blur(name);
    screen.getByRole('alert');
    fireEvent.change(name, { target: { value: 'x'.repeat(101) } });
    fireEvent.blur(name);
    expect(api.updateSettings).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: '  New Name ' } });
    fireEvent.blur(name);
    expect(api.updateSettings).toHaveBeenCalledWith({
      accountId: 'a',
      settings: { full_name: 'New Name' },
    });
  });
});
