// Search-box text <-> narrow for one account. The server wants ids or emails where people type names
// (api-notes: `sender` is an email or a user id, `channel` a name or id), so typed text is resolved
// against the account's channels and the user's own id before it becomes a narrow; shown back, ids
// become the names the user would type.
import type { AccountNames } from '../../store';
import {
  canonicalNarrow,
  narrowToSearchText,
  parseSearchQuery,
  type Narrow,
} from '../../../shared/narrow';

/** Operators whose operand names one person, where `me` stands for the user. */
const PERSON_OPERATORS = new Set(['sender', 'dm-including']);

/**
 * The narrow for search-box text: `channel:` names known to the account become channel ids (so a
 * search for `channel:general topic:x` opens the same list as the sidebar's topic), and `me` in
 * `sender:` / `dm-including:` becomes the user's own id.
 */
export function searchNarrow(text: string, account: AccountNames | undefined): Narrow {
  const narrow = parseSearchQuery(text).map((t) => {
    if (t.operator === 'channel' && typeof t.operand === 'string') {
      const id = account?.channels.idByName.get(t.operand.toLowerCase());
      return id === undefined ? t : { ...t, operand: id };
    }
    if (
      PERSON_OPERATORS.has(t.operator) &&
      typeof t.operand === 'string' &&
      t.operand.toLowerCase() === 'me' &&
      account
    )
      return { ...t, operand: account.selfUserId };
    return t;
  });
  return canonicalNarrow(narrow);
}

/** A narrow as search-box text: channel names, `me` for the user, emails for other people. */
export function searchText(narrow: Narrow, account: AccountNames | undefined): string {
  return narrowToSearchText(
    narrow.map((t) => {
      if (typeof t.operand !== 'number') return t;
      if (t.operator === 'channel')
        return { ...t, operand: account?.channels.channels.get(t.operand)?.name ?? t.operand };
      if (PERSON_OPERATORS.has(t.operator)) {
        const operand =
          t.operand === account?.selfUserId
            ? 'me'
            : (account?.users.users.get(t.operand)?.email ?? t.operand);
        return { ...t, operand };
      }
      return t;
    }),
  );
}
