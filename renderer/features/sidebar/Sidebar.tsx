// The left sidebar: views (inbox, recent conversations, all messages, mentions, starred, drafts),
// channels in pinned / active / muted sections with colors and unread counts, the topics of the
// open channel (resolved, muted and followed shown), and direct-message conversations.
//
// Each part selects only what it shows (the sections, one channel's count, the open channel's
// topics, the conversation list), so an event re-renders only the rows whose values changed: a
// typing notification or a message elsewhere leaves the rest of the sidebar alone.
import {
  memo,
  startTransition,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount, selectUnreadCounts } from '../../store';
import type { Subscription, VisibilityPolicy } from '../../../shared/api/types';
import { channelNarrow, dmNarrow, narrowKey, topicNarrow } from '../../../shared/narrow';
import { PresenceDot } from '../people/PresenceDot';
import { navigate, uiStore, useUi, type Route } from '../../store/ui-store';
import { api, errorText } from '../../bridge/api';
import { channelIdOf, userName } from '../messages/narrow-info';
import {
  filterChannelSections,
  selectChannelSections,
  selectChannelTopics,
  selectDmConversations,
} from './sidebar-model';
import { ChannelList, virtualRowStyle, type RowSlot } from './ChannelList';
import { channelClickNarrow, needsTopics } from './channel-default-view';
import { RowMenu } from './RowMenu';
import { MenuItem } from '../../lib/ui/Menu';
import { Bell, BellOff, BookCheck, Pin, PinOff, Settings, VolumeX } from 'lucide-react';
import { TopicMenu } from '../topics/TopicMenu';
import { markNarrowRead } from '../topics/topic-actions';

/** Shows a failed request's error above the channels. */
type Report = (request: Promise<unknown>) => void;

function Count({ n, label, id }: { n: number; label: string; id?: string }) {
  if (n <= 0) return null;
  return (
    <span className="count" aria-label={label} data-testid="unread-count" id={id}>
      {n}
    </span>
  );
}

/** What identifies the open view: its narrow's key, or the route's kind ('inbox', 'drafts'...). */
function routeKeyOf(route: Route): string {
  return route.kind === 'narrow' ? narrowKey(route.narrow) : route.kind;
}

const navClass = (active: boolean) => `nav${active ? ' active' : ''}`;

export function Sidebar({ accountId }: { accountId: string }) {
  const allSections = useChatStore((s) => selectChannelSections(selectActiveAccount(s)));
  const [filter, setFilter] = useState('');
  const sections = filterChannelSections(allSections, filter);
  const noChannelsShown =
    sections.pinned.length + sections.active.length + sections.muted.length === 0;
  const route = useUi((s) => s.route);
  const routeKey = routeKeyOf(route);
  const openChannel = useChatStore((s) =>
    route.kind === 'narrow' ? channelIdOf(route.narrow, selectActiveAccount(s)) : undefined,
  );
  const [error, setError] = useState<string | null>(null);
  const report = useCallback<Report>((request) => {
    setError(null);
    request.catch((e: unknown) => setError(errorText(e)));
  }, []);

  // Each row gets only what it shows of the route (is it the open view, which of its topics is),
  // so opening another conversation re-renders the rows it leaves and enters, not every row.
  const [scrollElement, setScrollElement] = useState<HTMLElement | null>(null);
  const channelRow = (sub: Subscription, slot?: RowSlot) => (
    <ChannelRow
      // A virtualized row is keyed by its place, so a filter keystroke reuses the rows in view
      // (see ChannelList); a whole list's rows by their channel.
      key={slot ? `slot-${slot.index}` : sub.stream_id}
      accountId={accountId}
      sub={sub}
      open={openChannel === sub.stream_id}
      active={routeKey === narrowKey(channelNarrow(sub.stream_id))}
      topicRouteKey={openChannel === sub.stream_id ? routeKey : ''}
      report={report}
      slotIndex={slot?.index}
      slotTop={slot?.top}
      observe={slot?.observe}
      measureNow={slot?.measureNow}
    />
  );
  const channelRows = (section: keyof typeof sections) => (
    <ChannelList
      subs={sections[section]}
      sectionSize={allSections[section].length}
      row={channelRow}
      scrollElement={scrollElement}
    />
  );

  return (
    <nav className="sidebar" aria-label="Conversations" ref={setScrollElement}>
      <SidebarViews accountId={accountId} routeKey={routeKey} />
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {sections.pinned.length > 0 ? (
        <section aria-label="Pinned channels">
          <h2>Pinned</h2>
          {channelRows('pinned')}
        </section>
      ) : null}
      <section aria-label="Channels">
        <div className="section-header">
          <h2>Channels</h2>
          <button
            type="button"
            className="icon"
            aria-label="Browse channels"
            title="Browse and subscribe to channels"
            onClick={() => navigate({ kind: 'channels' })}
          >
            +
          </button>
        </div>
        <ChannelFilter onFilter={setFilter} />
        {channelRows('active')}
        {noChannelsShown ? (
          <p className="sidebar-empty" role="status">
            {filter ? 'No matching channels' : 'You are not subscribed to any channels yet.'}
          </p>
        ) : null}
      </section>
      {sections.muted.length > 0 ? (
        <section aria-label="Muted channels">
          <h2>Muted</h2>
          {channelRows('muted')}
        </section>
      ) : null}
      <DmList routeKey={routeKey} />
    </nav>
  );
}

