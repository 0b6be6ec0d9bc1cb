// Inbox: every conversation with unread messages, grouped by channel, direct messages first, as in
// the public web app: a filter above the groups, each group folded away by its arrow (remembered),
// the channel's colour, an @ where an unread message mentions you, a button to mark a conversation
// or a channel read, and the arrow keys to move between the rows.
//
// The groups are virtualized: a large organization has hundreds of channels with unread topics
// (2,000 topics in --seed large), and rendering them all cost hundreds of milliseconds at launch and
// a layout of thousands of rows on every new message. Only the groups in view (and a few beyond)
// are in the DOM; each is measured once rendered, estimated from its topic count before.
import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Check, ChevronDown, ChevronRight } from 'lucide-react';
import { useAccountNames, useChatStore, useUnreadCounts } from '../../store/hooks';
import type { ChannelUnreads, TopicUnreads } from '../../store/selectors';
import { channelNarrow, dmNarrow, topicNarrow, type Narrow } from '../../../shared/narrow';
import { navigate } from '../../store/ui-store';
import { userName } from '../messages/narrow-info';
import { markAfterPaint } from '../../lib/paint-marks';
import { chatScreenRendered } from '../../lib/first-screen-handoff';
import { markNarrowRead } from '../topics/topic-actions';
import { errorText } from '../../bridge/api';
import {
  filterWords,
  matchesWords,
  readCollapsed,
  shownTopics,
  writeCollapsed,
  type GroupKey,
} from './inbox-model';

const HEADER_HEIGHT = 46;
const ROW_HEIGHT = 29;

type Names = ReturnType<typeof useAccountNames>;

interface ChannelGroupData {
  c: ChannelUnreads;
  name: string;
  color: string | undefined;
  topics: TopicUnreads[];
}

