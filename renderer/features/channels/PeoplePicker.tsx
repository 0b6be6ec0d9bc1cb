// Choosing people by name or email: a search field whose matches (active humans and bots, minus
// those excluded) are added as removable chips. Used by the create form and "Add subscribers". The
// matches are a lib/ui/Combobox list: arrows move, Enter or Tab add, Esc closes, a click adds.
import { useMemo, useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { User } from '../../../shared/api/types';
import { ComboboxInput, useComboboxList } from '../../lib/ui/Combobox';

const MAX_MATCHES = 8;

export function PeoplePicker({
  label,
  chosen,
  onChange,
  exclude = [],
}: {
  label: string;
  chosen: readonly number[];
  onChange: (ids: number[]) => void;
  /** People who cannot be chosen (already subscribed, the person themselves). */
  exclude?: readonly number[];
}) {
  const [text, setText] = useState('');
  // Esc or leaving the field hides the matches until the next thing typed.
  const [dismissed, setDismissed] = useState(false);
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  const matches = useMemo(() => {
    const needle = text.trim().toLowerCase();
    if (!needle || !users) return [];
    const skip = new Set([...exclude, ...chosen]);
    const found: User[] = [];
    for (const user of users.values()) {
      if (!user.is_active || skip.has(user.user_id)) continue;
      const name = user.full_name.toLowerCase();
      if (name.includes(needle) || user.email.toLowerCase().includes(needle)) found.push(user);
    }
    return found.sort((a, b) => a.full_name.localeCompare(b.full_name)).slice(0, MAX_MATCHES);
  }, [text, users, exclude, chosen]);
  const add = (id: number) => {
    onChange([...chosen, id]);
    setText('');
  };
  const combobox = useComboboxList({
    items: matches,
    open: !dismissed,
    label: `${label} matches`,
    itemKey: (user) => String(user.user_id),
    itemText: (user) => `${user.full_name} ${user.email}`,
    renderItem: (user) => (
      <>
        {user.full_name} <span className="muted">{user.email}</span>
      </>
    ),
    onPick: (user) => add(user.user_id),
    onDismiss: () => setDismissed(true),
  });
  return (
    <div className="people-picker">
      <div className="chips">
        {chosen.map((id) => {
          const name = users?.get(id)?.full_name ?? `User ${id}`;
          return (
            <span key={id} className="chip">
              {name}
              <button
                type="button"
                className="icon"
                aria-label={`Remove ${name}`}
                onClick={() => onChange(chosen.filter((c) => c !== id))}
              >
                ×
              </button>
            </span>
          );
        })}
      </div>
      <ComboboxInput
        combobox={combobox}
        type="search"
        aria-label={label}
        placeholder="Add people by name or email"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setDismissed(false);
        }}
      />
      {combobox.list}
    </div>
  );
}