/**
 * The channel filter's input. It keeps its own text, so a keystroke re-renders only the input and
 * paints at once; the lists follow in a transition React may interrupt for the next key (the
 * filter over hundreds of channels and the rows it mounts never hold up the typed letter).
 */
function ChannelFilter({ onFilter }: { onFilter: (query: string) => void }) {
  const [text, setText] = useState('');
  const change = (next: string) => {
    setText(next);
    startTransition(() => onFilter(next));
  };
  return (
    <input
      type="search"
      className="channel-filter"
      aria-label="Filter sidebar channels"
      placeholder="Filter channels"
      value={text}
      onChange={(e) => change(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && text) {
          e.stopPropagation();
          change('');
        }
      }}
    />
  );
}

const MENTIONS_NARROW = [{ operator: 'is', operand: 'mentioned' }];
const STARRED_NARROW = [{ operator: 'is', operand: 'starred' }];

// Memoized, as is DmList: a filter keystroke re-renders the Sidebar, not these.
const SidebarViews = memo(function SidebarViews({
  accountId,
  routeKey,
}: {
  accountId: string;
  routeKey: string;
}) {
  const total = useChatStore((s) => selectUnreadCounts(selectActiveAccount(s)).total);
  const mentions = useChatStore((s) => selectUnreadCounts(selectActiveAccount(s)).mentions);
  const drafts = useUi((s) => s.drafts[accountId]?.length ?? 0);
  const scheduled = useChatStore((s) => selectActiveAccount(s)?.scheduledMessages.byId.size ?? 0);
  const idPrefix = useId();
  // Each count says what it counts (unread, drafts, scheduled) in its own label, which describes
  // the button: the button's name stays the view's name.
  const views: Array<{
    label: string;
    route: Route;
    key: string;
    count?: number;
    counts?: (n: number) => string;
  }> = [
    { label: 'Inbox', route: { kind: 'inbox' }, key: 'inbox', count: total },
    { label: 'Recent conversations', route: { kind: 'recent' }, key: 'recent' },
    { label: 'All messages', route: { kind: 'narrow', narrow: [] }, key: narrowKey([]) },
    {
      label: 'Mentions',
      route: { kind: 'narrow', narrow: MENTIONS_NARROW },
      key: narrowKey(MENTIONS_NARROW),
      count: mentions,
      counts: (n) => `${n} unread ${n === 1 ? 'mention' : 'mentions'}`,
    },
    {
      label: 'Starred messages',
      route: { kind: 'narrow', narrow: STARRED_NARROW },
      key: narrowKey(STARRED_NARROW),
    },
    {
      label: 'Drafts',
      route: { kind: 'drafts' },
      key: 'drafts',
      count: drafts,
      counts: (n) => `${n} ${n === 1 ? 'draft' : 'drafts'}`,
    },
    {
      label: 'Scheduled messages',
      route: { kind: 'scheduled' },
      key: 'scheduled',
      count: scheduled,
      counts: (n) => `${n} scheduled`,
    },
  ];
  return (
    <ul className="views">
      {views.map((v, i) => {
        const n = v.count ?? 0;
        const countId = `${idPrefix}-count-${i}`;
        return (
          <li key={v.key}>
            <button
              type="button"
              className={navClass(routeKey === v.key)}
              aria-label={v.label}
              aria-describedby={n > 0 ? countId : undefined}
              onClick={() => navigate(v.route)}
            >
              <span className="name">{v.label}</span>
              <Count n={n} id={countId} label={(v.counts ?? ((k) => `${k} unread`))(n)} />
            </button>
          </li>
        );
      })}
    </ul>
  );
});

