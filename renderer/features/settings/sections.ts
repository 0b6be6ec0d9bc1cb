// Every screen of Settings, in the order the navigation lists them. A screen is one entry here: its
// component lives in personal/ or organization/. `visible` hides a screen from people who may not see
// it at all (the public web app hides, say, allowed domains from members); screens everyone may see
// but only some may change decide that themselves and show read-only controls to the rest.
import type { ComponentType } from 'react';
import type { AccountState } from '../../store';
import { Preferences } from './personal/Preferences';
import { Profile } from './personal/Profile';
import { AccountPrivacy } from './personal/AccountPrivacy';
import { AlertWords } from './personal/AlertWords';
import { MutedUsers } from './personal/MutedUsers';

export interface SettingsSection {
  /** Stable id, used in the route: `{ kind: 'settings', section: id }`. */
  id: string;
  label: string;
  group: 'personal' | 'organization';
  visible?: (account: AccountState) => boolean;
  Component: ComponentType<{ accountId: string }>;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'profile', label: 'Profile', group: 'personal', Component: Profile },
  { id: 'account', label: 'Account & privacy', group: 'personal', Component: AccountPrivacy },
  { id: 'preferences', label: 'Preferences', group: 'personal', Component: Preferences },
  { id: 'alert-words', label: 'Alert words', group: 'personal', Component: AlertWords },
  { id: 'muted-users', label: 'Muted users', group: 'personal', Component: MutedUsers },
];
