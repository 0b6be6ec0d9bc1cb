// Organization permissions, as the public web app's: who may join and invite, create channels and
// groups, send direct messages, mention many people, move, resolve and delete messages, and add
// custom emoji. Each is a group setting (spec 2.6) chosen among the role groups. Everyone sees
// them; administrators change them, and owners the ones the public server keeps for owners.
import { Fragment, type ReactNode } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount, type AccountState } from '../../../store';
import { api } from '../../../bridge/api';
import { OWNER_ONLY_GROUP_SETTINGS } from '../../../../shared/admin/realm-settings';
import type { GroupSettingValue } from '../../../../shared/api/types';
import type { RealmChanges } from '../../../../shared/ipc/admin-realm';
import { useSettingsForm, type SettingsForm } from '../form/use-settings-form';
import { FieldStatus, textFieldProps } from '../form/FieldStatus';
import { CheckboxField } from './form/fields';
import { isAdminAccount, isOwnerAccount } from './form/permissions';

/** Role groups as the public app names them, widest first. */
const ROLE_GROUPS: ReadonlyArray<[string, string]> = [
  ['role:everyone', 'Admins, moderators, members and guests'],
  ['role:members', 'Admins, moderators and members'],
  ['role:fullmembers', 'Admins, moderators and full members'],
  ['role:moderators', 'Admins and moderators'],
  ['role:administrators', 'Admins'],
  ['role:owners', 'Owners'],
  ['role:nobody', 'Nobody'],
];

/** Settings whose value may include guests (the others start at members). */
const GUESTS_ALLOWED = new Set([
  'can_delete_own_message_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_summarize_topics_group',
  'direct_message_permission_group',
  'direct_message_initiator_group',
]);

const SECTIONS: ReadonlyArray<{ title: string; settings: ReadonlyArray<[string, string]> }> = [
  {
    title: 'Joining the organization',
    settings: [
      ['can_invite_users_group', 'Who can send email invitations to new users'],
      ['create_multiuse_invite_group', 'Who can create reusable invitation links'],
    ],
  },
  {
    title: 'Channel permissions',
    settings: [
      ['can_create_public_channel_group', 'Who can create public channels'],
      ['can_create_private_channel_group', 'Who can create private channels'],
      ['can_create_web_public_channel_group', 'Who can create web-public channels'],
      ['can_add_subscribers_group', 'Who can subscribe others to channels'],
    ],
  },
  {
    title: 'Group permissions',
    settings: [
      ['can_create_groups', 'Who can create user groups'],
      ['can_manage_all_groups', 'Who can administer all user groups'],
    ],
  },
  {
    title: 'Direct message permissions',
    settings: [
      ['direct_message_permission_group', 'Who can authorize a direct message conversation'],
      ['direct_message_initiator_group', 'Who can start a direct message conversation'],
    ],
  },
  {
    title: 'Message permissions',
    settings: [
      [
        'can_mention_many_users_group',
        'Who can notify a large number of users with a wildcard mention',
      ],
      ['can_move_messages_between_topics_group', 'Who can move messages to another topic'],
      ['can_move_messages_between_channels_group', 'Who can move messages to another channel'],
      ['can_resolve_topics_group', 'Who can resolve topics'],
      ['can_delete_any_message_group', 'Who can delete any message'],
      ['can_delete_own_message_group', 'Who can delete their own messages'],
    ],
  },
  {
    title: 'Other permissions',
    settings: [
      ['can_add_custom_emoji_group', 'Who can add custom emoji'],
      ['can_create_bots_group', 'Who can create any bot'],
      ['can_create_write_only_bots_group', 'Who can create bots that only send messages'],
    ],
  },
];

const OWNER_ONLY = new Set<string>(OWNER_ONLY_GROUP_SETTINGS);

function roleGroupIds(account: AccountState): Map<string, number> {
  const ids = new Map<string, number>();
  for (const group of account.userGroups.groups.values()) {
    if (group.is_system_group) ids.set(group.name, group.id);
  }
  return ids;
}

/** New users' addresses, as the public web app offers them: one choice over two settings. */
const EMAIL_RESTRICTIONS: ReadonlyArray<[string, string]> = [
  ['no_disposable', "Don't allow disposable email addresses"],
  ['domains', 'Restrict to a list of domains (Allowed domains)'],
  ['none', 'No restrictions'],
];

/**
 * Who may join at all, which only owners change (the public server's update_realm): whether an
 * invitation is needed, which addresses may sign up, and how long new members wait before they
 * are full members. The Allowed domains screen spoke of a restriction nothing here could set.
 */
