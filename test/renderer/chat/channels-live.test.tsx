// The channel screens in jsdom against the real local realm server through the real bridge and
// main process (live-realm.ts), signed in as a member (dev): the browser's list from GET /streams
// with sanitized descriptions, subscribing in place, the create form (its server errors, and its
// absence when the realm does not allow it), personal settings applied from update events, and
// adding a person.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ChannelBrowser } from '../../../renderer/features/channels/ChannelBrowser';
import { navigate, useUi } from '../../../renderer/store/ui-store';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
beforeAll(async () => {
  live = await startLiveAccount('dev');
}, 60_000);
afterAll(async () => {
  await live?.close();
});
afterEach(cleanup);

/** The channels route as the app shell shows it, so navigate() moves between its views. */
function ChannelsRoute() {
  const route = useUi((s) => s.route);
  if (route.kind !== 'channels') return <p>elsewhere</p>;
  return (
    <ChannelBrowser accountId={live.accountId} streamId={route.streamId} create={route.create} />
  );
}

function showChannels(route: Parameters<typeof navigate>[0] = { kind: 'channels' }) {
  resetUi(live.accountId);
  navigate(route);
  render(
    <Providers store={live.store}>
      <ChannelsRoute />
    </Providers>,
  );
}

const subscription = (name: string) => {
  const channels = live.store.getState().accounts[live.accountId].channels;
  const id = channels.idByName.get(name);
  return id === undefined ? undefined : channels.subscriptions.get(id);
};

describe('channel browser', () => {
  it('lists channels with sanitized descriptions and subscribes in place', async () => {
    const owner = live.realm.client('owner');
    await owner.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'hostile', description: 'plain' }]),
    });
    // What the API would never render: HTML that runs script, put where the server keeps it.
    live.realm.server.db
      .prepare("UPDATE channels SET rendered_description = ? WHERE name = 'hostile'")
      .run('<p>safe <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script></p>');
    // A fresh snapshot carries it, as after a reconnect.
    const generation = live.store.getState().accounts[live.accountId].generation;
    await live.api.resync({ accountId: live.accountId });
    await waitFor(() =>
      expect(live.store.getState().accounts[live.accountId].generation).toBeGreaterThan(generation),
    );
    showChannels();
    const row = await screen.findByTestId('browse-hostile');
    const description = row.querySelector('.channel-description')!;
    expect(description.textContent).toBe('safe ');
    expect(description.innerHTML).not.toMatch(/onerror|script/);
    expect(within(row).getByRole('img', { name: 'Public channel' })).toBeTruthy();
    expect(within(row).getByLabelText('1 subscriber')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter channels' }), {
      target: { value: 'hosti' },
    });
    expect(screen.queryByTestId('browse-general')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Subscribe to #hostile' }));
    await within(row).findByRole('button', { name: 'Unsubscribe from #hostile' });
    expect(subscription('hostile')).toBeDefined();
    await within(row).findByLabelText('2 subscribers');
  });

  it('shows the server refusing an invalid name on the form, and a taken one before sending', async () => {
    showChannels({ kind: 'channels', create: true });
    const form = screen.getByRole('form', { name: 'Create channel' });
    const name = within(form).getByLabelText('Channel name');
    fireEvent.change(name, { target: { value: 'general' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/already exists/);
    fireEvent.change(name, { target: { value: 'bad\u0001name' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/Invalid character/);
  });

  it('creates a channel with an initial subscriber and opens its settings', async () => {
    showChannels({ kind: 'channels', create: true });
    const form = screen.getByRole('form', { name: 'Create channel' });
    fireEvent.change(within(form).getByLabelText('Channel name'), {
      target: { value: 'jsdom-made' },
    });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Initial subscribers' }), {
      target: { value: 'farid' },
    });
    fireEvent.click(within(form).getByRole('option', { name: /Farid Member/ }));
    fireEvent.click(within(form).getByRole('radio', { name: /Private/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    const settings = await screen.findByRole(
      'article',
      { name: 'Settings for #jsdom-made' },
      {
        timeout: 5_000,
      },
    );
    expect(subscription('jsdom-made')).toMatchObject({ invite_only: true });
    expect(within(settings).getByRole('img', { name: 'Private channel' })).toBeTruthy();
    fireEvent.click(within(settings).getByRole('tab', { name: 'Subscribers' }));
    const list = within(settings).getByRole('list', { name: 'Subscribers' });
    expect(list.textContent).toMatch(/Farid Member/);
    expect(list.textContent).toMatch(/Dev Member/);
  });

  it('applies colour, pin, mute and notification overrides from the update events', async () => {
    const id = subscription('jsdom-made')!.stream_id;
    showChannels({ kind: 'channels', streamId: id });
    const settings = screen.getByRole('article', { name: 'Settings for #jsdom-made' });
    fireEvent.click(within(settings).getByRole('radio', { name: 'Color #4f8de4' }));
    fireEvent.click(within(settings).getByRole('checkbox', { name: /Pin channel/ }));
    fireEvent.click(within(settings).getByRole('checkbox', { name: 'Mute channel' }));
    fireEvent.change(
      within(settings).getByRole('combobox', { name: 'Audible desktop notifications' }),
      {
        target: { value: 'on' },
      },
    );
    await waitFor(() =>
      expect(subscription('jsdom-made')).toMatchObject({
        color: '#4f8de4',
        pin_to_top: true,
        is_muted: true,
        audible_notifications: true,
      }),
    );
    expect(
      within(settings).getByRole('radio', { name: 'Color #4f8de4' }).getAttribute('aria-checked'),
    ).toBe('true');
    // The custom colour is sent when the picker closes (its change event).
    fireEvent.change(within(settings).getByLabelText('Custom channel color'), {
      target: { value: '#123456' },
    });
    await waitFor(() => expect(subscription('jsdom-made')?.color).toBe('#123456'));
    expect(
      (
        within(settings).getByRole('combobox', {
          name: 'Audible desktop notifications',
        }) as HTMLSelectElement
      ).value,
    ).toBe('on');
  });

  it('adds a person from the subscribers tab', async () => {
    const id = subscription('jsdom-made')!.stream_id;
    showChannels({ kind: 'channels', streamId: id });
    const settings = screen.getByRole('article', { name: 'Settings for #jsdom-made' });
    fireEvent.click(within(settings).getByRole('tab', { name: 'Subscribers' }));
    fireEvent.change(within(settings).getByRole('combobox', { name: 'Add subscribers' }), {
      target: { value: 'emma' },
    });
    fireEvent.click(within(settings).getByRole('option', { name: /Emma Member/ }));
    fireEvent.click(within(settings).getByRole('button', { name: 'Add' }));
    await within(settings).findByText('Added 1 person.');
    await waitFor(() =>
      expect(within(settings).getByRole('list', { name: 'Subscribers' }).textContent).toMatch(
        /Emma Member/,
      ),
    );
  });

  it('offers no create button once the realm keeps channel creation to administrators', async () => {
    showChannels();
    await screen.findByRole('button', { name: 'Create channel' });
    const groups = live.register.realm_user_groups as Array<{ id: number; name: string }>;
    const admins = groups.find((g) => g.name === 'role:administrators')!.id;
    await live.realm.client('owner').patch('/realm', {
      can_create_public_channel_group: JSON.stringify({ new: admins }),
      can_create_private_channel_group: JSON.stringify({ new: admins }),
    });
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Create channel' })).toBeNull(),
    );
    cleanup();
    showChannels({ kind: 'channels', create: true });
    expect(screen.getByRole('note').textContent).toMatch(/do not have permission to create/);
  });
});
