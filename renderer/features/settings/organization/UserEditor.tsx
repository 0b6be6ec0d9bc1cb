// Editing someone as an administrator: name, role and custom profile field values, saved with
// PATCH /users/{id}. Only owners may make or unmake owners (the server says so too). A modal dialog
// (lib/ui/Dialog): Esc or Cancel closes it, and the focus goes back to the row's button.
import { useState } from 'react';
import { ModalDialog } from '../../../lib/ui/Dialog';
import type { CustomProfileField, User } from '../../../../shared/api/types';
import { api, errorText } from '../../../bridge/api';
import { ROLE_NAMES } from './form/permissions';

/** Field types edited as text here; person pickers are left to the user's own profile. */
const TEXT_TYPES = new Set([1, 2, 4, 5, 7, 8]);

export function UserEditor({
  accountId,
  user,
  fields,
  isOwner,
  onClose,
}: {
  accountId: string;
  user: User;
  fields: readonly CustomProfileField[];
  isOwner: boolean;
  onClose: () => void;
}) {
  const [fullName, setFullName] = useState(user.full_name);
  const [role, setRole] = useState<number>(user.role ?? 400);
  const initial = (id: number) => user.profile_data?.[String(id)]?.value ?? '';
  const [profile, setProfile] = useState<Record<number, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.id, String(initial(f.id))])),
  );
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editable = fields.filter((f) => TEXT_TYPES.has(f.type) || f.type === 3);
  const nameProblem = fullName.trim() === '' ? "Name can't be empty." : null;
  const roleChoices = ROLE_NAMES.filter(([r]) => isOwner || (r !== 100 && user.role !== 100));

  const save = async () => {
    const profileData = editable
      .filter((f) => profile[f.id] !== String(initial(f.id)))
      .map((f) => ({ id: f.id, value: profile[f.id] === '' ? null : profile[f.id] }));
    setBusy(true);
    try {
      await api().updateUser({
        accountId,
        userId: user.user_id,
        fullName: fullName.trim() !== user.full_name ? fullName.trim() : undefined,
        role: role !== user.role ? (role as 100 | 200 | 300 | 400 | 600) : undefined,
        profileData: profileData.length > 0 ? profileData : undefined,
      });
      onClose();
    } catch (e) {
      setRefusal(errorText(e));
      setBusy(false);
    }
  };

  return (
    <ModalDialog label={`Edit ${user.full_name}`} className="org-dialog" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!nameProblem) void save();
        }}
      >
        <h3>Manage user: {user.full_name}</h3>
        <label className="org-field">
          <span>Name</span>
          <input value={fullName} onChange={(e) => setFullName(e.target.value)} />
        </label>
        {nameProblem ? <p className="org-problem">{nameProblem}</p> : null}
        <label className="org-field">
          <span>User role</span>
          <select
            value={role}
            disabled={user.role === 100 && !isOwner}
            onChange={(e) => setRole(Number(e.target.value))}
          >
            {(user.role === 100 && !isOwner
              ? ROLE_NAMES.filter(([r]) => r === 100)
              : roleChoices
            ).map(([r, name]) => (
              <option key={r} value={r}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {editable.map((field) => (
          <label key={field.id} className="org-field">
            <span>{field.name}</span>
            {field.type === 3 ? (
              <select
                value={profile[field.id]}
                onChange={(e) => setProfile({ ...profile, [field.id]: e.target.value })}
              >
                <option value="">—</option>
                {Object.entries(
                  JSON.parse(field.field_data || '{}') as Record<string, { text: string }>,
                ).map(([key, option]) => (
                  <option key={key} value={key}>
                    {option.text}
                  </option>
                ))}
              </select>
            ) : (
              <input
                value={profile[field.id]}
                type={field.type === 4 ? 'date' : 'text'}
                onChange={(e) => setProfile({ ...profile, [field.id]: e.target.value })}
              />
            )}
          </label>
        ))}
        {refusal ? <p role="alert">{refusal}</p> : null}
        <div className="org-dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || nameProblem !== null}>
            Save changes
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
