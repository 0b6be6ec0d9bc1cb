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
import { standing } from './organization/extras-kit';
import { Channels } from './organization/Channels';
import { UserGroups } from './organization/UserGroups';
import { BotList, YourBots } from './organization/Bots';

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
  { id: 'desktop', label: 'Desktop', group: 'personal', Component: Desktop },
  { id: 'notifications', label: 'Notifications', group: 'personal', Component: Notifications },
  { id: 'emoji', label: 'Custom emoji', group: 'organization', Component: CustomEmoji },
  { id: 'linkifiers', label: 'Linkifiers', group: 'organization', Component: Linkifiers },
  { id: 'playgrounds', label: 'Code playgrounds', group: 'organization', Component: Playgrounds },
  {
    id: 'profile-fields',
    label: 'Custom profile fields',
    group: 'organization',
    visible: (account) => standing(account).isAdmin,
    Component: ProfileFields,
  },
  {
    id: 'allowed-domains',
    label: 'Allowed domains',
    group: 'organization',
    visible: (account) => standing(account).isAdmin,
    Component: AllowedDomains,
  },
  // Guests can neither own bots nor see the realm's groups and bots, as in the public web app.
  {
    id: 'your-bots',
    label: 'Your bots',
    group: 'personal',
    visible: notGuest,
    Component: YourBots,
  },
  { id: 'channels', label: 'Channels', group: 'organization', Component: Channels },
  {
    id: 'user-groups',
    label: 'User groups',
    group: 'organization',
    visible: notGuest,
    Component: UserGroups,
  },
  { id: 'bots', label: 'Bots', group: 'organization', visible: notGuest, Component: BotList },
];

function notGuest(account: AccountState): boolean {
  return account.users.users.get(account.selfUserId)?.is_guest !== true;
}
