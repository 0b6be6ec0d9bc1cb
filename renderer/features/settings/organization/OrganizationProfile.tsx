// Organization profile, as the public web app's: icon (OrganizationIcon.tsx), name, description
// (Markdown, with the server's sanitized rendering as preview) and language. Everyone sees it;
// administrators change it.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import {
  REALM_DESCRIPTION_MAX_LENGTH,
  REALM_LANGUAGES,
  REALM_NAME_MAX_LENGTH,
  realmDescriptionProblem,
  realmNameProblem,
} from '../../../../shared/admin/realm-settings';
import { useSettingsForm } from '../form/use-settings-form';
import { FieldStatus, textFieldProps } from '../form/FieldStatus';
import { isAdminAccount } from './form/permissions';
import { MarkdownPreview } from './MarkdownPreview';
import { OrganizationIcon } from './OrganizationIcon';

export function OrganizationProfile({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const realm = account?.settings.realm ?? {};
  const canEdit = account ? isAdminAccount(account) : false;
  const [preview, setPreview] = useState(false);
  const form = useSettingsForm(
    {
      name: String(realm.realm_name ?? ''),
      description: String(realm.realm_description ?? ''),
      default_language: String(realm.realm_default_language ?? 'en'),
    },
    {
      validate: (v) => ({
        name: realmNameProblem(v.name) ?? undefined,
        description: realmDescriptionProblem(v.description) ?? undefined,
      }),
      send: (changes) => api().updateRealm({ accountId, changes }),
    },
  );
  if (!account) return null;
  return (
    <section className="settings-section org-section" aria-label="Organization profile">
      <h2>Organization profile</h2>
      {canEdit ? null : (
        <p className="org-note">Only organization administrators can change these settings.</p>
      )}
      <OrganizationIcon accountId={accountId} realm={realm} canEdit={canEdit} />
      <label className="org-field">
        <span>Organization name</span>
        <input
          maxLength={REALM_NAME_MAX_LENGTH}
          disabled={!canEdit}
          {...textFieldProps(form, 'name')}
        />
      </label>
      <FieldStatus form={form} name="name" />
      <div className="org-field">
        <span id="org-description-label">Organization description</span>
        {canEdit ? (
          <div className="org-tabs" role="group" aria-label="Description view">
            <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>
              Write
            </button>
            <button type="button" aria-pressed={preview} onClick={() => setPreview(true)}>
              Preview
            </button>
          </div>
        ) : null}
        {/* Those who cannot edit read the description as it renders. */}
        {preview || !canEdit ? (
          <MarkdownPreview accountId={accountId} source={form.values.description} />
        ) : (
          <textarea
            aria-labelledby="org-description-label"
            rows={5}
            disabled={!canEdit}
            {...textFieldProps(form, 'description', { multiline: true })}
          />
        )}
        <FieldStatus form={form} name="description" />
        {canEdit ? (
          <span className="org-hint">
            Markdown. {[...form.values.description].length}/{REALM_DESCRIPTION_MAX_LENGTH}
          </span>
        ) : null}
      </div>
      <label className="org-field">
        <span>Language for automated messages and invitation emails</span>
        <select
          value={form.values.default_language}
          disabled={!canEdit}
          onChange={(e) => form.set('default_language', e.target.value)}
        >
          {REALM_LANGUAGES.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <FieldStatus form={form} name="default_language" />
    </section>
  );
}
