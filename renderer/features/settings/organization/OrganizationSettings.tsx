// Organization settings, as the public web app's: message editing and moving limits, message
// retention (owners), code blocks, video calls and read receipts. Everyone sees them;
// administrators change them, owners also the retention.
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import {
  CODE_BLOCK_LANGUAGE_MAX_LENGTH,
  EDIT_HISTORY_POLICIES,
  VIDEO_CHAT_PROVIDERS,
} from '../../../../shared/admin/realm-settings';
import type { RealmChanges } from '../../../../shared/ipc/admin-realm';
import { useSettingsForm, type SettingsForm } from '../form/use-settings-form';
import { FieldStatus, textFieldProps } from '../form/FieldStatus';
import { CheckboxField } from './form/fields';
import { TimeLimitField, timeLimitProblem } from './form/TimeLimitField';
import { isAdminAccount, isOwnerAccount } from './form/permissions';

const HISTORY_LABELS: Record<(typeof EDIT_HISTORY_POLICIES)[number], string> = {
  all: 'Show edits and moves',
  moves: 'Move history only',
  none: "Don't allow",
};

/** The time-limit settings of "Message editing", in the public app's order. */
const TIME_LIMITS: ReadonlyArray<[string, string]> = [
  ['message_content_edit_limit_seconds', 'Time limit for editing messages'],
  ['message_content_delete_limit_seconds', 'Time limit for deleting messages'],
  ['move_messages_within_stream_limit_seconds', 'Time limit for editing topics'],
  [
    'move_messages_between_streams_limit_seconds',
    'Time limit for moving messages between channels',
  ],
];

/** Time limits travel as seconds, or the API's "unlimited" for none. */
const limit = (v: number | null) => (v === null ? ('unlimited' as const) : v);

