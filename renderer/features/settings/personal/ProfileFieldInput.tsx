// One custom profile field of your own, edited as its type asks: text, long text, a choice, a date,
// a link, an account name, or people (chosen by name). A value is checked (profile-field-input.ts)
// and sent when you are done with it (Enter, leaving the field, or a choice made).
import { useId, useMemo, useState } from 'react';
import type { CustomProfileField } from '../../../../shared/api/types';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../bridge/api';
import { FIELD_TYPES, profileValueProblem, selectOptions } from './profile-field-input';

export function ProfileFieldInput({
  accountId,
  field,
  value,
  loaded,
  editable,
  onSaved,
}: {
  accountId: string;
  field: CustomProfileField;
  value: string;
  loaded: boolean;
  editable: boolean;
  onSaved: () => void;
}) {
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = (next: string | number[]) =>
    api()
      .updateProfileData({ accountId, data: [{ id: field.id, value: next }] })
      .then(() => {
        setText(null);
        setProblem(null);
        onSaved();
      })
      .catch((e: unknown) => setProblem(errorText(e)));
  const commit = (next: string) => {
    const found = profileValueProblem(field, next);
    setProblem(found);
    if (found || next.trim() === value) return;
    void send(next.trim());
  };
  const shown = text ?? value;
  const common = {
    value: shown,
    disabled: !editable || !loaded,
    'aria-invalid': problem !== null,
    onBlur: () => commit(shown),
  };
  let control: React.ReactNode;
  if (field.type === FIELD_TYPES.select) {
    control = (
      <select {...common} onChange={(e) => commit(e.target.value)}>
        <option value="">—</option>
        {selectOptions(field).map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
    );
  } else if (field.type === FIELD_TYPES.longText) {
    control = <textarea rows={3} {...common} onChange={(e) => setText(e.target.value)} />;
  } else if (field.type === FIELD_TYPES.users) {
    control = (
      <PeopleField
        label={field.name}
        ids={peopleIds(value)}
        disabled={common.disabled}
        onChange={(ids) => void send(ids.length > 0 ? ids : '')}
      />
    );
  } else {
    const type =
      field.type === FIELD_TYPES.date ? 'date' : field.type === FIELD_TYPES.url ? 'url' : 'text';
    control = (
      <input
        type={type}
        {...common}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(shown);
        }}
      />
    );
  }
  // A people field holds several controls: a group named by the field, not one label.
  const labelled =
    field.type === FIELD_TYPES.users ? (
      <div className="people-field-group" role="group" aria-label={field.name}>
        <span className="setting-label">{field.name}</span>
        {control}
      </div>
    ) : (
      <label>
        <span className="setting-label">{field.name}</span>
        {control}
      </label>
    );
  return (
    <div className="profile-field">
      {labelled}
      {field.hint ? <span className="setting-hint">{field.hint}</span> : null}
      {!editable ? (
        <span className="setting-hint">Only administrators can change this field.</span>
      ) : null}
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}

/** A people field's value: a JSON list of user ids. */
function peopleIds(value: string): number[] {
  try {
    const ids = JSON.parse(value || '[]') as unknown;
    return Array.isArray(ids) ? ids.map(Number).filter(Number.isInteger) : [];
  } catch {
    return [];
  }
}

/** The chosen people with a button each to remove them, and a box to add one by name or email. */
function PeopleField({
  label,
  ids,
  disabled,
  onChange,
}: {
  label: string;
  ids: number[];
  disabled: boolean;
  onChange: (ids: number[]) => void;
}) {
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  const [text, setText] = useState('');
  const listId = useId();
  const candidates = useMemo(
    () =>
      [...(users?.values() ?? [])]
        .filter((u) => u.is_active !== false && !u.is_bot)
        .sort((a, b) => a.full_name.localeCompare(b.full_name)),
    [users],
  );
  const add = (typed: string) => {
    const wanted = typed.trim().toLowerCase();
    const found = candidates.find(
      (u) => u.email.toLowerCase() === wanted || u.full_name.toLowerCase() === wanted,
    );
    if (!found) return false;
    setText('');
    if (!ids.includes(found.user_id)) onChange([...ids, found.user_id]);
    return true;
  };
  return (
    <span className="people-field">
      {ids.map((id) => {
        const name = users?.get(id)?.full_name ?? `User ${id}`;
        return (
          <span key={id} className="people-pill">
            {name}
            <button
              type="button"
              className="link"
              disabled={disabled}
              aria-label={`Remove ${name} from ${label}`}
              onClick={() => onChange(ids.filter((other) => other !== id))}
            >
              ×
            </button>
          </span>
        );
      })}
      <input
        type="text"
        list={listId}
        value={text}
        disabled={disabled}
        placeholder="Add a person"
        aria-label={`Add a person to ${label}`}
        onChange={(e) => {
          // A pick from the list is a whole email: added at once.
          if (!add(e.target.value)) setText(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add(text);
          }
        }}
      />
      <datalist id={listId}>
        {candidates.map((u) => (
          <option key={u.user_id} value={u.email}>
            {u.full_name}
          </option>
        ))}
      </datalist>
    </span>
  );
}
