// Settings > Organization > User groups: the realm's groups (deactivated ones on request), creating
// one, and for the chosen group its name and description, members, subgroups, permission settings
// and deactivation. Who may change what is decided as the server decides it (group-permissions.ts);
// others see the same information without controls. Every change goes through main; the user_group
// events bring it back, so a second window follows.
import { useMemo, useState } from 'react';
import type { GroupSettingValue, UserGroup } from '../../../../shared/api/types';
import type { UserGroupSettings } from '../../../../shared/ipc/admin-people';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import { PeoplePicker } from '../../channels/PeoplePicker';
import { GroupSettingField, groupDisplayName } from './group-settings';
import { groupPowers, mayCreateGroups } from './group-permissions';
import { useAdminAction, useDraft, StatusLine } from './admin-action';
import { AdminFilters } from './admin-filters';
import { matchesFilter } from './extras-kit';
import './admin-people.css';

const GROUP_PERMISSIONS: ReadonlyArray<readonly [keyof UserGroupSettings, string]> = [
  ['can_manage_group', 'Who can administer this group'],
  ['can_mention_group', 'Who can mention this group'],
  ['can_add_members_group', 'Who can add members to this group'],
  ['can_remove_members_group', 'Who can remove members from this group'],
  ['can_join_group', 'Who can join this group'],
  ['can_leave_group', 'Who can leave this group'],
];
const MAX_NAME = 100;
const MAX_DESCRIPTION = 1024;
const INVALID_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** The checks the server makes on a group name, made before sending. */
function nameProblem(name: string, groups: Iterable<UserGroup>, exceptId?: number): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'A group needs a name.';
  if ([...trimmed].length > MAX_NAME) return `Use at most ${MAX_NAME} characters.`;
  const prefix = INVALID_PREFIXES.find((p) => trimmed.startsWith(p));
  if (prefix) return `A group name cannot start with “${prefix}”.`;
  for (const g of groups)
    if (g.id !== exceptId && g.name === trimmed) return `A group named “${trimmed}” exists.`;
  return null;
}

