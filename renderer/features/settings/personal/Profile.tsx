// Your profile: name (PATCH /settings full_name; read-only when the realm disables name changes for
// members), avatar (upload through main, or delete), and the realm's custom profile fields you may
// edit (PATCH /users/me/profile_data). Everyone sees the change through realm_user events.
import { useRef, useState, type ChangeEvent } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomProfileField } from '../../../../shared/api/types';
import { useChatStore, useUser } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../bridge/api';
import { avatar } from '../../messages/MessageRow';
import { ProfileFieldInput } from './ProfileFieldInput';
import { useSettingsForm } from '../form/use-settings-form';
import { FieldStatus, textFieldProps } from '../form/FieldStatus';

const MAX_FULL_NAME_LENGTH = 100;
/** The public server's default max_avatar_file_size_mib; main checks the server's own figure. */
const MAX_AVATAR_MIB = 5;

export function Profile({ accountId }: { accountId: string }) {
  const selfId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? -1);
  const me = useUser(selfId);
  const realm = useChatStore((s) => selectActiveAccount(s)?.settings.realm);
  const fields = useChatStore((s) => selectActiveAccount(s)?.settings.customProfileFields);
  if (!me || !realm) return null;
  const admin = me.is_admin || me.is_owner;
  return (
    <section className="settings-section" aria-label="Profile">
      <h2>Profile</h2>
      <div className="profile-settings">
        <AvatarSetting
          accountId={accountId}
          name={me.full_name}
          locked={realm.realm_avatar_changes_disabled === true && !admin}
        />
        <div className="profile-settings-fields">
          <FullName
            accountId={accountId}
            name={me.full_name}
            locked={realm.realm_name_changes_disabled === true && !admin}
          />
          <CustomFields accountId={accountId} userId={selfId} fields={fields ?? []} admin={admin} />
        </div>
      </div>
    </section>
  );
}

/** The screen's parts for your name and avatar; `locked`: the realm stops you changing it. */
interface OwnProps {
  accountId: string;
  name: string;
  locked: boolean;
}

function FullName({ accountId, name, locked }: OwnProps) {
  const form = useSettingsForm(
    { full_name: name },
    {
      validate: (v) => {
        const trimmed = v.full_name.trim();
        return {
          full_name:
            trimmed === '' || [...trimmed].length > MAX_FULL_NAME_LENGTH
              ? `Your name must have 1 to ${MAX_FULL_NAME_LENGTH} characters.`
              : undefined,
        };
      },
      send: (c) =>
        api().updateSettings({ accountId, settings: { full_name: (c.full_name ?? '').trim() } }),
    },
  );
  return (
    <div className="profile-name">
      <label>
        <span className="setting-label">Name</span>
        <input
          type="text"
          disabled={locked}
          maxLength={MAX_FULL_NAME_LENGTH * 2}
          {...textFieldProps(form, 'full_name')}
        />
      </label>
      {locked ? (
        <p className="setting-hint">Name changes are disabled in this organization.</p>
      ) : (
        <FieldStatus form={form} name="full_name" />
      )}
    </div>
  );
}

function AvatarSetting({ accountId, name, locked }: OwnProps) {
  const selfId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? -1);
  const me = useUser(selfId);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const uploaded = !!me?.avatar_url && !/gravatar\.com/.test(me.avatar_url);
  const run = (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    work()
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) return setError(`${file.name} is not an image.`);
    if (file.size > MAX_AVATAR_MIB * 1024 * 1024) {
      return setError(`${file.name} is larger than the ${MAX_AVATAR_MIB} MiB an avatar may be.`);
    }
    run(async () => {
      const { token } = await api().intakeFile(file);
      await api().uploadAvatar({ accountId, token });
    });
  };
  return (
    <div className="profile-avatar">
      {avatar(accountId, me, name, 'profile-avatar-image')}
      {locked ? (
        <p className="setting-hint">Avatar changes are disabled in this organization.</p>
      ) : (
        <div className="profile-avatar-actions">
          <input
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            hidden
            aria-label="Avatar image"
            onChange={onFile}
          />
          <button type="button" disabled={busy} onClick={() => input.current?.click()}>
            {busy ? 'Saving…' : 'Upload new avatar'}
          </button>
          {uploaded ? (
            <button
              type="button"
              className="link"
              disabled={busy}
              onClick={() => run(() => api().deleteAvatar({ accountId }))}
            >
              Delete avatar
            </button>
          ) : null}
        </div>
      )}
      {error ? <p role="alert">{error}</p> : null}
    </div>
  );
}

function CustomFields({
  accountId,
  userId,
  fields,
  admin,
}: {
  accountId: string;
  userId: number;
  fields: readonly CustomProfileField[];
  admin: boolean;
}) {
  const queryClient = useQueryClient();
  // The values come from the server (register leaves them out); the stored user's changes, which
  // follow realm_user events (a save here or in another client), say when to ask again.
  const changed = useUser(userId)?.profile_data;
  const values = useQuery({
    queryKey: ['own-profile-data', accountId, userId, changed],
    queryFn: () => api().getUser({ accountId, userId, includeCustomProfileFields: true }),
    enabled: fields.length > 0,
    placeholderData: keepPreviousData,
  });
  if (fields.length === 0) return null;
  const data = values.data?.user.profile_data ?? {};
  return (
    <div className="profile-fields">
      {fields.map((field) => (
        <ProfileFieldInput
          key={field.id}
          accountId={accountId}
          field={field}
          value={data[String(field.id)]?.value ?? ''}
          loaded={values.isSuccess}
          editable={field.editable_by_user !== false || admin}
          onSaved={() =>
            void queryClient.invalidateQueries({
              queryKey: ['own-profile-data', accountId, userId],
            })
          }
        />
      ))}
    </div>
  );
}
