// Who may change what on the organization screens, from the account's own role as the store keeps
// it: an administrator changes group settings but not the owner-only ones, and a demotion (a
// realm_user event for oneself) turns the screen read-only at once.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, act } from '@testing-library/react';
import { OrganizationPermissions } from '../../../renderer/features/settings/organization/OrganizationPermissions';
import { OrganizationProfile } from '../../../renderer/features/settings/organization/OrganizationProfile';
import { installFakeApi, Providers } from '../chat/harness';
import { eventId, setupStore, SELF } from '../store/fixtures';

afterEach(cleanup);

function becomes(t: ReturnType<typeof setupStore>, role: 200 | 400) {
  act(() =>
    t.apply({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: SELF, role },
    }),
  );
}

describe('organization screens by role', () => {
  it('lets an administrator change group settings except the owner-only ones', async () => {
    const api = installFakeApi({ updateRealm: () => ({ result: 'success', msg: '' }) });
    const t = setupStore();
    becomes(t, 200);
    render(
      <Providers store={t.store}>
        <OrganizationPermissions accountId="a" />
      </Providers>,
    );
    const groups = screen.getByRole('combobox', { name: /Who can create user groups/ });
    expect((groups as HTMLSelectElement).disabled).toBe(true);
    const emoji = screen.getByRole('combobox', { name: 'Who can add custom emoji' });
    expect((emoji as HTMLSelectElement).disabled).toBe(false);
    const before = t.account().settings.realm.realm_can_add_custom_emoji_group;
    const admins = [...t.account().userGroups.groups.values()].find(
      (g) => g.name === 'role:administrators',
    )!.id;
    fireEvent.change(emoji, { target: { value: String(admins) } });
    await screen.findByText('Saved');
    expect(api.updateRealm).toHaveBeenCalledWith({
      accountId: 'a',
      changes: { groups: { can_add_custom_emoji_group: { new: admins, old: before } } },
    });

    becomes(t, 400);
    expect(
      (screen.getByRole('combobox', { name: 'Who can add custom emoji' }) as HTMLSelectElement)
        .disabled,
    ).toBe(true);
    expect(screen.queryAllByRole('button', { name: /^Save / })).toEqual([]);
  });

  it('shows a member the profile read-only', () => {
    installFakeApi();
    const t = setupStore();
    becomes(t, 400);
    render(
      <Providers store={t.store}>
        <OrganizationProfile accountId="a" />
      </Providers>,
    );
    const name = screen.getByRole('textbox', { name: 'Organization name' }) as HTMLInputElement;
    expect(name.disabled).toBe(true);
    expect(
      screen.getByText('Only organization administrators can change these settings.'),
    ).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^Save / })).toEqual([]);
  });
});
