// The left sidebar: views (inbox, recent conversations, all messages, mentions, starred, drafts),
// channels in pinned / active / muted sections with colors and unread counts, the topics of the
// open channel (resolved, muted and followed shown), and direct-message conversations.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useChatStore, useUnreadCounts } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { channelNarrow, dmNarrow, narrowKey, topicNarrow } from '../../../shared/narrow';
import { navigate, useUi, type Route } from '../../src/ui-store';
import { api, errorText } from '../../src/tributary';
import { channelIdOf, userName } from '../messages/narrow-info';
import {
  channelSections,
  dmConversations,
  topicsOf,
  type ServerTopic,
  type ChannelItem,
  type TopicItem,
} from './sidebar-model';

function Count({ n, label }: { n: number; label: string }) {
  if (n <= 0) return null;
  return (
    <span className="count" aria-label={`${n} unread ${label}`} data-testid="unread-count">
      {n}
    </span>
  );
}

function isRoute(route: Route, key: string): boolean {
  return route.kind === 'narrow' ? narrowKey(route.narrow) === key : route.kind === key;
}

export function Sidebar({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const counts = useUnreadCounts();
  const route = useUi((s) => s.route);
  const drafts = useUi((s) => s.drafts[accountId]?.length ?? 0);
  const sections = useMemo(() => channelSections(account, counts), [account, counts]);
  const dms = useMemo(() => dmConversations(account, counts), [account, counts]);
  const openChannel = route.kind === 'narrow' ? channelIdOf(route.narrow, account) : undefined;
  const [error, setError] = useState<string | null>(null);

  const views: Array<{ label: string; route: Route; key: string; count?: number }> = [
    { label: 'Inbox', route: { kind: 'inbox' }, key: 'inbox', count: counts.total },
    { label: 'Recent conversations', route: { kind: 'recent' }, key: 'recent' },
    { label: 'All messages', route: { kind: 'narrow', narrow: [] }, key: narrowKey([]) },
    {
      label: 'Mentions',
      route: { kind: 'narrow', narrow: [{ operator: 'is', operand: 'mentioned' }] },
      key: narrowKey([{ operator: 'is', operand: 'mentioned' }]),
      count: counts.mentions,
    },
    {
      label: 'Starred messages',
      route: { kind: 'narrow', narrow: [{ operator: 'is', operand: 'starred' }] },
      key: narrowKey([{ operator: 'is', operand: 'starred' }]),
    },
    { label: 'Drafts', route: { kind: 'drafts' }, key: 'drafts', count: drafts },
  ];

  const run = (p: Promise<unknown>) => {
    setError(null);
    p.catch((e: unknown) => setError(errorText(e)));
  };

  const setSubscription = (streamId: number, property: 'is_muted' | 'pin_to_top', value: boolean) =>
    run(
      api().updateSubscriptionProperties({ accountId, changes: [{ streamId, property, value }] }),
    );

  const channelRow = (item: ChannelItem) => {
    const id = item.sub.stream_id;
    const open = openChannel === id;
    return (
      <li
        key={id}
        className={`channel${item.muted ? ' muted' : ''}`}
        data-testid={`channel-${item.sub.name}`}
      >
        <div className="row">
          <button
            type="button"
            className={`nav${route.kind === 'narrow' && isRoute(route, narrowKey(channelNarrow(id))) ? ' active' : ''}`}
            onClick={() => navigate({ kind: 'narrow', narrow: channelNarrow(id) })}
          >
            <span className="swatch" style={{ background: item.sub.color }} aria-hidden="true" />
            <span className="name">#{item.sub.name}</span>
            <Count n={item.unread} label={`in #${item.sub.name}`} />
          </button>
          <RowMenu label={`Channel #${item.sub.name} options`}>
            <button
              type="button"
              role="menuitem"
              onClick={() => setSubscription(id, 'is_muted', !item.muted)}
            >
              {item.muted ? 'Unmute channel' : 'Mute channel'}
            </button>
            <button
              type="button"
              role="menuitem"
              onClick={() => setSubscription(id, 'pin_to_top', !item.sub.pin_to_top)}
            >
              {item.sub.pin_to_top ? 'Unpin channel' : 'Pin channel to top'}
            </button>
            <button
              type="button"
              role="menuitem"
              onClick={() => run(markNarrowRead(accountId, channelNarrow(id)))}
            >
              Mark channel as read
            </button>
          </RowMenu>
        </div>
        {open ? (
          <ChannelTopics
            accountId={accountId}
            streamId={id}
            name={item.sub.name}
            render={(serverTopics) =>
              topicsOf(account, counts, id, serverTopics).map((t) => topicRow(id, t))
            }
          />
        ) : null}
      </li>
    );
  };

  const topicRow = (streamId: number, t: TopicItem) => {
    const narrow = topicNarrow(streamId, t.name);
    return (
      <li key={t.name} className={`topic${t.muted ? ' muted' : ''}`}>
        <div className="row">
          <button
            type="button"
            className={`nav${isRoute(route, narrowKey(narrow)) ? ' active' : ''}`}
            onClick={() => navigate({ kind: 'narrow', narrow })}
          >
            <span className="name">{t.name || '(no topic)'}</span>
            {t.policy === 3 ? (
              <span className="icon" role="img" aria-label="Followed">
                ◉
              </span>
            ) : null}
            {t.muted ? (
              <span className="icon" role="img" aria-label="Muted">
                🔇
              </span>
            ) : null}
            <Count n={t.muted ? 0 : t.unread} label={`in ${t.name}`} />
          </button>
          <RowMenu label={`Topic ${t.name} options`}>
            {/* Each toggle sets its policy, or back to none (0) when it is the current one. */}
            {(
              [
                [1, 'Unmute topic', 'Mute topic'],
                [3, 'Unfollow topic', 'Follow topic'],
              ] as const
            ).map(([policy, undo, label]) => (
              <button
                key={policy}
                type="button"
                role="menuitem"
                onClick={() =>
                  run(setPolicy(accountId, streamId, t.name, t.policy === policy ? 0 : policy))
                }
              >
                {t.policy === policy ? undo : label}
              </button>
            ))}
            <button
              type="button"
              role="menuitem"
              onClick={() => run(markNarrowRead(accountId, narrow))}
            >
              Mark topic as read
            </button>
          </RowMenu>
        </div>
      </li>
    );
  };

  return (
    <nav className="sidebar" aria-label="Conversations">
      <ul className="views">
        {views.map((v) => (
          <li key={v.key}>
            <button
              type="button"
              className={`nav${isRoute(route, v.key) ? ' active' : ''}`}
              onClick={() => navigate(v.route)}
            >
              <span className="name">{v.label}</span>
              <Count n={v.count ?? 0} label={v.label} />
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {sections.pinned.length > 0 ? (
        <section aria-label="Pinned channels">
          <h2>Pinned</h2>
          <ul>{sections.pinned.map(channelRow)}</ul>
        </section>
      ) : null}
      <section aria-label="Channels">
        <h2>Channels</h2>
        <ul>{sections.active.map(channelRow)}</ul>
      </section>
      {sections.muted.length > 0 ? (
        <section aria-label="Muted channels">
          <h2>Muted</h2>
          <ul>{sections.muted.map(channelRow)}</ul>
        </section>
      ) : null}
      <section aria-label="Direct messages">
        <h2>Direct messages</h2>
        <ul>
          {dms.slice(0, 30).map((dm) => {
            const names = dm.userIds.map((id) => userName(account, id)).join(', ');
            const narrow = dmNarrow(dm.userIds);
            return (
              <li key={dm.key}>
                <button
                  type="button"
                  className={`nav${isRoute(route, narrowKey(narrow)) ? ' active' : ''}`}
                  onClick={() => navigate({ kind: 'narrow', narrow })}
                >
                  <span className="name">{names}</span>
                  <Count n={dm.unread} label={`from ${names}`} />
                </button>
              </li>
            );
          })}
        </ul>
      </section>
    </nav>
  );
}

/** The open channel's topic list: the server's full list (fetched once per open), merged with what
 * events and loaded messages add. */
function ChannelTopics({
  accountId,
  streamId,
  name,
  render,
}: {
  accountId: string;
  streamId: number;
  name: string;
  render: (serverTopics: readonly ServerTopic[] | undefined) => React.ReactNode;
}) {
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const topics = useQuery({
    queryKey: ['channel-topics', accountId, generation, streamId],
    queryFn: () => api().getStreamTopics({ accountId, streamId }),
    staleTime: 60_000,
    retry: 1,
  });
  return (
    <ul className="topics" aria-label={`Topics in #${name}`}>
      {render(topics.data?.topics)}
    </ul>
  );
}

function RowMenu({ label, children }: { label: string; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div
      className="row-menu"
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}
    >
      <button
        type="button"
        className="icon"
        aria-label={label}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋮
      </button>
      {open ? (
        <div className="menu" role="menu" aria-label={label} onClick={() => setOpen(false)}>
          {children}
        </div>
      ) : null}
    </div>
  );
}

export function setPolicy(
  accountId: string,
  streamId: number,
  topic: string,
  visibilityPolicy: number,
) {
  return api().setUserTopic({ accountId, streamId, topic, visibilityPolicy });
}

export function markNarrowRead(accountId: string, narrow: import('../../../shared/narrow').Narrow) {
  return api().updateFlagsForNarrow({
    accountId,
    anchor: 'oldest',
    numBefore: 0,
    numAfter: 5000,
    narrow: [...narrow, { operator: 'is', operand: 'unread' }],
    op: 'add',
    flag: 'read',
  });
}