const ChannelRow = memo(function ChannelRow({
  accountId,
  sub,
  open,
  active,
  topicRouteKey,
  report,
  slotIndex,
  slotTop,
  observe,
  measureNow,
}: {
  accountId: string;
  sub: Subscription;
  /** The row's RowSlot, when the list is virtualized (ChannelList): passed as plain values. */
  slotIndex?: number;
  slotTop?: number;
  observe?: RowSlot['observe'];
  measureNow?: RowSlot['measureNow'];
  /** The route is in this channel (its topics are listed). */
  open: boolean;
  /** The route is this channel. */
  active: boolean;
  /** The route's key while the channel is open ('' otherwise): which topic is active. */
  topicRouteKey: string;
  report: Report;
}) {
  const id = sub.stream_id;
  const unread = useChatStore(
    (s) => selectUnreadCounts(selectActiveAccount(s)).channels.get(id)?.count ?? 0,
  );
  const muted = sub.is_muted;
  // The open channel's topics make it taller than a row from its first frame: its height is taken
  // as it opens or moves to another place, before the browser paints the rows after it over it.
  const element = useRef<HTMLLIElement>(null);
  useLayoutEffect(() => {
    if (open && slotIndex !== undefined && element.current)
      measureNow?.(slotIndex, element.current);
  }, [open, slotIndex, measureNow]);
  // One function for the element's life: a changed ref would be detached and attached (its height
  // unobserved and observed again) on every render, as each filter keystroke renders the rows.
  const rowRef = useCallback(
    (li: HTMLLIElement | null) => {
      element.current = li;
      return observe?.(li);
    },
    [observe],
  );
  const store = useChatStoreApi();
  const queryClient = useQueryClient();
  const openChannel = async () => {
    const account = selectActiveAccount(store.getState());
    const view = account?.settings.user.web_channel_default_view ?? 1;
    if (!account || !needsTopics(view)) {
      return navigate({ kind: 'narrow', narrow: channelNarrow(id) });
    }
    // The person may go elsewhere while the topics load (a slow server): the later choice wins.
    const routeAtClick = uiStore.getState().route;
    // The same query the sidebar's topic list makes, so a second click asks nothing.
    const server = await queryClient
      .fetchQuery({
        queryKey: ['channel-topics', accountId, account.generation, id],
        queryFn: () => api().getStreamTopics({ accountId, streamId: id }),
        staleTime: 60_000,
      })
      .catch(() => undefined);
    if (uiStore.getState().route !== routeAtClick) return;
    const topics = selectChannelTopics(selectActiveAccount(store.getState()), id, server?.topics);
    navigate({ kind: 'narrow', narrow: channelClickNarrow(id, view, topics) });
  };
  const setSubscription = (property: 'is_muted' | 'pin_to_top', value: boolean) =>
    report(
      api().updateSubscriptionProperties({
        accountId,
        changes: [{ streamId: id, property, value }],
      }),
    );
  return (
    <li
      className={`channel${muted ? ' muted' : ''}`}
      data-testid={`channel-${sub.name}`}
      data-index={slotIndex}
      ref={rowRef}
      style={slotTop === undefined ? undefined : virtualRowStyle(slotTop)}
    >
      <div className="row">
        <button type="button" className={navClass(active)} onClick={() => void openChannel()}>
          <span className="swatch" style={{ background: sub.color }} aria-hidden="true" />
          <span className="name">#{sub.name}</span>
          <Count n={unread} label={`${unread} unread in #${sub.name}`} />
        </button>
        <RowMenu label={`Channel #${sub.name} options`}>
          <MenuItem
            icon={muted ? Bell : BellOff}
            onSelect={() => setSubscription('is_muted', !muted)}
          >
            {muted ? 'Unmute channel' : 'Mute channel'}
          </MenuItem>
          <MenuItem
            icon={sub.pin_to_top ? PinOff : Pin}
            onSelect={() => setSubscription('pin_to_top', !sub.pin_to_top)}
          >
            {sub.pin_to_top ? 'Unpin channel' : 'Pin channel to top'}
          </MenuItem>
          <MenuItem
            icon={BookCheck}
            onSelect={() => report(markNarrowRead(accountId, channelNarrow(id)))}
          >
            Mark channel as read
          </MenuItem>
          <MenuItem icon={Settings} onSelect={() => navigate({ kind: 'channels', streamId: id })}>
            Channel settings
          </MenuItem>
        </RowMenu>
      </div>
      {open ? (
        <ChannelTopics
          accountId={accountId}
          streamId={id}
          name={sub.name}
          routeKey={topicRouteKey}
          report={report}
        />
      ) : null}
    </li>
  );
});

