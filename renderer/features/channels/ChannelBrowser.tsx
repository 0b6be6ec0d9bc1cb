// The channel browser (the public web app's "Channel settings" overlay as a screen): every channel
// the person may see from GET /streams, searchable, archived ones on request; each row subscribes
// or unsubscribes in place; beside the list, the chosen channel's settings or the create form.
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Channel } from '../../../shared/api/types';
import { channelNarrow } from '../../../shared/narrow';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../bridge/api';
import { goBack, navigate, uiStore } from '../../store/ui-store';
import { ChannelDescription, ErrorLine, Tabs } from './parts';
import { creatablePrivacies } from './channel-permissions';
import { PersonIcon, PrivacyIcon } from './PrivacyIcon';
import { ChannelSettings } from './ChannelSettings';
import { CreateChannel } from './CreateChannel';

type Tab = 'subscribed' | 'all';
const LIST_TABS = [
  ['subscribed', 'Subscribed'],
  ['all', 'All channels'],
] as const;

/** Back to the view before the browser, past the browser's own pages (channel, create form). */
function leaveChannels(): void {
  while (uiStore.getState().route.kind === 'channels' && uiStore.getState().previous.length > 0)
    goBack();
}

export function channelsQueryKey(accountId: string, generation: number, archived: boolean) {
  return ['channels', accountId, generation, archived] as const;
}

export function ChannelBrowser({
  accountId,
  streamId,
  create,
}: {
  accountId: string;
  streamId?: number;
  create?: boolean;
}) {
  const [tab, setTab] = useState<Tab>('all');
  const [search, setSearch] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const query = useQuery({
    queryKey: channelsQueryKey(accountId, generation, showArchived),
    queryFn: () => api().getStreams({ accountId, excludeArchived: !showArchived }),
  });
  // Live records from events (subscriber counts, renames, new channels) win over the fetched list.
  const live = useChatStore((s) => selectActiveAccount(s)?.channels);
  const mayCreate = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? creatablePrivacies(account).length > 0 : false;
  });

  const rows = useMemo(() => {
    const byId = new Map<number, Channel>();
    for (const c of query.data?.streams ?? [])
      byId.set(c.stream_id, live?.channels.get(c.stream_id) ?? c);
    for (const sub of live?.subscriptions.values() ?? []) {
      if (!byId.has(sub.stream_id) && (showArchived || !sub.is_archived))
        byId.set(sub.stream_id, sub);
    }
    const needle = search.trim().toLowerCase();
    return [...byId.values()]
      .filter((c) => tab === 'all' || live?.subscriptions.has(c.stream_id))
      .filter(
        (c) =>
          !needle ||
          c.name.toLowerCase().includes(needle) ||
          c.description.toLowerCase().includes(needle),
      )
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [query.data, live, search, tab, showArchived]);

  return (
    <div
      className={
        create || streamId !== undefined ? 'channel-browser has-detail' : 'channel-browser'
      }
    >
      <section className="channel-list-pane" aria-label="Channels">
        <header className="channel-browser-header">
          {/* The overlay's title bar already says "Channels"; the heading stays for screen readers. */}
          <h1 className="visually-hidden">Channels</h1>
          <Tabs label="Which channels" tabs={LIST_TABS} value={tab} onChange={setTab} />
          {mayCreate ? (
            <button
              type="button"
              className="primary"
              onClick={() => navigate({ kind: 'channels', create: true })}
            >
              Create channel
            </button>
          ) : null}
        </header>
        <input
          type="search"
          aria-label="Filter channels"
          placeholder="Filter channels"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          // Esc in the empty field leaves the browser, as Esc closes the web app's overlay.
          onKeyDown={(e) => e.key === 'Escape' && search === '' && leaveChannels()}
          autoFocus
        />
        <label className="archived-toggle">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(e) => setShowArchived(e.target.checked)}
          />
          Show archived channels
        </label>
        <ErrorLine error={query.error ? errorText(query.error) : null} />
        {query.isPending ? <p className="placeholder">Loading channels…</p> : null}
        <ul className="channel-rows">
          {rows.map((channel) => (
            <BrowserRow
              key={channel.stream_id}
              accountId={accountId}
              channel={channel}
              subscribed={live?.subscriptions.has(channel.stream_id) ?? false}
              color={live?.subscriptions.get(channel.stream_id)?.color}
              selected={streamId === channel.stream_id}
            />
          ))}
          {!query.isPending && rows.length === 0 ? (
            <li className="placeholder">No channels match.</li>
          ) : null}
        </ul>
      </section>
      <section className="channel-detail-pane" aria-label="Channel details">
        {/* Narrow windows show one pane at a time (channels.css); this leads back to the list. */}
        <button
          type="button"
          className="link channel-detail-back"
          onClick={() => navigate({ kind: 'channels' })}
        >
          ← All channels
        </button>
        {create ? (
          <CreateChannel accountId={accountId} />
        ) : streamId !== undefined ? (
          <ChannelSettings accountId={accountId} streamId={streamId} />
        ) : (
          <p className="placeholder">Choose a channel to see its settings.</p>
        )}
      </section>
    </div>
  );
}

