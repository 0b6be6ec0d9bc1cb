// Settings > Organization > Channels: every channel the person may see, private and archived ones
// included (the store has them all: register lists them with the archived_channels capability,
// and stream events keep them current), with each one's default-channel state. Choosing one opens
// the same channel settings as the channel browser (General, Personal, Subscribers), whose General
// tab carries the administration: rename, description, privacy, permission groups, archive and
// unarchive. Administrators also get "Create channel" for others and the default-channel switch.
import { useMemo, useState } from 'react';
import type { Channel } from '../../../../shared/api/types';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import { creatablePrivacies, isRealmAdmin } from '../../channels/channel-permissions';
import { PrivacyIcon } from '../../channels/PrivacyIcon';
import { ChannelSettings } from '../../channels/ChannelSettings';
import { CreateChannel } from '../../channels/CreateChannel';
import { AdminFilters } from './admin-filters';
import { StatusLine, useAdminAction } from './admin-action';
import { matchesFilter } from './extras-kit';
import './admin-people.css';

const EMPTY: readonly number[] = [];

export function Channels({ accountId }: { accountId: string }) {
  // The slice, not its map: the maps are updated in place and the slice object is what changes.
  const live = useChatStore((s) => selectActiveAccount(s)?.channels);
  const defaults = useChatStore(
    (s) => (selectActiveAccount(s)?.settings.realm.realm_default_streams as number[]) ?? EMPTY,
  );
  const admin = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? isRealmAdmin(account) : false;
  });
  const mayCreate = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? isRealmAdmin(account) && creatablePrivacies(account).length > 0 : false;
  });
  const [search, setSearch] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [selected, setSelected] = useState<number | 'create' | null>(null);
  const action = useAdminAction();

  const rows = useMemo(() => {
    return [...(live?.channels.values() ?? [])]
      .filter((c) => showArchived || !c.is_archived)
      .filter((c) => matchesFilter(search, c.name))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [live, search, showArchived]);

  const toggleDefault = (channel: Channel, isDefault: boolean) => {
    if (isDefault && channel.invite_only) {
      action.fail('Private channels cannot be default channels.');
      return;
    }
    action.run(api().setDefaultChannel({ accountId, channelId: channel.stream_id, isDefault }));
  };

  return (
    <section className="admin-screen" aria-label="Channels">
      <header className="admin-header">
        <h2>Channels</h2>
        {mayCreate ? (
          <button type="button" className="primary" onClick={() => setSelected('create')}>
            Create channel
          </button>
        ) : null}
      </header>
      <p className="muted">
        {admin
          ? 'All channels in the organization that you can see, including private and archived ones. New users are subscribed to default channels.'
          : 'Channels you can see. Only administrators can change default channels.'}
      </p>
      <AdminFilters
        what="channels"
        search={search}
        onSearch={setSearch}
        toggleLabel="Show archived channels"
        toggled={showArchived}
        onToggle={setShowArchived}
      />
      <StatusLine action={action} />
      <div className="admin-split">
        <table className="admin-table" aria-label="All channels">
          <thead>
            <tr>
              <th>Name</th>
              <th>Subscribers</th>
              <th>Default for new users</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => {
              const isDefault = defaults.includes(c.stream_id);
              return (
                <tr
                  key={c.stream_id}
                  data-testid={`admin-channel-${c.name}`}
                  aria-selected={selected === c.stream_id}
                >
                  <td>
                    <button
                      type="button"
                      className="link row-name"
                      onClick={() => setSelected(c.stream_id)}
                    >
                      <PrivacyIcon channel={c} />
                      {c.name}
                    </button>
                    {c.is_archived ? <span className="badge">Archived</span> : null}
                  </td>
                  <td>{c.subscribers?.length ?? c.subscriber_count ?? ''}</td>
                  <td>
                    {admin && !c.is_archived ? (
                      <input
                        type="checkbox"
                        aria-label={`Default channel: ${c.name}`}
                        checked={isDefault}
                        // As in the public web app: only public channels can be defaults.
                        disabled={c.invite_only && !isDefault}
                        title={
                          c.invite_only ? 'Private channels cannot be default channels.' : undefined
                        }
                        onChange={(e) => toggleDefault(c, e.target.checked)}
                      />
                    ) : isDefault ? (
                      'Yes'
                    ) : (
                      ''
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="admin-detail">
          {selected === 'create' ? (
            <>
              <CreateChannel accountId={accountId} admin onDone={(id) => setSelected(id ?? null)} />
            </>
          ) : selected !== null ? (
            <ChannelSettings key={selected} accountId={accountId} streamId={selected} />
          ) : (
            <p className="placeholder">Choose a channel to see and change its settings.</p>
          )}
        </div>
      </div>
    </section>
  );
}