/** The open channel's topic list: the server's full list (fetched once per open), merged with what
 * events and loaded messages add. */
function ChannelTopics({
  accountId,
  streamId,
  name,
  routeKey,
  report,
}: {
  accountId: string;
  streamId: number;
  name: string;
  routeKey: string;
  report: Report;
}) {
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const serverTopics = useQuery({
    queryKey: ['channel-topics', accountId, generation, streamId],
    queryFn: () => api().getStreamTopics({ accountId, streamId }),
    staleTime: 60_000,
    retry: 1,
  }).data?.topics;
  const topics = useChatStore((s) =>
    selectChannelTopics(selectActiveAccount(s), streamId, serverTopics),
  );
  return (
    <ul className="topics" aria-label={`Topics in #${name}`}>
      {serverTopics && topics.length === 0 ? (
        <li className="sidebar-empty topics-empty">No topics yet.</li>
      ) : null}
      {topics.map((t) => (
        <TopicRow
          key={t.name}
          accountId={accountId}
          streamId={streamId}
          name={t.name}
          unread={t.unread}
          policy={t.policy}
          muted={t.muted}
          active={routeKey === narrowKey(topicNarrow(streamId, t.name))}
          report={report}
        />
      ))}
    </ul>
  );
}

const TopicRow = memo(function TopicRow({
  accountId,
  streamId,
  name,
  unread,
  policy,
  muted,
  active,
  report,
}: {
  accountId: string;
  streamId: number;
  name: string;
  unread: number;
  policy: VisibilityPolicy;
  muted: boolean;
  active: boolean;
  report: Report;
}) {
  const narrow = topicNarrow(streamId, name);
  return (
    <li className={`topic${muted ? ' muted' : ''}`}>
      <div className="row">
        <button
          type="button"
          className={navClass(active)}
          onClick={() => navigate({ kind: 'narrow', narrow })}
        >
          <span className="name">{name || '(no topic)'}</span>
          {policy === 3 ? (
            <span className="icon" role="img" aria-label="Followed">
              ◉
            </span>
          ) : null}
          {muted ? (
            <span className="icon" role="img" aria-label="Muted">
              {/* An icon, not the 🔇 character: that needs an emoji font the system may lack. */}
              <VolumeX size={13} aria-hidden="true" />
            </span>
          ) : null}
          <Count n={muted ? 0 : unread} label={`${unread} unread in ${name}`} />
        </button>
        <TopicMenu accountId={accountId} streamId={streamId} topic={name} report={report} />
      </div>
    </li>
  );
});

/** The 30 most recent direct-message conversations. */
const DmList = memo(function DmList({ routeKey }: { routeKey: string }) {
  const all = useChatStore((s) => selectDmConversations(selectActiveAccount(s)));
  const muted = useChatStore((s) => selectActiveAccount(s)?.mutedUsers.byUser);
  // As in the public web app, conversations only with muted users are left out.
  const dms = useMemo(
    () => (muted?.size ? all.filter((dm) => !dm.userIds.every((id) => muted.has(id))) : all),
    [all, muted],
  );
  return (
    <section aria-label="Direct messages">
      <h2>Direct messages</h2>
      {dms.length === 0 ? <p className="sidebar-empty">No direct messages yet.</p> : null}
      <ul>
        {dms.slice(0, 30).map((dm) => (
          <DmRow
            key={dm.key}
            dmKey={dm.key}
            unread={dm.unread}
            active={routeKey === narrowKey(dmNarrow(dm.userIds))}
          />
        ))}
      </ul>
    </section>
  );
});

const DmRow = memo(function DmRow({
  dmKey,
  unread,
  active,
}: {
  dmKey: string;
  unread: number;
  active: boolean;
}) {
  const narrow = useMemo(() => dmNarrow(dmKey.split(',').map(Number)), [dmKey]);
  // A string: the row re-renders when a participant's name changes, not on other user updates.
  const names = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return dmKey
      .split(',')
      .map((id) => userName(account, Number(id)))
      .join(', ');
  });
  return (
    <li>
      <button
        type="button"
        className={navClass(active)}
        onClick={() => navigate({ kind: 'narrow', narrow })}
      >
        {/* As the public app: a one-to-one conversation shows the person's dot, a group none. */}
        {dmKey.includes(',') ? null : <PresenceDot userId={Number(dmKey)} />}
        <span className="name">{names}</span>
        <Count n={unread} label={`${unread} unread from ${names}`} />
      </button>
    </li>
  );
});

// Kept here for the screens that mark a narrow read from the sidebar's helpers.
export { markNarrowRead };