function BrowserRow({
  accountId,
  channel,
  subscribed,
  color,
  selected,
}: {
  accountId: string;
  channel: Channel;
  subscribed: boolean;
  color: string | undefined;
  selected: boolean;
}) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setPending(true);
    setError(null);
    try {
      if (subscribed) await api().unsubscribe({ accountId, subscriptions: [channel.name] });
      else await api().subscribe({ accountId, subscriptions: [{ name: channel.name }] });
      await queryClient.invalidateQueries({ queryKey: ['channels', accountId] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  };
  // The store's subscriber list follows peer events; the fetched count does not.
  const count = channel.subscribers?.length ?? channel.subscriber_count;
  return (
    <li
      className={`channel-row${selected ? ' selected' : ''}${channel.is_archived ? ' archived' : ''}`}
      data-testid={`browse-${channel.name}`}
    >
      <span className="swatch" style={{ background: color ?? 'transparent' }} aria-hidden="true" />
      <div className="channel-row-main">
        <button
          type="button"
          className="link channel-name"
          // A channel whose messages the person cannot read yet opens its settings page instead.
          onClick={() =>
            navigate(
              subscribed || !channel.invite_only
                ? { kind: 'narrow', narrow: channelNarrow(channel.stream_id) }
                : { kind: 'channels', streamId: channel.stream_id },
            )
          }
          title={subscribed ? 'Open channel' : 'Preview channel'}
        >
          <PrivacyIcon channel={channel} />
          {channel.name}
          {channel.is_archived ? <span className="tag">archived</span> : null}
        </button>
        <ChannelDescription html={channel.rendered_description} accountId={accountId} />
        <ErrorLine error={error} />
      </div>
      {count !== undefined ? (
        <span
          className="subscriber-count"
          aria-label={`${count} ${count === 1 ? 'subscriber' : 'subscribers'}`}
          title="Subscribers"
        >
          <PersonIcon /> {count}
        </span>
      ) : null}
      <button
        type="button"
        className="settings-link"
        aria-label={`Settings for #${channel.name}`}
        onClick={() => navigate({ kind: 'channels', streamId: channel.stream_id })}
      >
        ⚙
      </button>
      {channel.is_archived ? null : (
        <button
          type="button"
          className={subscribed ? 'subscribed' : 'primary'}
          disabled={pending}
          aria-label={`${subscribed ? 'Unsubscribe from' : 'Subscribe to'} #${channel.name}`}
          onClick={() => void toggle()}
        >
          {pending ? '…' : subscribed ? 'Unsubscribe' : 'Subscribe'}
        </button>
      )}
    </li>
  );
}
