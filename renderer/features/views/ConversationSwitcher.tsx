// Ctrl/Cmd+K: jump to a channel, topic or direct-message conversation by typing part of its name,
// in a modal dialog (lib/ui/Dialog) that Esc or a click beside it closes.
import { useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { navigate, uiStore } from '../../store/ui-store';
import { selectSwitcherTargets } from './switcher-model';
import { ModalDialog } from '../../lib/ui/Dialog';

export function ConversationSwitcher() {
  const all = useChatStore((s) => selectSwitcherTargets(selectActiveAccount(s)));
  const [query, setQuery] = useState('');
  const [choice, setChoice] = useState(0);
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
    <ModalDialog label="Switch conversation" className="switcher" onClose={close}>
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
        }}
      />
      <ul role="listbox" aria-label="Conversations">
        {matches.map((m, i) => (
          <li key={m.label} role="option" aria-selected={i === choice} onMouseDown={() => go(i)}>
            {m.label}
          </li>
        ))}
      </ul>
    </ModalDialog>
  );
}
