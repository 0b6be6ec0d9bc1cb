// Inbox: every conversation with unread messages, grouped by channel, direct messages first.
import { useAccountNames, useUnreadCounts } from '../../store/hooks';
import { channelNarrow, dmNarrow, topicNarrow } from '../../../shared/narrow';
import { navigate } from '../../src/ui-store';
import { userName } from '../messages/narrow-info';

export function Inbox() {
  // Names and counts only: a read message or typing elsewhere re-renders nothing here.
  const account = useAccountNames();
  const counts = useUnreadCounts();
  const dms = [...counts.dms].filter(([, n]) => n > 0);
  const channels = [...counts.channels.values()].filter((c) => c.count > 0);
  return (
    <section className="view inbox" aria-label="Inbox">
      <h1>Inbox</h1>
      {dms.length === 0 && channels.length === 0 ? <p>You have no unread messages.</p> : null}
      {dms.length > 0 ? (
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
      ) : null}
      {channels.map((c) => {
        const name = account?.channels.channels.get(c.streamId)?.name ?? String(c.streamId);
        return (
          <div key={c.streamId} className="inbox-channel">
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
      })}
    </section>
  );
}
