// The right sidebar: people grouped by presence with a search box; in a channel, its subscribers.
// Rows are virtualized (fixed height), so a realm of 10,000 people renders only what is in view; the
// groups are recomputed when the users, the channel, the query or someone's status change.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useAccountNames, useChatStore } from '../../store/hooks';
import { presenceStatus, selectActiveAccount } from '../../store';
import { useUi } from '../../store/ui-store';
import { channelIdOf } from '../messages/narrow-info';
import { StatusDot } from './PresenceDot';
import { avatarSource, initialsOf } from '../messages/MessageRow';
import { Emoji } from '../emoji/Emoji';
import type { User } from '../../../shared/api/types';
import { openUserPopover } from './UserPopover';
import { groupUsers, sortUsersByName, userListRows, type UserListRow } from './user-list-model';

/** Row heights by user_list_style: 1 compact (name only), 2 with status text, 3 with avatar too. */
const ROW_HEIGHT: Record<number, number> = { 1: 30, 2: 44, 3: 44 };

export function UserList() {
  const names = useAccountNames();
  const presence = useChatStore((s) => selectActiveAccount(s)?.presence);
  const muted = useChatStore((s) => selectActiveAccount(s)?.mutedUsers.byUser);
  const statuses = useChatStore((s) => selectActiveAccount(s)?.statuses.byUser);
  const listStyle = useChatStore((s) => selectActiveAccount(s)?.settings.user.user_list_style ?? 3);
  const rowHeight = ROW_HEIGHT[listStyle] ?? ROW_HEIGHT[3];
  const accountId = useChatStore((s) => s.activeAccountId ?? '');
  const route = useUi((s) => s.route);
  const [query, setQuery] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);

  const channelId = route.kind === 'narrow' ? channelIdOf(route.narrow, names) : undefined;
  const channelName = channelId !== undefined ? names?.channels.channels.get(channelId)?.name : '';
  const subscribers = useMemo(() => {
    if (channelId === undefined || !names) return undefined;
    const list =
      names.channels.subscriptions.get(channelId)?.subscribers ??
      names.channels.channels.get(channelId)?.subscribers;
    return list ? new Set(list) : undefined;
  }, [channelId, names]);

  // Sorted once per change of the users, not per presence update or keystroke.
  const usersSlice = names?.users;
  const ordered = useMemo(
    () => (usersSlice ? sortUsersByName(usersSlice.users.values()) : []),
    [usersSlice],
  );
  const rows = useMemo<UserListRow[]>(() => {
    if (!names || !presence) return [];
    return userListRows(
      groupUsers({
        users: ordered,
        sorted: true,
        statusOf: (id) => presenceStatus(presence, id),
        selfUserId: names.selfUserId,
        only: subscribers,
        muted,
        query,
      }),
    );
  }, [names, ordered, presence, subscribers, muted, query]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    initialRect: { width: 240, height: 600 },
  });

  // Rows are of one fixed height; a new style changes it for every row.
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);

  if (!names) return null;
  return (
    <aside className="user-list" aria-label="People">
      <input
        type="search"
        className="user-list-search"
        aria-label="Search people"
        placeholder="Search people"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && query) {
            e.stopPropagation();
            setQuery('');
          }
        }}
      />
      <p className="user-list-scope">
        {subscribers && channelName ? `In #${channelName}` : 'Everyone in the organization'}
      </p>
      <div className="user-list-scroll" ref={scrollRef}>
        {rows.length === 0 ? (
          <p className="user-list-empty" role="status">
            {names.users.loading ? 'Loading people…' : 'No matching people'}
          </p>
        ) : null}
        <ul style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            const style = {
              position: 'absolute' as const,
              top: 0,
              left: 0,
              right: 0,
              height: rowHeight,
              transform: `translateY(${item.start}px)`,
            };
            if (row.kind === 'header') {
              return (
                <li
                  key={`h-${row.status}`}
                  className="user-list-header"
                  style={style}
                  data-group={row.status}
                >
                  {row.title} <span className="count">{row.count}</span>
                </li>
              );
            }
            const user = names.users.users.get(row.userId);
            const status = listStyle === 1 ? undefined : statuses?.get(row.userId);
            return (
              <li key={row.userId} style={style} data-group={row.status}>
                <button
                  type="button"
                  className={`user-list-row user-list-style-${listStyle}`}
                  onClick={(e) => openUserPopover(row.userId, e.currentTarget)}
                >
                  {listStyle === 3 ? (
                    <span className="user-list-avatar">
                      <ListAvatar accountId={accountId} user={user} />
                      <StatusDot status={row.status} />
                    </span>
                  ) : (
                    <StatusDot status={row.status} />
                  )}
                  <span className="user-list-text">
                    <span className="name-line">
                      <span className="name">{user?.full_name}</span>
                      {row.userId === names.selfUserId ? <span className="you">(you)</span> : null}
                      {status?.emoji_name ? (
                        <Emoji
                          name={status.emoji_name}
                          code={status.emoji_code ?? ''}
                          type={status.reaction_type}
                        />
                      ) : null}
                    </span>
                    {status?.status_text ? (
                      <span className="status-text">{status.status_text}</span>
                    ) : null}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </aside>
  );
}

/**
 * A row's picture, or initials drawn by the stylesheet (from data-initials), so the row's text stays
 * the person's name alone.
 */
export function ListAvatar({ accountId, user }: { accountId: string; user: User | undefined }) {
  const src = avatarSource(accountId, user);
  if (src) return <img className="user-list-avatar-image" src={src} alt="" />;
  return (
    <span
      className="user-list-avatar-image initials"
      data-initials={initialsOf(user?.full_name ?? '')}
      aria-hidden="true"
    />
  );
}