function JoiningRules({ accountId, account }: { accountId: string; account: AccountState }) {
  const realm = account.settings.realm;
  const isOwner = isOwnerAccount(account);
  const form = useSettingsForm(
    {
      invite_required: realm.realm_invite_required === true,
      email_restriction:
        realm.realm_emails_restricted_to_domains === true
          ? 'domains'
          : realm.realm_disallow_disposable_email_addresses === false
            ? 'none'
            : 'no_disposable',
      waiting_period_threshold: String(realm.realm_waiting_period_threshold ?? 0),
    },
    {
      validate: (v) => ({
        waiting_period_threshold: /^\d{1,5}$/.test(v.waiting_period_threshold.trim())
          ? undefined
          : 'Waiting period: enter a whole number of days (0 or more).',
      }),
      send: (c) => {
        // The boolean settings' names are built from a list (shared/ipc/admin-realm.ts), so the
        // schema's type does not name them; the schema still checks them at the boundary.
        const changes: Record<string, unknown> = {
          invite_required: c.invite_required,
          ...(c.email_restriction === undefined
            ? {}
            : {
                emails_restricted_to_domains: c.email_restriction === 'domains',
                disallow_disposable_email_addresses: c.email_restriction === 'no_disposable',
              }),
          waiting_period_threshold:
            c.waiting_period_threshold === undefined
              ? undefined
              : Number(c.waiting_period_threshold.trim()),
        };
        return api().updateRealm({ accountId, changes: changes as RealmChanges });
      },
    },
  );
  const hint = isAdminAccount(account) && !isOwner ? ' (owners only)' : '';
  return (
    <>
      <CheckboxField
        label={`Invitations are required for joining the organization${hint}`}
        checked={form.values.invite_required}
        disabled={!isOwner}
        onChange={(v) => form.set('invite_required', v)}
        status={<FieldStatus form={form} name="invite_required" />}
      />
      <label className="org-field">
        <span>Restrict email domains of new users{hint}</span>
        <select
          value={form.values.email_restriction}
          disabled={!isOwner}
          onChange={(e) => form.set('email_restriction', e.target.value)}
        >
          {EMAIL_RESTRICTIONS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <FieldStatus form={form} name="email_restriction" />
      <label className="org-field">
        <span>Waiting period before new members turn into full members (days){hint}</span>
        <input
          inputMode="numeric"
          disabled={!isOwner}
          {...textFieldProps(form, 'waiting_period_threshold')}
        />
      </label>
      <FieldStatus form={form} name="waiting_period_threshold" />
    </>
  );
}

function PermissionSection({
  accountId,
  account,
  title,
  settings,
  children,
}: {
  accountId: string;
  account: AccountState;
  title: string;
  settings: ReadonlyArray<[string, string]>;
  /** Settings of the section that are not group settings, shown first. */
  children?: ReactNode;
}) {
  const realm = account.settings.realm;
  const canEdit = isAdminAccount(account);
  const isOwner = isOwnerAccount(account);
  const ids = roleGroupIds(account);
  const saved = Object.fromEntries(settings.map(([name]) => [name, realm[`realm_${name}`]]));
  const form: SettingsForm<Record<string, unknown>> = useSettingsForm(saved, {
    send: (changes) =>
      api().updateRealm({
        accountId,
        changes: {
          groups: Object.fromEntries(
            Object.entries(changes).map(([name, value]) => [
              name,
              { new: value as GroupSettingValue, old: saved[name] as GroupSettingValue },
            ]),
          ),
        },
      }),
  });
  return (
    <fieldset className="org-subsection" aria-label={title}>
      <legend>{title}</legend>
      {children}
      {settings.map(([name, label]) => {
        const value = form.values[name];
        const custom = typeof value !== 'number' || ![...ids.values()].includes(value);
        const editable = canEdit && (!OWNER_ONLY.has(name) || isOwner);
        return (
          <Fragment key={name}>
            <label className="org-field">
              <span>
                {label}
                {OWNER_ONLY.has(name) && canEdit && !isOwner ? (
                  <em className="org-hint"> (owners only)</em>
                ) : null}
              </span>
              <select
                value={custom ? 'custom' : String(value)}
                disabled={!editable}
                onChange={(e) => form.set(name, Number(e.target.value))}
              >
                {custom ? (
                  <option value="custom" disabled>
                    Custom group of users
                  </option>
                ) : null}
                {ROLE_GROUPS.filter(
                  ([group]) => group !== 'role:everyone' || GUESTS_ALLOWED.has(name),
                ).map(([group, text]) =>
                  ids.has(group) ? (
                    <option key={group} value={ids.get(group)}>
                      {text}
                    </option>
                  ) : null,
                )}
              </select>
            </label>
            <FieldStatus form={form} name={name} />
          </Fragment>
        );
      })}
    </fieldset>
  );
}

export function OrganizationPermissions({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  if (!account) return null;
  const isOwner = isOwnerAccount(account);
  const canEdit = isAdminAccount(account);
  return (
    <section className="settings-section org-section" aria-label="Organization permissions">
      <h2>Organization permissions</h2>
      {canEdit ? null : (
        <p className="org-note">Only organization administrators can change these settings.</p>
      )}
      {canEdit && !isOwner ? (
        <p className="org-note">Some settings can be changed by organization owners only.</p>
      ) : null}
      {SECTIONS.map((section) => (
        <PermissionSection
          key={section.title}
          accountId={accountId}
          account={account}
          title={section.title}
          settings={section.settings}
        >
          {section.title === 'Joining the organization' ? (
            <JoiningRules accountId={accountId} account={account} />
          ) : null}
        </PermissionSection>
      ))}
    </section>
  );
}
