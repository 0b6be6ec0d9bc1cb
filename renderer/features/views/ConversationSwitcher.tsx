// Ctrl/Cmd+K: jump to a channel, topic or direct-message conversation by typing part of its name,
// in a modal dialog (lib/ui/Dialog) that Esc or a click beside it closes. The field and its list
// are a lib/ui/Combobox kept in the dialog's flow: arrows move, Enter or Tab go, a click goes.
import { useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { navigate, uiStore } from '../../store/ui-store';
import { selectSwitcherTargets, type SwitcherTarget } from './switcher-model';
import { ModalDialog } from '../../lib/ui/Dialog';
import { ComboboxInput, useComboboxList } from '../../lib/ui/Combobox';

export function ConversationSwitcher() {
  const all = useChatStore((s) => selectSwitcherTargets(selectActiveAccount(s)));
  const [query, setQuery] = useState('');
  const q = query.toLowerCase();
  const matches = all.filter((o) => o.label.toLowerCase().includes(q)).slice(0, 12);
  const close = () => uiStore.setState({ overlay: null });
  const go = (target: SwitcherTarget) => {
    close();
    navigate({ kind: 'narrow', narrow: target.narrow });
  };
  const combobox = useComboboxList({
    items: matches,
    open: true,
    label: 'Conversations',
    itemKey: (m) => m.label,
    itemText: (m) => m.label,
    onPick: go,
    // The list is the dialog: Esc closes both; the focus leaving is the dialog's business.
    onDismiss: (reason) => reason === 'escape' && close(),
    inline: true,
    className: 'switcher-list',
  });
  return (
    <ModalDialog label="Switch conversation" className="switcher" onClose={close}>
      <ComboboxInput
        combobox={combobox}
        autoFocus
        aria-label="Conversation name"
        placeholder="Go to a channel, topic or person"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {combobox.list}
    </ModalDialog>
  );
}
