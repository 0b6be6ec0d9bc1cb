// Inbox: every conversation with unread messages, grouped by channel, direct messages first.
//
// The groups are virtualized: a large organization has hundreds of channels with unread topics
// (2,000 topics in --seed large), and rendering them all cost hundreds of milliseconds at launch and
// a layout of thousands of rows on every new message. Only the groups in view (and a few beyond)
// are in the DOM; each is measured once rendered, estimated from its topic count before.
import { memo, useLayoutEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useAccountNames, useUnreadCounts } from '../../store/hooks';
import type { ChannelUnreads } from '../../store/selectors';
import { channelNarrow, dmNarrow, topicNarrow } from '../../../shared/narrow';
import { navigate } from '../../store/ui-store';
import { userName } from '../messages/narrow-info';
import { markAfterPaint } from '../../lib/paint-marks';
import { chatScreenRendered } from '../../lib/first-screen-handoff';

const HEADER_HEIGHT = 46;
const ROW_HEIGHT = 29;

type Names = ReturnType<typeof useAccountNames>;

export function Inbox() {
  // Names and counts only: a read message or typing elsewhere re-renders nothing here.
  const account = useAccountNames();
  const counts = useUnreadCounts();
  const dms = [...counts.dms].filter(([, n]) => n > 0);
  const channels = [...counts.channels.values()].filter((c) => c.count > 0);
  const scrollRef = useRef<HTMLElement>(null);
  const groups = (dms.length > 0 ? 1 : 0) + channels.length;
  const virtualizer = useVirtualizer({
    count: groups,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const at = dms.length > 0 ? index - 1 : index;
      const rows = at < 0 ? dms.length : (channels[at]?.topics.size ?? 1);
      return HEADER_HEIGHT + rows * ROW_HEIGHT;
    },
    getItemKey: (index) => {
      const at = dms.length > 0 ? index - 1 : index;
      return at < 0 ? 'dms' : (channels[at]?.streamId ?? index);
    },
    overscan: 2,
    initialRect: { width: 800, height: 900 },
  });
  // Layout effect: the frame it asks for is the one that paints this commit.
  useLayoutEffect(() => {
    markAfterPaint('tributary:inbox-painted');
    chatScreenRendered();
  }, []);
  return (
    <section className="view inbox" aria-label="Inbox" ref={scrollRef}>
      <h1>Inbox</h1>
      {groups === 0 ? <p>You have no unread messages.</p> : null}
      <div className="inbox-groups" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const at = dms.length > 0 ? item.index - 1 : item.index;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="inbox-group"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {at < 0 ? (
                <DmGroup dms={dms} account={account} />
              ) : (
                <ChannelGroup c={channels[at]} account={account} />
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

function DmGroup({ dms, account }: { dms: Array<[string, number]>; account: Names }) {
  const total = dms.reduce((sum, [, n]) => sum + n, 0);
  return (
    <div className="inbox-channel">
      <h2>
        <span>Direct messages</span> <span className="count">{total}</span>
      </h2>
      <ul aria-label="Unread direct messages">
        {dms.map(([key, n]) => {
          const ids = key.split(',').map(Number);
          return (
            <li key={key}>
              <button
                type="button"
                className="link"
                onClick={() => navigate({ kind: 'narrow', narrow: dmNarrow(ids) })}
              >
                {ids.map((id) => userName(account, id)).join(', ')}
              </button>{' '}
              <span className="count">{n}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const ChannelGroup = memo(function ChannelGroup({
  c,
  account,
}: {
  c: ChannelUnreads;
  account: Names;
}) {
  const name = account?.channels.channels.get(c.streamId)?.name ?? String(c.streamId);
  return (
    <div className="inbox-channel">
      <h2>
        <button
          type="button"
          className="link"
          onClick={() => navigate({ kind: 'narrow', narrow: channelNarrow(c.streamId) })}
        >
          #{name}
        </button>{' '}
        <span className="count">{c.count}</span>
      </h2>
      <ul aria-label={`Unread topics in #${name}`}>
        {[...c.topics.values()]
          .filter((t) => !t.muted && t.count > 0)
          .map((t) => (
            <li key={t.topic}>
              <button
                type="button"
                className="link"
                onClick={() =>
                  navigate({ kind: 'narrow', narrow: topicNarrow(c.streamId, t.topic) })
                }
              >
                {t.topic || '(no topic)'}
              </button>{' '}
              <span className="count">{t.count}</span>
            </li>
          ))}
      </ul>
    </div>
  );
});
