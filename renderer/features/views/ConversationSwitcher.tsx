// Ctrl/Cmd+K: jump to a channel, topic or direct-message conversation by typing part of its name.
import { useMemo, useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { channelNarrow, dmNarrow, topicNarrow, type Narrow } from '../../../shared/narrow';
import { navigate, uiStore } from '../../src/ui-store';
import { selectChannelTopics, selectDmConversations } from '../sidebar/sidebar-model';
import { userName } from '../messages/narrow-info';

export function ConversationSwitcher() {
  const account = useChatStore(selectActiveAccount);
  const [query, setQuery] = useState('');
  const [choice, setChoice] = useState(0);
  const all = useMemo(() => {
    const out: Array<{ label: string; narrow: Narrow }> = [];
    if (!account) return out;
    for (const sub of account.channels.subscriptions.values()) {
      out.push({ label: `#${sub.name}`, narrow: channelNarrow(sub.stream_id) });
      for (const t of selectChannelTopics(account, sub.stream_id))
        out.push({ label: `#${sub.name} > ${t.name}`, narrow: topicNarrow(sub.stream_id, t.name) });
    }
    for (const dm of selectDmConversations(account))
      out.push({
        label: dm.userIds.map((id) => userName(account, id)).join(', '),
        narrow: dmNarrow(dm.userIds),
      });
    return out;
  }, [account]);
  const q = query.toLowerCase();
  const matches = all.filter((o) => o.label.toLowerCase().includes(q)).slice(0, 12);
  const close = () => uiStore.setState({ overlay: null });
  const go = (i: number) => {
    const m = matches[i];
    if (!m) return;
    close();
    navigate({ kind: 'narrow', narrow: m.narrow });
  };
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Switch conversation">
      <div className="panel switcher">
        <input
          autoFocus
          aria-label="Conversation name"
          placeholder="Go to a channel, topic or person"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setChoice(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setChoice((c) => Math.min(matches.length - 1, c + 1));
            else if (e.key === 'ArrowUp') setChoice((c) => Math.max(0, c - 1));
            else if (e.key === 'Enter') go(choice);
            else if (e.key === 'Escape') close();
          }}
        />
        <ul role="listbox" aria-label="Conversations">
          {matches.map((m, i) => (
            <li key={m.label} role="option" aria-selected={i === choice} onMouseDown={() => go(i)}>
              {m.label}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
