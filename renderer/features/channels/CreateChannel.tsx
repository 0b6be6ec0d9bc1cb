// The create-channel form: name, description, privacy (only what the realm lets this person
// create), initial subscribers and the announcement. The server's refusal shows on the form; a name
// already in use is caught first, as the public web app does, since subscribing to that name would
// join the existing channel instead of creating one.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../bridge/api';
import { navigate } from '../../store/ui-store';
import { creatablePrivacies, type Privacy } from './channel-permissions';
import { PeoplePicker } from './PeoplePicker';
import { whenSubscribed } from './when-subscribed';
import { ErrorLine } from './parts';
import type { ChannelGroupSettings } from '../../../shared/ipc/admin-people';
import { GroupSettingField } from '../settings/organization/group-settings';
import { CHANNEL_PERMISSIONS } from './ChannelGeneral';

const PRIVACY_TEXT: Record<Privacy, { label: string; help: string }> = {
  public: { label: 'Public', help: 'Members can join and view the complete message history.' },
  private: { label: 'Private', help: 'Only subscribers can see the channel and its messages.' },
  'web-public': {
    label: 'Web-public',
    help: 'Anyone on the internet can view messages; members can join.',
  },
};

/**
 * `admin` (Settings > Organization > Channels, for administrators): the creator may leave
 * themselves out, make the channel a default one and set its permission groups; `onDone` replaces
 * opening the channel in the browser.
 */
export function CreateChannel({
  accountId,
  admin = false,
  onDone,
}: {
  accountId: string;
  admin?: boolean;
  onDone?: (streamId: number | undefined) => void;
}) {
  const privacies = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? creatablePrivacies(account).join(',') : '';
  })
    .split(',')
    .filter(Boolean) as Privacy[];
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const idByName = useChatStore((s) => selectActiveAccount(s)?.channels.idByName);
  const store = useChatStoreApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState<Privacy | undefined>(undefined);
  const [principals, setPrincipals] = useState<number[]>([]);
  const [announce, setAnnounce] = useState(true);
  const [subscribeSelf, setSubscribeSelf] = useState(true);
  const [isDefault, setIsDefault] = useState(false);
  const [groupSettings, setGroupSettings] = useState<ChannelGroupSettings>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (privacies.length === 0) {
    return (
      <p className="placeholder" role="note">
        You do not have permission to create channels in this organization.
      </p>
    );
  }
  const chosenPrivacy = privacy ?? privacies[0];

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (idByName?.has(name.trim().toLowerCase())) {
      setError('A channel with this name already exists.');
      return;
    }
    setBusy(true);
    try {
      if (admin) {
        if (chosenPrivacy === 'web-public')
          throw new Error('Web-public channels are not offered here.');
        if (!subscribeSelf && principals.length === 0)
          throw new Error('Choose at least one subscriber, or subscribe yourself.');
        await api().adminCreateChannel({
          accountId,
          name: name.trim(),
          description,
          privacy: chosenPrivacy,
          principals,
          subscribeSelf,
          isDefault: chosenPrivacy === 'public' && isDefault,
          groupSettings,
        });
      } else {
        await api().createChannel({
          accountId,
          name: name.trim(),
          description,
          privacy: chosenPrivacy,
          principals,
          announce: chosenPrivacy !== 'private' && announce,
        });
      }
      await queryClient.invalidateQueries({ queryKey: ['channels', accountId] });
      const id = await whenSubscribed(store, name.trim(), !admin || subscribeSelf);
      if (onDone) onDone(id);
      else navigate(id === undefined ? { kind: 'channels' } : { kind: 'channels', streamId: id });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="create-channel" aria-label="Create channel" onSubmit={(e) => void submit(e)}>
      <h2>Create channel</h2>
      <label>
        Channel name
        <input
          required
          value={name}
          maxLength={60}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          autoFocus
        />
      </label>
      <label>
        Channel description
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
      </label>
      <fieldset>
        <legend>Who can access the channel?</legend>
        {privacies.map((p) => (
          <label key={p} className="radio">
            <input
              type="radio"
              name="privacy"
              value={p}
              checked={chosenPrivacy === p}
              onChange={() => setPrivacy(p)}
            />
            <span>
              <strong>{PRIVACY_TEXT[p].label}</strong>
              <small>{PRIVACY_TEXT[p].help}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <span className="field-label">Choose subscribers</span>
        <PeoplePicker
          label="Initial subscribers"
          chosen={principals}
          onChange={setPrincipals}
          exclude={[selfUserId]}
        />
        {admin ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={subscribeSelf}
              onChange={(e) => setSubscribeSelf(e.target.checked)}
            />
            Subscribe me too
          </label>
        ) : (
          <small>You are subscribed automatically.</small>
        )}
      </div>
      {admin && chosenPrivacy === 'public' ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={isDefault}
            onChange={(e) => setIsDefault(e.target.checked)}
          />
          Default channel for new users
        </label>
      ) : null}
      {admin ? (
        <fieldset>
          <legend>Permissions</legend>
          {CHANNEL_PERMISSIONS.map(([setting, label]) => (
            <GroupSettingField
              key={setting}
              label={label}
              value={groupSettings[setting]}
              editable
              onChange={(value) => setGroupSettings({ ...groupSettings, [setting]: value })}
            />
          ))}
        </fieldset>
      ) : null}
      {!admin && chosenPrivacy !== 'private' ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={announce}
            onChange={(e) => setAnnounce(e.target.checked)}
          />
          Announce new channel
        </label>
      ) : null}
      <ErrorLine error={error} />
      <div className="form-actions">
        <button
          type="button"
          onClick={() => (onDone ? onDone(undefined) : navigate({ kind: 'channels' }))}
        >
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
          {busy ? 'Creating…' : 'Create'}
        </button>
      </div>
    </form>
  );
}