export function OrganizationSettings({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const realm = account?.settings.realm ?? {};
  const canEdit = account ? isAdminAccount(account) : false;
  const isOwner = account ? isOwnerAccount(account) : false;
  const send = (changes: RealmChanges) => api().updateRealm({ accountId, changes });

  const editing = useSettingsForm<Record<string, unknown>>(
    {
      allow_message_editing: realm.realm_allow_message_editing !== false,
      ...Object.fromEntries(
        TIME_LIMITS.map(([name]) => [name, (realm[`realm_${name}`] ?? null) as number | null]),
      ),
      message_edit_history_visibility_policy: String(
        realm.realm_message_edit_history_visibility_policy ?? 'all',
      ),
    },
    {
      validate: (v) =>
        Object.fromEntries(
          TIME_LIMITS.map(([name, label]) => [
            name,
            timeLimitProblem(label, v[name] as number | null),
          ]),
        ),
      send: (c) =>
        send(
          Object.fromEntries(
            Object.entries(c).map(([name, value]) => [
              name,
              name.endsWith('_limit_seconds') ? limit(value as number | null) : value,
            ]),
          ),
        ),
    },
  );

  const retentionDays = Number(realm.realm_message_retention_days ?? -1);
  const retention: SettingsForm<{ forever: boolean; days: string }> = useSettingsForm(
    { forever: retentionDays === -1, days: retentionDays === -1 ? '' : String(retentionDays) },
    {
      validate: (v) => ({
        days:
          v.forever || (Number.isInteger(Number(v.days)) && Number(v.days) > 0)
            ? undefined
            : 'Message retention: enter a positive whole number of days.',
      }),
      // Both fields travel as one value: the changes sent, else what the form shows. The form as
      // rendered before a click is stale in this call: checking "Retain forever" sent the days.
      together: true,
      send: (changes): Promise<unknown> => {
        const forever = changes.forever ?? retention.values.forever;
        const days = changes.days ?? retention.values.days;
        return send({ message_retention_days: forever ? 'unlimited' : Number(days) });
      },
    },
  );

  const other = useSettingsForm(
    {
      default_code_block_language: String(realm.realm_default_code_block_language ?? ''),
      video_chat_provider: Number(realm.realm_video_chat_provider ?? 0),
      enable_read_receipts: realm.realm_enable_read_receipts !== false,
    },
    {
      validate: (v) => ({
        default_code_block_language:
          [...v.default_code_block_language].length > CODE_BLOCK_LANGUAGE_MAX_LENGTH
            ? `Default language for code blocks: at most ${CODE_BLOCK_LANGUAGE_MAX_LENGTH} characters.`
            : undefined,
      }),
      send: (c) => send(c),
    },
  );
  if (!account) return null;
  const providers = (realm.realm_available_video_chat_providers ?? VIDEO_CHAT_PROVIDERS) as Record<
    string,
    { name: string; id: number }
  >;

  return (
    <section className="settings-section org-section" aria-label="Organization settings">
      <h2>Organization settings</h2>
      {canEdit ? null : (
        <p className="org-note">Only organization administrators can change these settings.</p>
      )}

      <fieldset className="org-subsection" aria-label="Message editing">
        <legend>Message editing</legend>
        <CheckboxField
          label="Allow message editing"
          checked={editing.values.allow_message_editing === true}
          disabled={!canEdit}
          onChange={(v) => editing.set('allow_message_editing', v)}
          status={<FieldStatus form={editing} name="allow_message_editing" />}
        />
        {TIME_LIMITS.map(([name, label]) => (
          <TimeLimitField
            key={name}
            label={label}
            value={editing.values[name] as number | null}
            disabled={
              !canEdit ||
              (name === 'message_content_edit_limit_seconds' &&
                !editing.values.allow_message_editing)
            }
            onChoose={(v) => editing.set(name, v)}
            onType={(v) => editing.edit(name, v)}
            onDone={() => void editing.commit()}
            status={<FieldStatus form={editing} name={name} />}
          />
        ))}
        <label className="org-field">
          <span>Allow viewing the history of a message</span>
          <select
            value={String(editing.values.message_edit_history_visibility_policy)}
            disabled={!canEdit}
            onChange={(e) => editing.set('message_edit_history_visibility_policy', e.target.value)}
          >
            {EDIT_HISTORY_POLICIES.map((p) => (
              <option key={p} value={p}>
                {HISTORY_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <FieldStatus form={editing} name="message_edit_history_visibility_policy" />
      </fieldset>

      <fieldset className="org-subsection" aria-label="Message retention">
        <legend>Message retention period</legend>
        {canEdit && !isOwner ? (
          <p className="org-note">Only organization owners can change the retention period.</p>
        ) : null}
        <CheckboxField
          label="Retain forever"
          checked={retention.values.forever}
          disabled={!isOwner}
          onChange={(v) => retention.set('forever', v)}
          status={<FieldStatus form={retention} name="forever" />}
        />
        {retention.values.forever ? null : (
          <>
            <label className="org-field">
              <span>Delete messages after (days)</span>
              <input
                inputMode="numeric"
                disabled={!isOwner}
                {...textFieldProps(retention, 'days')}
              />
            </label>
            <FieldStatus form={retention} name="days" />
          </>
        )}
      </fieldset>

      <fieldset className="org-subsection" aria-label="Other settings">
        <legend>Other settings</legend>
        <label className="org-field">
          <span>Default language for code blocks</span>
          <input
            placeholder="No language set"
            disabled={!canEdit}
            {...textFieldProps(other, 'default_code_block_language')}
          />
        </label>
        <FieldStatus form={other} name="default_code_block_language" />
        <label className="org-field">
          <span>Call provider</span>
          <select
            value={other.values.video_chat_provider}
            disabled={!canEdit}
            onChange={(e) => other.set('video_chat_provider', Number(e.target.value))}
          >
            {Object.values(providers).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <FieldStatus form={other} name="video_chat_provider" />
        <CheckboxField
          label="Enable read receipts"
          checked={other.values.enable_read_receipts}
          disabled={!canEdit}
          onChange={(v) => other.set('enable_read_receipts', v)}
          status={<FieldStatus form={other} name="enable_read_receipts" />}
        />
      </fieldset>
    </section>
  );
}