export function UserGroups({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [search, setSearch] = useState('');
  const [showDeactivated, setShowDeactivated] = useState(false);
  const [selected, setSelected] = useState<number | 'create' | null>(null);
  // The slice, not its map: the map is updated in place and the slice object is what changes.
  const slice = account?.userGroups;
  const groups = slice?.groups;
  const rows = useMemo(() => {
    return [...(slice?.groups.values() ?? [])]
      .filter((g) => !g.is_system_group && (showDeactivated || !g.deactivated))
      .filter((g) => matchesFilter(search, g.name))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [slice, search, showDeactivated]);
  if (!account || !groups) return null;
  const chosen = typeof selected === 'number' ? groups.get(selected) : undefined;

  return (
    <section className="admin-screen" aria-label="User groups">
      <header className="admin-header">
        <h2>User groups</h2>
        {mayCreateGroups(account) ? (
          <button type="button" className="primary" onClick={() => setSelected('create')}>
            Create user group
          </button>
        ) : null}
      </header>
      <AdminFilters
        what="user groups"
        search={search}
        onSearch={setSearch}
        toggleLabel="Show deactivated groups"
        toggled={showDeactivated}
        onToggle={setShowDeactivated}
      />
      <div className="admin-split">
        <table className="admin-table" aria-label="All user groups">
          <thead>
            <tr>
              <th>Name</th>
              <th>Members</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((g) => (
              <tr
                key={g.id}
                data-testid={`admin-group-${g.name}`}
                aria-selected={selected === g.id}
              >
                <td>
                  <button type="button" className="link row-name" onClick={() => setSelected(g.id)}>
                    {g.name}
                  </button>
                  {g.deactivated ? <span className="badge">Deactivated</span> : null}
                  <div className="muted small-text">{g.description}</div>
                </td>
                <td>{g.members.length}</td>
              </tr>
            ))}
            {rows.length === 0 ? (
              <tr>
                <td colSpan={2} className="muted">
                  No user groups.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
        <div className="admin-detail">
          {selected === 'create' ? (
            <CreateGroup accountId={accountId} onDone={setSelected} />
          ) : chosen ? (
            <GroupDetail key={chosen.id} accountId={accountId} group={chosen} />
          ) : (
            <p className="placeholder">Choose a group to see its members and settings.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function CreateGroup({
  accountId,
  onDone,
}: {
  accountId: string;
  onDone: (id: number | null) => void;
}) {
  const account = useChatStore(selectActiveAccount);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<number[]>(account ? [account.selfUserId] : []);
  const action = useAdminAction();
  if (!account) return null;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name, account.userGroups.groups.values());
    if (problem) return action.fail(problem);
    if ([...description].length > MAX_DESCRIPTION)
      return action.fail(`The description may have at most ${MAX_DESCRIPTION} characters.`);
    action.run(
      api()
        .createUserGroup({ accountId, name: name.trim(), description, members })
        .then((res) => onDone(res.group_id)),
    );
  };
  return (
    <form className="admin-form" aria-label="Create user group" onSubmit={submit}>
      <h3>Create user group</h3>
      <label>
        <span className="field-label">Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      </label>
      <label>
        <span className="field-label">Description</span>
        <textarea rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="field">
        <span className="field-label">Members</span>
        <PeoplePicker label="Add members" chosen={members} onChange={setMembers} />
      </div>
      <StatusLine action={action} />
      <div className="form-actions">
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={action.busy}>
          Create
        </button>
      </div>
    </form>
  );
}

function GroupDetail({ accountId, group }: { accountId: string; group: UserGroup }) {
  const account = useChatStore(selectActiveAccount);
  const [name, setName, resetName] = useDraft(group.name);
  const [description, setDescription, resetDescription] = useDraft(group.description);
  const [adding, setAdding] = useState<number[]>([]);
  const [subgroup, setSubgroup] = useState('');
  const action = useAdminAction();
  if (!account) return null;
  const powers = group.deactivated
    ? { ...groupPowers(account, group), addMembers: false, removeMembers: false }
    : groupPowers(account, group);
  const users = account.users.users;
  const groups = account.userGroups.groups;
  const members = group.members
    .map((id) => users.get(id))
    .filter((u) => u !== undefined)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const subgroupCandidates = [...groups.values()].filter(
    (g) =>
      g.id !== group.id &&
      !g.deactivated &&
      !group.direct_subgroup_ids.includes(g.id) &&
      (!g.is_system_group || g.name !== 'role:nobody'),
  );

  const saveDetails = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name, groups.values(), group.id);
    if (problem) return action.fail(problem);
    if ([...description].length > MAX_DESCRIPTION)
      return action.fail(`The description may have at most ${MAX_DESCRIPTION} characters.`);
    const change = {
      ...(name.trim() !== group.name ? { name: name.trim() } : {}),
      ...(description !== group.description ? { description } : {}),
    };
    if (Object.keys(change).length === 0) return action.fail('Nothing changed.');
    action.run(
      api()
        .updateUserGroup({ accountId, groupId: group.id, ...change })
        .then(() => {
          resetName();
          resetDescription();
        }),
      'Saved.',
    );
  };
  const setSetting = (setting: keyof UserGroupSettings, value: GroupSettingValue) =>
    action.run(
      api().updateUserGroup({ accountId, groupId: group.id, settings: { [setting]: value } }),
      'Permission saved.',
    );
  const members_ = (add: number[], remove: number[]) =>
    action.run(
      api().updateUserGroupMembers({ accountId, groupId: group.id, add, remove }),
      add.length > 0 ? 'Members added.' : 'Member removed.',
    );

  return (
    <article className="admin-form group-detail" aria-label={`Group ${group.name}`}>
      <header className="admin-header">
        <h3>{group.name}</h3>
        {powers.manage ? (
          group.deactivated ? (
            <button
              type="button"
              onClick={() =>
                action.run(
                  api().updateUserGroup({ accountId, groupId: group.id, deactivated: false }),
                  'Group reactivated.',
                )
              }
            >
              Reactivate group
            </button>
          ) : (
            <button
              type="button"
              className="danger"
              onClick={() =>
                action.run(
                  api().deactivateUserGroup({ accountId, groupId: group.id }),
                  'Group deactivated.',
                )
              }
            >
              Deactivate group
            </button>
          )
        ) : null}
      </header>
      {powers.manage ? (
        <form aria-label="Group details" onSubmit={saveDetails} className="admin-form">
          <label>
            <span className="field-label">Name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            <span className="field-label">Description</span>
            <textarea
              rows={2}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </label>
          <div className="form-actions">
            <button type="submit" className="primary">
              Save changes
            </button>
          </div>
        </form>
      ) : (
        <p>{group.description || <span className="muted">No description.</span>}</p>
      )}
      <StatusLine action={action} />

      <h4>Members ({members.length})</h4>
      {powers.addMembers ? (
        <div className="add-subscribers">
          <PeoplePicker
            label="Add members"
            chosen={adding}
            onChange={setAdding}
            exclude={group.members}
          />
          <button
            type="button"
            className="primary"
            disabled={adding.length === 0}
            onClick={() => {
              members_(adding, []);
              setAdding([]);
            }}
          >
            Add
          </button>
        </div>
      ) : null}
      <ul className="subscriber-list" aria-label="Members">
        {members.map((u) => (
          <li key={u.user_id}>
            {u.full_name} <span className="muted">{u.email}</span>
            {powers.removeMembers ? (
              <button
                type="button"
                className="small"
                aria-label={`Remove ${u.full_name}`}
                onClick={() => members_([], [u.user_id])}
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>

      <h4>Subgroups</h4>
      {powers.addMembers ? (
        <div className="add-subscribers">
          <select
            aria-label="Add a subgroup"
            value={subgroup}
            onChange={(e) => setSubgroup(e.target.value)}
          >
            <option value="">Choose a group…</option>
            {subgroupCandidates.map((g) => (
              <option key={g.id} value={g.id}>
                {groupDisplayName(g)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="primary"
            disabled={subgroup === ''}
            onClick={() => {
              action.run(
                api().updateUserGroupSubgroups({
                  accountId,
                  groupId: group.id,
                  add: [Number(subgroup)],
                  remove: [],
                }),
                'Subgroup added.',
              );
              setSubgroup('');
            }}
          >
            Add
          </button>
        </div>
      ) : null}
      <ul className="subscriber-list" aria-label="Subgroups">
        {group.direct_subgroup_ids.map((id) => {
          const sub = groups.get(id);
          const label = sub ? groupDisplayName(sub) : `Group ${id}`;
          return (
            <li key={id}>
              {label}
              {powers.manage ? (
                <button
                  type="button"
                  className="small"
                  aria-label={`Remove subgroup ${label}`}
                  onClick={() =>
                    action.run(
                      api().updateUserGroupSubgroups({
                        accountId,
                        groupId: group.id,
                        add: [],
                        remove: [id],
                      }),
                      'Subgroup removed.',
                    )
                  }
                >
                  Remove
                </button>
              ) : null}
            </li>
          );
        })}
        {group.direct_subgroup_ids.length === 0 ? <li className="muted">None</li> : null}
      </ul>

      <h4>Permissions</h4>
      <div className="group-permissions">
        {GROUP_PERMISSIONS.map(([setting, label]) => (
          <GroupSettingField
            key={setting}
            label={label}
            value={group[setting]}
            editable={powers.manage && !group.deactivated}
            exclude={setting === 'can_mention_group' ? ['role:owners'] : ['role:everyone']}
            onChange={(value) => setSetting(setting, value)}
          />
        ))}
      </div>
    </article>
  );
}
