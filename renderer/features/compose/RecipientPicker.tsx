// Direct-message recipients: chips for the chosen people and a text field completing names.
import { useState } from 'react';
import type { User } from '../../../shared/api/types';
import { matchUsers } from './autocomplete';
import { PresenceDot } from '../people/PresenceDot';

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
  const [choice, setChoice] = useState(0);
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
    setChoice(0);
  };
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
      <input
        id="compose-recipients"
        aria-label="Recipients"
        placeholder="Add a person"
        value={query}
        role="combobox"
        aria-expanded={matches.length > 0}
        aria-controls="recipient-options"
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setChoice((c) => Math.min(matches.length - 1, c + 1));
          else if (e.key === 'ArrowUp') setChoice((c) => Math.max(0, c - 1));
          else if ((e.key === 'Enter' || e.key === 'Tab') && matches[choice]) {
            e.preventDefault();
            add(matches[choice]);
          } else if (e.key === 'Backspace' && !query && selected.length > 0)
            onChange(selected.slice(0, -1));
        }}
      />
      {matches.length > 0 ? (
        <ul id="recipient-options" role="listbox" aria-label="People" className="autocomplete">
          {matches.map((u, i) => (
            <li
              key={u.user_id}
              role="option"
              aria-selected={i === choice}
              onMouseDown={(e) => {
                e.preventDefault();
                add(u);
              }}
            >
              <PresenceDot userId={u.user_id} /> {u.full_name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
