// The unread count shown on the dock or taskbar icon, the tray and the window title, following each
// account's desktop_icon_count_display. The setting's values were renumbered at feature level 227
// (Zulip 8.0), which added "DMs, mentions, and followed topics":
//   FL >= 227: 1 all unread messages, 2 DMs + mentions + followed topics, 3 DMs + mentions, 4 none
//   FL <  227: 1 all unread messages, 2 DMs + mentions, 3 none

export const APP_NAME = 'Tributary';

export const ICON_COUNT_RENUMBERED_AT = 227;

export type IconCountScope = 'all' | 'dm-mention-followed' | 'dm-mention' | 'none';

export function iconCountScope(setting: number | undefined, featureLevel: number): IconCountScope {
  const value = setting ?? 1;
  if (value === 1) return 'all';
  if (featureLevel >= ICON_COUNT_RENUMBERED_AT) {
    if (value === 2) return 'dm-mention-followed';
    if (value === 3) return 'dm-mention';
    return 'none';
  }
  return value === 2 ? 'dm-mention' : 'none';
}

/** The setting's choices as the server at `featureLevel` numbers them, in the public app's order. */
export function iconCountChoices(featureLevel: number): Array<{ value: number; label: string }> {
  return featureLevel >= ICON_COUNT_RENUMBERED_AT
    ? [
        { value: 1, label: 'All unread messages' },
        { value: 2, label: 'DMs, mentions, and followed topics' },
        { value: 3, label: 'DMs and mentions' },
        { value: 4, label: 'None' },
      ]
    : [
        { value: 1, label: 'All unread messages' },
        { value: 2, label: 'DMs and mentions' },
        { value: 3, label: 'None' },
      ];
}

/** One account's unread messages, as sets of ids so that a message counted twice is counted once. */
export interface AccountUnreads {
  desktopIconCountDisplay: number | undefined;
  featureLevel: number;
  /** Every unread message outside muted channels and topics (the sidebar's total). */
  allCount: number;
  directIds: Iterable<number>;
  mentionIds: Iterable<number>;
  followedTopicIds: Iterable<number>;
}

export function accountBadgeCount(account: AccountUnreads): number {
  const scope = iconCountScope(account.desktopIconCountDisplay, account.featureLevel);
  if (scope === 'none') return 0;
  if (scope === 'all') return account.allCount;
  const ids = new Set<number>(account.directIds);
  for (const id of account.mentionIds) ids.add(id);
  if (scope === 'dm-mention-followed') for (const id of account.followedTopicIds) ids.add(id);
  return ids.size;
}

/** The count across every signed-in account, each by its own setting. */
export function badgeCount(accounts: Iterable<AccountUnreads>): number {
  let total = 0;
  for (const account of accounts) total += accountBadgeCount(account);
  return total;
}

/** "(3) Tributary", or "Tributary" with nothing to count, as the public app titles its tab. */
export function windowTitle(count: number): string {
  return count > 0 ? `(${count}) ${APP_NAME}` : APP_NAME;
}
