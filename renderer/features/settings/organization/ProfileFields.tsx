// Settings > Organization > Custom profile fields (administrators): the realm's fields in display
// order, created, edited, reordered and deleted here. Every field type of the public server is
// offered: short and long text, a list of options, date, link, users, external account (a known
// site, or custom with a URL pattern) and pronouns. The form checks what the server checks first.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import type { CustomProfileField } from '../../../../shared/api/types';
import { ListTable, Refusal, RowActions, useChange } from './extras-kit';
import {
  FieldForm,
  NEW_DRAFT,
  draftOf,
  fieldData,
  isKnownSite,
  typeName,
  type Draft,
} from './profile-field-form';

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
