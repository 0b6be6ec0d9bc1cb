// Direct-message recipients: chips for the chosen people and a text field completing names
// (lib/ui/Combobox: arrows move, Enter or Tab add the highlighted person, Esc closes the list).
import { useState } from 'react';
import type { User } from '../../../shared/api/types';
import { matchUsers } from './autocomplete';
import { PresenceDot } from '../people/PresenceDot';
import { ComboboxInput, useComboboxList } from '../../lib/ui/Combobox';

export function RecipientPicker({
  users,
  selected,
  onChange,
  selfUserId,
}: {
  users: User[];
  selected: number[];
  onChange: (ids: number[]) => void;
  selfUserId: number;
}) {
  const [query, setQuery] = useState('');
  // Esc or leaving the field hides the matches until the next thing typed.
  const [dismissed, setDismissed] = useState(false);
  const byId = new Map(users.map((u) => [u.user_id, u]));
  // The whole list goes to matchUsers (it keeps its folded index per list), the chosen people and
  // the user are left out after.
  const matches = query
    ? matchUsers(users, query.toLowerCase(), 8 + selected.length + 1)
        .filter((u) => !selected.includes(u.user_id) && u.user_id !== selfUserId)
        .slice(0, 8)
    : [];
  const add = (u: User) => {
    onChange([...selected, u.user_id]);
    setQuery('');
  };
  const combobox = useComboboxList({
    items: matches,
    open: !dismissed,
    label: 'People',
    itemKey: (u) => String(u.user_id),
    itemText: (u) => u.full_name,
    renderItem: (u) => (
      <>
        <PresenceDot userId={u.user_id} /> {u.full_name}
      </>
    ),
    onPick: add,
    onDismiss: () => setDismissed(true),
  });
  return (
    <div className="recipient-picker">
      {selected.map((id) => (
        <span className="chip" key={id}>
          <PresenceDot userId={id} /> {byId.get(id)?.full_name ?? id}
          <button
            type="button"
            aria-label={`Remove ${byId.get(id)?.full_name ?? id}`}
            onClick={() => onChange(selected.filter((x) => x !== id))}
          >
            ×
          </button>
        </span>
      ))}
      <ComboboxInput
        combobox={combobox}
        id="compose-recipients"
        aria-label="Recipients"
        placeholder="Add a person"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setDismissed(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Backspace' && !query && selected.length > 0)
            onChange(selected.slice(0, -1));
        }}
      />
      {combobox.list}
    </div>
  );
}
