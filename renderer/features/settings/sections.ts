// Every screen of Settings, in the order the navigation lists them. A screen is one entry here: its
// component lives in personal/ or organization/. `visible` hides a screen from people who may not see
// it at all (the public web app hides, say, allowed domains from members); screens everyone may see
// but only some may change decide that themselves and show read-only controls to the rest.
import type { ComponentType } from 'react';
import type { AccountState } from '../../store';
import { Preferences } from './personal/Preferences';
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
