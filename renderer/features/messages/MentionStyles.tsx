// Mentions of the reader stand out in message content as they do in the public app: of the reader
// by id, and of every group the reader belongs to (directly or through a subgroup). Which ids those
// are is known only here, so the rules are written once per account and membership change as one
// style element, rather than each row looking through its content. Silent mentions never stand out.
import { useMemo } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { UserGroup } from '../../../shared/api/types';

/** Ids of the groups `userId` is a member of, directly or through nested subgroups. */
export function groupsOf(groups: ReadonlyMap<number, UserGroup>, userId: number): number[] {
  const memo = new Map<number, boolean>();
  const contains = (id: number, seen: Set<number>): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const g = groups.get(id);
    if (!g || seen.has(id)) return false;
    seen.add(id);
    const result =
      g.members.includes(userId) || g.direct_subgroup_ids.some((sub) => contains(sub, seen));
    memo.set(id, result);
    return result;
  };
  return [...groups.keys()].filter((id) => contains(id, new Set()));
}

export function mentionRules(selfUserId: number, groupIds: readonly number[]): string {
  const selectors = [
    `.content .user-mention[data-user-id="${selfUserId}"]:not(.silent)`,
    ...groupIds.map(
      (id) => `.content .user-group-mention[data-user-group-id="${id}"]:not(.silent)`,
    ),
  ];
  return `${selectors.join(',\n')} { background: var(--mention-me-bg); box-shadow: 0 0 0 1px var(--mention-me-border); }`;
}

export function MentionStyles() {
  const self = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const groups = useChatStore((s) => selectActiveAccount(s)?.userGroups.groups);
  const css = useMemo(
    () => (self && groups ? mentionRules(self, groupsOf(groups, self)) : ''),
    [self, groups],
  );
  return css ? <style data-testid="mention-styles">{css}</style> : null;
}
