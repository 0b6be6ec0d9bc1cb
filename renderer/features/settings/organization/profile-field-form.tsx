// The custom profile field form: a draft of any field type (options of a list, the site of an
// external account), the public server's checks on it, and what is sent for it.
import { useState } from 'react';
import type { CustomProfileField } from '../../../../shared/api/types';
import type { ProfileFieldInput } from '../../../../shared/ipc/admin-extras';

/** register custom_profile_field_types, by id. */
export const FIELD_TYPES: ReadonlyArray<[number, string]> = [
  [1, 'Text (short)'],
  [2, 'Text (long)'],
  [3, 'List of options'],
  [4, 'Date'],
  [5, 'Link'],
  [6, 'Users'],
  [7, 'External account'],
  [8, 'Pronouns'],
];
const SELECT = 3;
const EXTERNAL = 7;
/** Long text and users cannot be shown in the profile summary (the public server's rule). */
const NOT_IN_SUMMARY = new Set([2, 6]);
const KNOWN_SITES: ReadonlyArray<[string, string]> = [
  ['github', 'GitHub'],
  ['twitter', 'Twitter'],
];

export const typeName = (type: number) => FIELD_TYPES.find(([id]) => id === type)?.[1] ?? 'Unknown';

interface Option {
  key: string;
  text: string;
}

export interface Draft {
  type: number;
  name: string;
  hint: string;
  options: Option[];
  subtype: string;
  urlPattern: string;
  required: boolean;
  displayInSummary: boolean;
  editableByUser: boolean;
}

export const NEW_DRAFT: Draft = {
  type: 1,
  name: '',
  hint: '',
  options: [{ key: '0', text: '' }],
  subtype: 'github',
  urlPattern: '',
  required: false,
  displayInSummary: false,
  editableByUser: true,
};

