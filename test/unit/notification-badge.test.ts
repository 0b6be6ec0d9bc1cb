// The unread count of the dock/taskbar badge, tray and window title (shared/notifications/badge.ts):
// desktop_icon_count_display per account, by the numbering of the account's feature level.
import { describe, expect, it } from 'vitest';
import {
  accountBadgeCount,
  badgeCount,
  iconCountChoices,
  iconCountScope,
  windowTitle,
  type AccountUnreads,
} from '../../shared/notifications/badge';

const account = (setting: number | undefined, featureLevel = 400): AccountUnreads => ({
  desktopIconCountDisplay: setting,
  featureLevel,
  allCount: 40,
  directIds: [1, 2, 3],
  // 3 is a DM that mentions the user: counted once.
  mentionIds: [3, 10],
  followedTopicIds: [10, 20, 21],
});

describe('desktop_icon_count_display', () => {
  it('FL 227 and later: 1 all, 2 DMs + mentions + followed topics, 3 DMs + mentions, 4 none', () => {
    expect(accountBadgeCount(account(1))).toBe(40);
    expect(accountBadgeCount(account(2))).toBe(6);
    expect(accountBadgeCount(account(3))).toBe(4);
    expect(accountBadgeCount(account(4))).toBe(0);
    expect(accountBadgeCount(account(undefined))).toBe(40);
  });

  it('before FL 227: 1 all, 2 DMs + mentions, 3 none', () => {
    expect(iconCountScope(2, 226)).toBe('dm-mention');
    expect(accountBadgeCount(account(2, 226))).toBe(4);
    expect(accountBadgeCount(account(3, 226))).toBe(0);
    expect(iconCountChoices(226).map((c) => c.label)).toEqual([
      'All unread messages',
      'DMs and mentions',
      'None',
    ]);
    expect(iconCountChoices(227).map((c) => c.value)).toEqual([1, 2, 3, 4]);
  });

  it('adds every account, each by its own setting', () => {
    expect(badgeCount([account(1), account(3), account(4)])).toBe(44);
    expect(badgeCount([])).toBe(0);
  });

  it('titles the window "(N) Tributary", plain with nothing to count', () => {
    expect(windowTitle(7)).toBe('(7) Tributary');
    expect(windowTitle(0)).toBe('Tributary');
  });
});
