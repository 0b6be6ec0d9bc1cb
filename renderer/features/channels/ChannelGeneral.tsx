// A channel's General tab (the public web app's channel settings "General"): name, description,
// privacy, permission groups, and archiving. Channel administrators (administrators and the
// channel's can_administer_channel_group) get the controls; everyone else reads the same values.
// Each change is one PATCH /streams/{id} (or DELETE to archive) through main; the stream update
// event brings the result back, so a second window shows it too.
import { useState } from 'react';
import type { Channel, GroupSettingValue } from '../../../shared/api/types';
import type { ChannelGroupSettings } from '../../../shared/ipc/admin-people';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../bridge/api';
import { canAdministerChannel } from './channel-permissions';
import { GroupSettingField } from '../settings/organization/group-settings';
import { ErrorLine } from './parts';
import { useDraft } from '../settings/organization/admin-action';

export const CHANNEL_PERMISSIONS: ReadonlyArray<readonly [keyof ChannelGroupSettings, string]> = [
  ['can_send_message_group', 'Who can post to this channel'],
  ['can_administer_channel_group', 'Who can administer this channel'],
  ['can_add_subscribers_group', 'Who can subscribe anyone to this channel'],
  ['can_remove_subscribers_group', 'Who can unsubscribe anyone from this channel'],
  ['can_subscribe_group', 'Who can subscribe to this channel'],
];

export function ChannelGeneral({ accountId, channel }: { accountId: string; channel: Channel }) {
  const editable = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? canAdministerChannel(account, channel) && !channel.is_archived : false;
  });
  const maxName = useChatStore(
    (s) => selectActiveAccount(s)?.settings.limits.maxStreamNameLength ?? 60,
  );
  const maxDescription = useChatStore(
    (s) => selectActiveAccount(s)?.settings.limits.maxStreamDescriptionLength ?? 1024,
  );
  const mayArchive = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? canAdministerChannel(account, channel) : false;
  });
  const [name, setName, resetName] = useDraft(channel.name);
  const [description, setDescription, resetDescription] = useDraft(channel.description);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const run = (request: Promise<unknown>, done: string) => {
    setError(null);
    setStatus(null);
    request.then(
      () => setStatus(done),
      (e: unknown) => setError(errorText(e)),
    );
  };
  const saveDetails = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setError('Channel name is required.');
    if ([...trimmed].length > maxName) return setError(`Use at most ${maxName} characters.`);
    if ([...description].length > maxDescription)
      return setError(`The description may have at most ${maxDescription} characters.`);
    const change = {
      ...(trimmed !== channel.name ? { newName: trimmed } : {}),
      ...(description !== channel.description ? { description } : {}),
    };
    if (Object.keys(change).length === 0) return setStatus('Nothing changed.');
    run(
      api()
        .updateChannel({ accountId, channelId: channel.stream_id, ...change })
        .then(() => {
          resetName();
          resetDescription();
        }),
      'Saved.',
    );
  };
  const setPrivacy = (isPrivate: boolean, historyPublic?: boolean) =>
    run(
      api().updateChannel({
        accountId,
        channelId: channel.stream_id,
        isPrivate,
        ...(historyPublic === undefined ? {} : { historyPublic }),
      }),
      'Privacy saved.',
    );
  const setGroup = (setting: keyof ChannelGroupSettings, value: GroupSettingValue) =>
    run(
      api().updateChannel({
        accountId,
        channelId: channel.stream_id,
        groupSettings: { [setting]: value },
      }),
      'Permission saved.',
    );
  const archive = () => {
    if (!window.confirm(`Archive #${channel.name}? Nobody can post to it afterwards.`)) return;
    run(api().archiveChannel({ accountId, channelId: channel.stream_id }), 'Channel archived.');
  };
  const privacy = channel.is_web_public ? 'web-public' : channel.invite_only ? 'private' : 'public';

  return (
    <div className="channel-general" aria-label="General">
      {editable ? (
        <form
          className="channel-details"
          aria-label="Channel details"
          onSubmit={(e) => {
            e.preventDefault();
            saveDetails();
          }}
        >
          <label>
            <span className="field-label">Channel name</span>
            <input value={name} maxLength={maxName} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            <span className="field-label">Description</span>
            <textarea
              value={description}
              rows={3}
              onChange={(e) => setDescription(e.target.value)}
            />
          </label>
          <div className="form-actions">
            <button type="submit" className="primary">
              Save changes
            </button>
          </div>
        </form>
      ) : null}
      <fieldset>
        <legend>Channel permissions</legend>
        {editable ? (
          <label className="select-row">
            <span>Who can access the channel</span>
            <select
              aria-label="Who can access the channel"
              value={
                privacy === 'private'
                  ? channel.history_public_to_subscribers
                    ? 'private-history'
                    : 'private'
                  : privacy
              }
              onChange={(e) => {
                const v = e.target.value;
                if (v === 'public') setPrivacy(false);
                else setPrivacy(true, v === 'private-history');
              }}
            >
              <option value="public">Public: members can join and read history</option>
              <option value="private-history">Private, shared history</option>
              <option value="private">Private, protected history</option>
              {privacy === 'web-public' ? <option value="web-public">Web-public</option> : null}
            </select>
          </label>
        ) : (
          <div className="group-setting read-only">
            <span className="field-label">Who can access the channel</span>
            <span>
              {privacy === 'public'
                ? 'Public'
                : privacy === 'web-public'
                  ? 'Web-public'
                  : channel.history_public_to_subscribers
                    ? 'Private, shared history'
                    : 'Private, protected history'}
            </span>
          </div>
        )}
        {CHANNEL_PERMISSIONS.map(([setting, label]) => (
          <GroupSettingField
            key={setting}
            label={label}
            value={channel[setting] as GroupSettingValue | undefined}
            editable={editable}
            onChange={(value) => setGroup(setting, value)}
          />
        ))}
      </fieldset>
      {mayArchive ? (
        <div className="form-actions archive-actions">
          {channel.is_archived ? (
            <button
              type="button"
              onClick={() =>
                run(
                  api().unarchiveChannel({ accountId, channelId: channel.stream_id }),
                  'Channel unarchived.',
                )
              }
            >
              Unarchive channel
            </button>
          ) : (
            <button type="button" className="danger" onClick={archive}>
              Archive channel
            </button>
          )}
        </div>
      ) : null}
      <ErrorLine error={error} />
      {status ? (
        <p role="status" className="success">
          {status}
        </p>
      ) : null}
    </div>
  );
}
