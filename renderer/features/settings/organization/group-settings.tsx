// Group-setting values (a group id, or direct members plus subgroups) as the public web app shows
// them: a dropdown of the system roles by their display names and the realm's own groups, and a
// read-only line for people who may not change the setting.
import type { GroupSettingValue, UserGroup } from '../../../../shared/api/types';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';

/** The public web app's names for the system groups, in its order. */
const SYSTEM_GROUP_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['role:everyone', 'Everyone including guests'],
  ['role:members', 'Everyone except guests'],
  ['role:fullmembers', 'Full members'],
  ['role:moderators', 'Moderators'],
  ['role:administrators', 'Administrators'],
  ['role:owners', 'Owners'],
  ['role:nobody', 'Nobody'],
];

export function groupDisplayName(group: UserGroup): string {
  return SYSTEM_GROUP_NAMES.find(([name]) => name === group.name)?.[1] ?? group.name;
}

export interface GroupOption {
  id: number;
  label: string;
}

/** System roles first (the web app's order), then the realm's active groups by name. */
export function groupOptions(groups: ReadonlyMap<number, UserGroup>): GroupOption[] {
  const all = [...groups.values()];
  const system = SYSTEM_GROUP_NAMES.flatMap(([name, label]) => {
    const group = all.find((g) => g.is_system_group && g.name === name);
    return group ? [{ id: group.id, label }] : [];
  });
  const own = all
    .filter((g) => !g.is_system_group && !g.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((g) => ({ id: g.id, label: g.name }));
  return [...system, ...own];
}

/** A value in words: a group's name, or the people and groups of an anonymous one. */
export function describeGroupSetting(
  value: GroupSettingValue | undefined,
  groups: ReadonlyMap<number, UserGroup>,
  userName: (id: number) => string,
): string {
  if (value === undefined) return 'Default';
  if (typeof value === 'number') {
    const group = groups.get(value);
    return group ? groupDisplayName(group) : `Group ${value}`;
  }
  const parts = [
    ...value.direct_members.map(userName),
    ...value.direct_subgroups.map((id) => {
      const group = groups.get(id);
      return group ? groupDisplayName(group) : `Group ${id}`;
    }),
  ];
  return parts.length > 0 ? parts.join(', ') : 'Nobody';
}

export function GroupSettingField({
  label,
  value,
  editable,
  onChange,
  exclude = [],
}: {
  label: string;
  value: GroupSettingValue | undefined;
  editable: boolean;
  onChange: (value: GroupSettingValue) => void;
  /** Groups that may not be chosen here (e.g. role:everyone where the server refuses it). */
  exclude?: readonly string[];
}) {
  const groups = useChatStore((s) => selectActiveAccount(s)?.userGroups.groups);
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  if (!groups) return null;
  const userName = (id: number) => users?.get(id)?.full_name ?? `User ${id}`;
  const text = describeGroupSetting(value, groups, userName);
  if (!editable) {
    return (
      <div className="group-setting read-only">
        <span className="field-label">{label}</span>
        <span>{text}</span>
      </div>
    );
  }
  const options = groupOptions(groups).filter(
    (option) => !exclude.includes(groups.get(option.id)?.name ?? ''),
  );
  return (
    <label className="group-setting">
      <span className="field-label">{label}</span>
      <select
        value={typeof value === 'number' ? String(value) : 'custom'}
        onChange={(e) => {
          if (e.target.value !== 'custom') onChange(Number(e.target.value));
        }}
      >
        {typeof value === 'number' ? null : (
          <option value="custom" disabled>
            {text}
          </option>
        )}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
