// Settings > Organization > Custom profile fields (administrators): the realm's fields in display
// order, created, edited, reordered and deleted here. Every field type of the public server is
// offered: short and long text, a list of options, date, link, users, external account (a known
// site, or custom with a URL pattern) and pronouns. The form checks what the server checks first.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../src/tributary';
import type { CustomProfileField } from '../../../../shared/api/types';
import type { ProfileFieldInput } from '../../../../shared/ipc/admin-extras';
import { ListTable, Refusal, RowActions, useChange } from './extras-kit';

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

const typeName = (type: number) => FIELD_TYPES.find(([id]) => id === type)?.[1] ?? 'Unknown';

interface Option {
  key: string;
  text: string;
}

interface Draft {
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

const NEW_DRAFT: Draft = {
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

function draftOf(field: CustomProfileField): Draft {
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

const isKnownSite = (d: Draft) => d.type === EXTERNAL && d.subtype !== 'custom';

function fieldData(d: Draft): ProfileFieldInput['fieldData'] {
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

function FieldForm({
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

export function ProfileFields({ accountId }: { accountId: string }) {
  const fields = useChatStore((s) => selectActiveAccount(s)?.settings.customProfileFields);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const { error, run } = useChange();
  if (!fields) return null;
  const ids = fields.map((f) => f.id);
  const inSummary = (exceptId: number | null) =>
    fields.filter((f) => f.display_in_profile_summary && f.id !== exceptId).length;

  const create = async (d: Draft) => {
    const accepted = await run(() =>
      api().createProfileField({
        accountId,
        field: {
          type: d.type,
          ...(isKnownSite(d) ? {} : { name: d.name.trim(), hint: d.hint }),
          fieldData: fieldData(d),
          required: d.required,
          displayInProfileSummary: d.displayInSummary,
          editableByUser: d.editableByUser,
        },
      }),
    );
    if (accepted) setEditing(null);
    return accepted;
  };
  const update = async (field: CustomProfileField, d: Draft) => {
    const accepted = await run(() =>
      api().updateProfileField({
        accountId,
        fieldId: field.id,
        changes: {
          // A known site's label, hint and data are the site's; only the flags change.
          ...(isKnownSite(d) ? {} : { name: d.name.trim(), hint: d.hint, fieldData: fieldData(d) }),
          required: d.required,
          displayInProfileSummary: d.displayInSummary,
          editableByUser: d.editableByUser,
        },
      }),
    );
    if (accepted) setEditing(null);
    return accepted;
  };

  return (
    <section className="settings-section admin-section" aria-label="Custom profile fields">
      <h2>Custom profile fields</h2>
      <p className="admin-lead">
        Custom profile fields appear on every user&apos;s profile. Fields are shown in the order
        listed; up to two can also be shown in the profile summary.
      </p>
      {editing === 'new' ? (
        <FieldForm
          initial={NEW_DRAFT}
          editing={false}
          othersInSummary={inSummary(null)}
          title="Add a new profile field"
          onSubmit={create}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" className="admin-primary" onClick={() => setEditing('new')}>
          Add a new profile field
        </button>
      )}
      <Refusal error={error} />
      <ListTable
        label="Custom profile field list"
        columns={['Label', 'Type']}
        actions
        emptyText={fields.length === 0 ? 'No custom profile fields.' : null}
      >
        {fields.map((field, index) =>
          editing === field.id ? (
            <tr key={field.id}>
              <td colSpan={3}>
                <FieldForm
                  initial={draftOf(field)}
                  editing
                  othersInSummary={inSummary(field.id)}
                  title={`Edit ${field.name}`}
                  onSubmit={(d) => update(field, d)}
                  onCancel={() => setEditing(null)}
                />
              </td>
            </tr>
          ) : (
            <tr key={field.id} aria-label={field.name}>
              <td>
                {field.name}
                {field.hint ? <span className="admin-sub">{field.hint}</span> : null}
              </td>
              <td>
                {typeName(field.type)}
                <span className="admin-sub">
                  {field.required ? <span className="admin-tag">Required</span> : null}
                  {field.display_in_profile_summary ? (
                    <span className="admin-tag">In profile summary</span>
                  ) : null}
                </span>
              </td>
              <RowActions
                what={field.name}
                order={{
                  ids,
                  index,
                  onMove: (orderedIds) =>
                    void run(() => api().reorderProfileFields({ accountId, orderedIds })),
                }}
                onEdit={() => setEditing(field.id)}
                onDelete={() =>
                  void run(() => api().deleteProfileField({ accountId, fieldId: field.id }))
                }
              />
            </tr>
          ),
        )}
      </ListTable>
    </section>
  );
}