export function Inbox() {
  // Names and counts only: a read message or typing elsewhere re-renders nothing here.
  const account = useAccountNames();
  const counts = useUnreadCounts();
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const [error, setError] = useState<string | null>(null);
  const words = filterWords(filter);
  const dms = [...counts.dms].filter(
    ([key, n]) => n > 0 && matchesWords(words, dmNames(account, key)),
  );
  const channels: ChannelGroupData[] = [];
  for (const c of counts.channels.values()) {
    if (c.count === 0) continue;
    const channel = account?.channels.channels.get(c.streamId);
    const name = channel?.name ?? String(c.streamId);
    const topics = shownTopics(c, name, words);
    if (topics.length === 0) continue;
    const color = account?.channels.subscriptions.get(c.streamId)?.color;
    channels.push({ c, name, color, topics });
  }
  const toggle = (key: GroupKey) =>
    setCollapsed((before) => {
      const next = new Set(before);
      if (!next.delete(key)) next.add(key);
      writeCollapsed(next);
      return next;
    });
  const accountId = useChatStore((s) => s.activeAccountId);
  const markRead = (narrow: Narrow) => {
    if (!accountId) return;
    setError(null);
    markNarrowRead(accountId, narrow).catch((e: unknown) => setError(errorText(e)));
  };
  const scrollRef = useRef<HTMLElement>(null);
  const groups = (dms.length > 0 ? 1 : 0) + channels.length;
  const virtualizer = useVirtualizer({
    count: groups,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const at = dms.length > 0 ? index - 1 : index;
      const key: GroupKey = at < 0 ? 'dm' : (channels[at]?.c.streamId ?? 0);
      const rows = collapsed.has(key)
        ? 0
        : at < 0
          ? dms.length
          : (channels[at]?.topics.length ?? 1);
      return HEADER_HEIGHT + rows * ROW_HEIGHT;
    },
    getItemKey: (index) => {
      const at = dms.length > 0 ? index - 1 : index;
      return at < 0 ? 'dms' : (channels[at]?.c.streamId ?? index);
    },
    overscan: 2,
    initialRect: { width: 800, height: 900 },
  });
  // Layout effect: the frame it asks for is the one that paints this commit.
  useLayoutEffect(() => {
    markAfterPaint('tributary:inbox-painted');
    chatScreenRendered();
  }, []);
  const anyUnread = counts.dms.size > 0 || [...counts.channels.values()].some((c) => c.count > 0);
  return (
    <section className="view inbox" aria-label="Inbox" ref={scrollRef} onKeyDown={moveBetweenRows}>
      <h1>Inbox</h1>
      {anyUnread ? (
        <input
          type="search"
          className="inbox-filter inbox-nav"
          aria-label="Filter conversations"
          placeholder="Filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            // Esc empties the filter first, as the web app's does; an empty one lets Esc go on.
            if (e.key === 'Escape' && filter) {
              e.stopPropagation();
              setFilter('');
            }
          }}
        />
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {!anyUnread ? <p>You have no unread messages.</p> : null}
      {anyUnread && groups === 0 ? <p>No unread conversations match this filter.</p> : null}
      <div className="inbox-groups" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const at = dms.length > 0 ? item.index - 1 : item.index;
          const group = channels[at];
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="inbox-group"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {at < 0 ? (
                <DmGroup
                  dms={dms}
                  account={account}
                  mentioned={counts.dmsMentioned}
                  collapsed={collapsed.has('dm')}
                  onToggle={() => toggle('dm')}
                  onMarkRead={markRead}
                />
              ) : (
                <ChannelGroup
                  group={group}
                  collapsed={collapsed.has(group.c.streamId)}
                  onToggle={toggle}
                  onMarkRead={markRead}
                />
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The people of a DM conversation key, by name. */
function dmNames(account: Names, key: string): string {
  return key
    .split(',')
    .map((id) => userName(account, Number(id)))
    .join(', ');
}

/** Up and down move the focus between the filter, the groups' headers and the rows, in order. */
function moveBetweenRows(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const stops = [...event.currentTarget.querySelectorAll<HTMLElement>('.inbox-nav')];
  const at = stops.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  const next = stops[event.key === 'ArrowDown' ? at + 1 : at - 1];
  if (!next) return;
  event.preventDefault();
  next.focus();
  next.scrollIntoView?.({ block: 'nearest' });
}

function FoldButton({
  label,
  collapsed,
  onToggle,
}: {
  label: string;
  collapsed: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className="icon-button inbox-fold"
      aria-expanded={!collapsed}
      aria-label={`${collapsed ? 'Expand' : 'Collapse'} ${label}`}
      onClick={onToggle}
    >
      {collapsed ? <ChevronRight aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
    </button>
  );
}

function MarkReadButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="icon-button inbox-mark-read"
      aria-label={`Mark ${label} as read`}
      title="Mark as read"
      onClick={onClick}
    >
      <Check aria-hidden="true" />
    </button>
  );
}

/** An unread message here mentions the user (Recent conversations shows it too). */
export function MentionMark() {
  return (
    <span className="inbox-mention" title="You were mentioned">
      @
    </span>
  );
}

function DmGroup({
  dms,
  account,
  mentioned,
  collapsed,
  onToggle,
  onMarkRead,
}: {
  dms: Array<[string, number]>;
  account: Names;
  mentioned: ReadonlySet<string>;
  collapsed: boolean;
  onToggle: () => void;
  onMarkRead: (narrow: Narrow) => void;
}) {
  const total = dms.reduce((sum, [, n]) => sum + n, 0);
  return (
    <div className="inbox-channel">
      <h2>
        <FoldButton label="direct messages" collapsed={collapsed} onToggle={onToggle} />
        <span>Direct messages</span> <span className="count">{total}</span>
        <MarkReadButton
          label="all direct messages"
          onClick={() => onMarkRead([{ operator: 'is', operand: 'dm' }])}
        />
      </h2>
      {collapsed ? null : (
        <ul aria-label="Unread direct messages">
          {dms.map(([key, n]) => {
            const ids = key.split(',').map(Number);
            const names = dmNames(account, key);
            return (
              <li key={key}>
                <button
                  type="button"
                  className="link inbox-nav"
                  onClick={() => navigate({ kind: 'narrow', narrow: dmNarrow(ids) })}
                >
                  {names}
                </button>{' '}
                {mentioned.has(key) ? <MentionMark /> : null}
                <span className="count">{n}</span>
                <MarkReadButton label={names} onClick={() => onMarkRead(dmNarrow(ids))} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

const ChannelGroup = memo(function ChannelGroup({
  group: { c, name, color, topics },
  collapsed,
  onToggle,
  onMarkRead,
}: {
  group: ChannelGroupData;
  collapsed: boolean;
  onToggle: (key: GroupKey) => void;
  onMarkRead: (narrow: Narrow) => void;
}) {
  return (
    <div className="inbox-channel">
      <h2>
        <FoldButton
          label={`#${name}`}
          collapsed={collapsed}
          onToggle={() => onToggle(c.streamId)}
        />
        <span className="swatch" style={{ background: color }} aria-hidden="true" />
        <button
          type="button"
          className="link inbox-nav"
          onClick={() => navigate({ kind: 'narrow', narrow: channelNarrow(c.streamId) })}
        >
          #{name}
        </button>{' '}
        {topics.some((t) => t.mentioned) ? <MentionMark /> : null}
        <span className="count">{c.count}</span>
        <MarkReadButton label={`#${name}`} onClick={() => onMarkRead(channelNarrow(c.streamId))} />
      </h2>
      {collapsed ? null : (
        <ul aria-label={`Unread topics in #${name}`}>
          {topics.map((t) => (
            <li key={t.topic}>
              <button
                type="button"
                className="link inbox-nav"
                onClick={() =>
                  navigate({ kind: 'narrow', narrow: topicNarrow(c.streamId, t.topic) })
                }
              >
                {t.topic || '(no topic)'}
              </button>{' '}
              {t.mentioned ? <MentionMark /> : null}
              <span className="count">{t.count}</span>
              <MarkReadButton
                label={`#${name} > ${t.topic}`}
                onClick={() => onMarkRead(topicNarrow(c.streamId, t.topic))}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
