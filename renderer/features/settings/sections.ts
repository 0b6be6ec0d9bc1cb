// Every screen of Settings, in the order the navigation lists them. A screen is one entry here: its
// component lives in personal/ or organization/. `visible` hides a screen from people who may not see
// it at all (the public web app hides, say, allowed domains from members); screens everyone may see
// but only some may change decide that themselves and show read-only controls to the rest.
import type { ComponentType } from 'react';
import type { AccountState } from '../../store';
import { Preferences } from './personal/Preferences';
import { OrganizationProfile } from './organization/OrganizationProfile';
import { OrganizationSettings } from './organization/OrganizationSettings';
import { OrganizationPermissions } from './organization/OrganizationPermissions';
import { DefaultUserSettings } from './organization/DefaultUserSettings';
import { Users } from './organization/Users';

export interface SettingsSection {
  /** Stable id, used in the route: `{ kind: 'settings', section: id }`. */
  id: string;
  label: string;
  group: 'personal' | 'organization';
  visible?: (account: AccountState) => boolean;
  Component: ComponentType<{ accountId: string }>;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'preferences', label: 'Preferences', group: 'personal', Component: Preferences },
  // Everyone may see these, as in the public web app; each screen offers changes only to those
  // the realm allows (administrators, owners for some settings).
  {
    id: 'organization-profile',
    label: 'Organization profile',
    group: 'organization',
    Component: OrganizationProfile,
  },
  {
    id: 'organization-settings',
    label: 'Organization settings',
    group: 'organization',
    Component: OrganizationSettings,
  },
  {
    id: 'organization-permissions',
    label: 'Organization permissions',
    group: 'organization',
    Component: OrganizationPermissions,
  },
  {
    id: 'default-user-settings',
    label: 'Default user settings',
    group: 'organization',
    Component: DefaultUserSettings,
  },
  // Guests do not see the user list in the public app's organization settings.
  {
    id: 'users',
    label: 'Users',
    group: 'organization',
    visible: (account) => (account.users.users.get(account.selfUserId)?.role ?? 400) !== 600,
    Component: Users,
  },
];
