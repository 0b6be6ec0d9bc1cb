// The Organization profile's icon: the current one for everyone; for administrators "Upload icon"
// (the chosen image is previewed here first, then sent) and "Remove icon" while an uploaded one is
// in use. The new icon arrives for everyone, this screen included, with the realm update_dict event.
import { useState } from 'react';
import { api } from '../../../bridge/api';
import { RealmIcon } from '../../accounts/RealmIcon';
import { ImageFileInput, Refusal, useChange, useLocalPreview } from './extras-kit';
import './organization-icon.css';

export function OrganizationIcon({
  accountId,
  realm,
  canEdit,
}: {
  accountId: string;
  realm: Record<string, unknown>;
  canEdit: boolean;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const { error, setError, busy, run } = useChange();
  const preview = useLocalPreview(file);

  const maxMib =
    typeof realm.max_icon_file_size_mib === 'number' ? realm.max_icon_file_size_mib : 5;
  const tooLarge = file !== null && file.size > maxMib * 1024 * 1024;
  const uploaded = realm.realm_icon_source === 'U';
  const clear = () => {
    setFile(null);
    setError(null);
    setInputKey((k) => k + 1);
  };

  const choose = (picked: File | null) => {
    setFile(picked);
    setError(null);
  };

  const upload = async () => {
    if (!file || tooLarge) return;
    const accepted = await run(async () => {
      const { token } = await api().intakeFile(file);
      await api().uploadRealmIcon({ accountId, token });
    });
    if (accepted) clear();
  };

  return (
    <div className="org-field org-icon" role="group" aria-label="Organization icon">
      <span>Organization icon</span>
      <div className="org-icon-row">
        {preview ? (
          <img className="org-profile-icon" src={preview} alt="Preview of the new icon" />
        ) : (
          <RealmIcon
            accountId={accountId}
            iconUrl={realm.realm_icon_url as string | undefined}
            realmName={String(realm.realm_name ?? '')}
            className="org-profile-icon"
          />
        )}
        {canEdit ? (
          <div className="org-icon-actions">
            {file ? (
              <>
                <button
                  type="button"
                  className="primary"
                  disabled={busy || tooLarge}
                  onClick={() => void upload()}
                >
                  {busy ? 'Uploading…' : 'Save icon'}
                </button>
                <button type="button" disabled={busy} onClick={clear}>
                  Cancel
                </button>
              </>
            ) : (
              <>
                <label className="org-icon-upload">
                  Upload icon
                  <ImageFileInput resetKey={inputKey} onPick={choose} />
                </label>
                {uploaded ? (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void run(() => api().deleteRealmIcon({ accountId }))}
                  >
                    Remove icon
                  </button>
                ) : null}
              </>
            )}
          </div>
        ) : null}
      </div>
      {canEdit ? (
        <span className="org-hint">
          {tooLarge
            ? `Uploaded file is larger than the allowed limit of ${maxMib} MiB`
            : `A square image works best (PNG, JPEG, GIF or WebP, up to ${maxMib}\u00a0MiB).`}
        </span>
      ) : null}
      <Refusal error={error} />
    </div>
  );
}
