// A first sign-in registers without the people (electron/accounts/session.ts), who also carry the
// user's own role: main asks /users/me beside that register and puts the user's own fields into
// the snapshot, so an owner sees the organization's settings as an owner before everyone else
// arrives. Against the real local realm server through main's services, the people's register
// held back for the whole test.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { OrganizationSettings } from '../../../renderer/features/settings/organization/OrganizationSettings';
import { Providers } from '../chat/harness';
import { startLiveAccount, type LiveAccount } from '../chat/live-realm';

describe('a first sign-in without the people', () => {
  let live: LiveAccount | undefined;
  afterEach(async () => {
    cleanup();
    await live?.close();
    live = undefined;
  });

  it("shows an owner the organization's settings as an owner before the people come", async () => {
    live = await startLiveAccount('owner', { peopleNeverCome: true });
    const { store, accountId, register } = live;
    const owner = live.realm.users.owner;
    const { snapshot } = await live.api.getSnapshot({ accountId });
    expect(snapshot?.peoplePending).toBe(true);
    expect(register.realm_users).toBeUndefined();
    // The register's own-user fields, as a register with the people gives them.
    expect(register).toMatchObject({
      user_id: owner.user_id,
      email: owner.email,
      is_owner: true,
      is_admin: true,
      is_moderator: false,
      is_guest: false,
    });
    const account = store.getState().accounts[accountId];
    expect(account.users.loading).toBe(true);
    expect(account.users.users.get(owner.user_id)).toMatchObject({ role: 100, is_owner: true });

    render(
      <Providers store={store}>
        <OrganizationSettings accountId={accountId} />
      </Providers>,
    );
    expect(
      screen.queryByText('Only organization administrators can change these settings.'),
    ).toBeNull();
    const retainForever = screen.getByRole('checkbox', { name: /Retain forever/ });
    expect((retainForever as HTMLInputElement).disabled).toBe(false);
    // Still before the people: the page did not get them meanwhile.
    expect(store.getState().accounts[accountId].users.loading).toBe(true);
  }, 60_000);
});