function parseData(field: CustomProfileField): Record<string, unknown> {
  try {
    return field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function draftOf(field: CustomProfileField): Draft {
  const data = parseData(field);
  const options =
    field.type === SELECT
      ? Object.entries(data as Record<string, { text: string; order: string }>)
          .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
          .map(([key, o]) => ({ key, text: o.text }))
      : NEW_DRAFT.options;
  return {
    type: field.type,
    name: field.name,
    hint: field.hint,
    options,
    subtype: typeof data.subtype === 'string' ? data.subtype : 'github',
    urlPattern: typeof data.url_pattern === 'string' ? data.url_pattern : '',
    required: field.required === true,
    displayInSummary: field.display_in_profile_summary === true,
    editableByUser: field.editable_by_user !== false,
  };
}

export const isKnownSite = (d: Draft) => d.type === EXTERNAL && d.subtype !== 'custom';

export function fieldData(d: Draft): ProfileFieldInput['fieldData'] {
  if (d.type === SELECT) {
    return Object.fromEntries(
      d.options.map((o, i) => [o.key, { text: o.text.trim(), order: String(i + 1) }]),
    );
  }
  if (d.type === EXTERNAL) {
    return d.subtype === 'custom'
      ? { subtype: 'custom', url_pattern: d.urlPattern.trim() }
      : { subtype: d.subtype };
  }
  return undefined;
}

/** The server's refusals, checked first; `othersInSummary` counts the other summary fields. */
function draftProblem(d: Draft, othersInSummary: number): string | null {
  if (!isKnownSite(d)) {
    if (d.name.trim() === '') return 'Label cannot be blank.';
    if ([...d.name.trim()].length > 40) return 'name is too long (limit: 40 characters)';
    if ([...d.hint].length > 80) return 'hint is too long (limit: 80 characters)';
  }
  if (d.type === SELECT) {
    if (d.options.length === 0) return 'Field must have at least one choice.';
    if (d.options.some((o) => o.text.trim() === '')) return 'Options cannot be blank.';
    const texts = d.options.map((o) => o.text.trim());
    if (new Set(texts).size !== texts.length) return 'Field must not have duplicate choices.';
  }
  if (d.type === EXTERNAL && d.subtype === 'custom') {
    const pattern = d.urlPattern.trim();
    if (pattern === '') return 'Custom external account must define URL pattern';
    if (pattern.split('%(username)s').length !== 2 || !/^https?:\/\//.test(pattern)) {
      return "URL pattern must contain '%(username)s'.";
    }
  }
  if (d.displayInSummary && NOT_IN_SUMMARY.has(d.type)) {
    return 'Field type not supported for display in profile summary.';
  }
  if (d.displayInSummary && othersInSummary >= 2) {
    return 'Only 2 custom profile fields can be displayed in the profile summary.';
  }
  return null;
}

function OptionsEditor({
  options,
  onChange,
}: {
  options: Option[];
  onChange: (o: Option[]) => void;
}) {
  const nextKey = () =>
    String(Math.max(-1, ...options.map((o) => Number(o.key)).filter(Number.isFinite)) + 1);
  return (
    <fieldset className="admin-options">
      <legend>Options</legend>
      {options.map((option, i) => (
        <div key={option.key} className="admin-option">
          <input
            aria-label={`Option ${i + 1}`}
            value={option.text}
            onChange={(e) =>
              onChange(options.map((o) => (o === option ? { ...o, text: e.target.value } : o)))
            }
          />
          <button
            type="button"
            aria-label={`Remove option ${i + 1}`}
            disabled={options.length === 1}
            onClick={() => onChange(options.filter((o) => o !== option))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...options, { key: nextKey(), text: '' }])}>
        Add option
      </button>
    </fieldset>
  );
}

export function FieldForm({
  initial,
  editing,
  othersInSummary,
  title,
  onSubmit,
  onCancel,
}: {
  initial: Draft;
  /** The type of an existing field cannot change. */
  editing: boolean;
  othersInSummary: number;
  title: string;
  onSubmit: (draft: Draft) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [d, setD] = useState(initial);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setD((x) => ({ ...x, [key]: value }));
  const problem = draftProblem(d, othersInSummary);
  const knownSite = isKnownSite(d);
  const touched = d !== initial;
  return (
    <form
      className="admin-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        setBusy(true);
        void onSubmit(d).then(() => setBusy(false));
      }}
    >
      <h3>{title}</h3>
      <div className="admin-grid">
        <label>
          Type
          <select
            value={d.type}
            disabled={editing}
            onChange={(e) => set('type', Number(e.target.value))}
          >
            {FIELD_TYPES.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {d.type === EXTERNAL ? (
          <label>
            External account type
            <select
              value={d.subtype}
              disabled={editing && initial.subtype !== 'custom'}
              onChange={(e) => set('subtype', e.target.value)}
            >
              {KNOWN_SITES.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
              <option value="custom">Custom</option>
            </select>
          </label>
        ) : null}
        {knownSite ? null : (
          <>
            <label>
              Label
              <input value={d.name} maxLength={40} onChange={(e) => set('name', e.target.value)} />
            </label>
            <label>
              <span className="admin-label-text">
                Hint <span className="admin-muted">(optional)</span>
              </span>
              <input value={d.hint} maxLength={80} onChange={(e) => set('hint', e.target.value)} />
            </label>
          </>
        )}
        {d.type === EXTERNAL && d.subtype === 'custom' ? (
          <label className="admin-grid-wide">
            URL pattern
            <input
              value={d.urlPattern}
              placeholder="https://example.com/users/%(username)s"
              onChange={(e) => set('urlPattern', e.target.value)}
            />
          </label>
        ) : null}
      </div>
      {d.type === SELECT ? (
        <OptionsEditor options={d.options} onChange={(o) => set('options', o)} />
      ) : null}
      <div className="admin-checks">
        <label>
          <input
            type="checkbox"
            checked={d.required}
            onChange={(e) => set('required', e.target.checked)}
          />
          Required
        </label>
        <label>
          <input
            type="checkbox"
            checked={d.displayInSummary}
            disabled={NOT_IN_SUMMARY.has(d.type)}
            onChange={(e) => set('displayInSummary', e.target.checked)}
          />
          Display in profile summary
        </label>
        <label>
          <input
            type="checkbox"
            checked={d.editableByUser}
            onChange={(e) => set('editableByUser', e.target.checked)}
          />
          Users can edit this field for their own account
        </label>
      </div>
      {touched && problem ? <p className="admin-invalid">{problem}</p> : null}
      <div className="admin-buttons">
        <button type="submit" className="admin-primary" disabled={problem !== null || busy}>
          {editing ? 'Save changes' : 'Add field'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
