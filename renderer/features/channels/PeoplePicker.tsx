// Choosing people by name or email: a search field whose matches (active humans and bots, minus
// those excluded) are added as removable chips. Used by the create form and "Add subscribers".
import { useMemo, useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { User } from '../../../shared/api/types';

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
      <input
        type="search"
        aria-label={label}
        placeholder="Add people by name or email"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && matches[0]) {
            e.preventDefault();
            add(matches[0].user_id);
          }
        }}
      />
      {matches.length > 0 ? (
        <ul className="autocomplete" role="listbox" aria-label={`${label} matches`}>
          {matches.map((user) => (
            <li key={user.user_id} role="option" aria-selected={false}>
              <button type="button" onClick={() => add(user.user_id)}>
                {user.full_name} <span className="muted">{user.email}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
