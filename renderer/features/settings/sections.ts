// Every screen of Settings, in the order the navigation lists them. A screen is one entry here: its
// component lives in personal/ or organization/. `visible` hides a screen from people who may not see
// it at all (the public web app hides, say, allowed domains from members); screens everyone may see
// but only some may change decide that themselves and show read-only controls to the rest.
import type { ComponentType } from 'react';
import type { AccountState } from '../../store';
import { Preferences } from './personal/Preferences';
import { Desktop } from './personal/Desktop';
import { Notifications } from './personal/Notifications';
import { CustomEmoji } from './organization/CustomEmoji';
import { Linkifiers } from './organization/Linkifiers';
import { Playgrounds } from './organization/Playgrounds';
import { AllowedDomains } from './organization/AllowedDomains';
import { ProfileFields } from './organization/ProfileFields';
import { isNotGuest, isRealmAdmin } from '../channels/channel-permissions';
import { Channels } from './organization/Channels';
import { UserGroups } from './organization/UserGroups';
import { BotList, YourBots } from './organization/Bots';
import { OrganizationProfile } from './organization/OrganizationProfile';
import { OrganizationSettings } from './organization/OrganizationSettings';
import { OrganizationPermissions } from './organization/OrganizationPermissions';
import { DefaultUserSettings } from './organization/DefaultUserSettings';
import { Users } from './organization/Users';
import { Profile } from './personal/Profile';
import { AccountPrivacy } from './personal/AccountPrivacy';
import { AlertWords } from './personal/AlertWords';
import { MutedUsers } from './personal/MutedUsers';
import { AccountsSettings } from '../accounts/AccountsSettings';
import { Offline } from './personal/Offline';

export interface SettingsSection {
  /** Stable id, used in the route: `{ kind: 'settings', section: id }`. */
  id: string;
  label: string;
  group: 'personal' | 'organization';
  visible?: (account: AccountState) => boolean;
  Component: ComponentType<{ accountId: string }>;
}

// The public web app's order: personal screens, then the organization's, profile and settings
// first, then people, then realm configuration.

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'profile', label: 'Profile', group: 'personal', Component: Profile },
  { id: 'account', label: 'Account & privacy', group: 'personal', Component: AccountPrivacy },
  { id: 'preferences', label: 'Preferences', group: 'personal', Component: Preferences },
  { id: 'notifications', label: 'Notifications', group: 'personal', Component: Notifications },
  // Guests can neither own bots nor see the realm's groups and bots, as in the public web app.
  {
    id: 'your-bots',
    label: 'Your bots',
    group: 'personal',
    visible: isNotGuest,
    Component: YourBots,
  },
  { id: 'alert-words', label: 'Alert words', group: 'personal', Component: AlertWords },
  { id: 'muted-users', label: 'Muted users', group: 'personal', Component: MutedUsers },
  { id: 'desktop', label: 'Desktop', group: 'personal', Component: Desktop },
  // What this computer keeps for use without the server (issue #23).
  { id: 'offline', label: 'Offline', group: 'personal', Component: Offline },
  // This computer's accounts (the public desktop app's organizations list): sign out and remove.
  { id: 'accounts', label: 'Accounts', group: 'personal', Component: AccountsSettings },
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
    visible: isNotGuest,
    Component: Users,
  },
  { id: 'bots', label: 'Bots', group: 'organization', visible: isNotGuest, Component: BotList },
  { id: 'channels', label: 'Channels', group: 'organization', Component: Channels },
  {
    id: 'user-groups',
    label: 'User groups',
    group: 'organization',
    visible: isNotGuest,
    Component: UserGroups,
  },
  { id: 'emoji', label: 'Custom emoji', group: 'organization', Component: CustomEmoji },
  { id: 'linkifiers', label: 'Linkifiers', group: 'organization', Component: Linkifiers },
  { id: 'playgrounds', label: 'Code playgrounds', group: 'organization', Component: Playgrounds },
  {
    id: 'profile-fields',
    label: 'Custom profile fields',
    group: 'organization',
    visible: isRealmAdmin,
    Component: ProfileFields,
  },
  {
    id: 'allowed-domains',
    label: 'Allowed domains',
    group: 'organization',
    visible: isRealmAdmin,
    Component: AllowedDomains,
  },
];
