// Search-box text <-> narrow for one account. The server wants ids or emails where people type names
// (api-notes: `sender` is an email or a user id, `channel` a name or id), so typed text is resolved
// against the account's channels and people before it becomes a narrow; shown back, ids become the
// names the user would type: `channel:general`, `dm:"Emma Miller"`, `sender:me`, never `dm:5`.
import type { AccountNames } from '../../store';
import type { User } from '../../../shared/api/types';
import {
  canonicalNarrow,
  narrowToSearchText,
  parseSearchQuery,
  type Narrow,
  type NarrowTerm,
} from '../../../shared/narrow';

/** Operators whose operand names one person, where `me` stands for the user. */
export const PERSON_OPERATORS = new Set(['sender', 'dm-including']);

/** Lower-cased full name -> the ids of the people with that name, per users map. */
const idsByNameCache = new WeakMap<ReadonlyMap<number, User>, Map<string, number[]>>();

function idsByName(users: ReadonlyMap<number, User>): Map<string, number[]> {
  let index = idsByNameCache.get(users);
  if (!index) {
    index = new Map();
    for (const user of users.values()) {
      const key = user.full_name.toLowerCase();
      const ids = index.get(key);
      if (ids) ids.push(user.user_id);
      else index.set(key, [user.user_id]);
    }
    idsByNameCache.set(users, index);
  }
  return index;
}

/**
 * The id of the person a typed operand names: `me`, an email (the API's, or the real one where the
 * viewer may see it), a unique full name, or an id.
 */
export function personId(text: string, account: AccountNames | undefined): number | undefined {
  if (!account) return undefined;
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (lower === 'me') return account.selfUserId;
  if (/^\d+$/.test(trimmed)) {
    const id = Number(trimmed);
    return account.users.users.has(id) ? id : undefined;
  }
  const byEmail = account.users.idByEmail.get(lower);
  if (byEmail !== undefined) return byEmail;
  const named = idsByName(account.users.users).get(lower);
  if (named?.length === 1) return named[0];
  return lower.includes('@') ? idByDeliveryEmail(account.users.users, lower) : undefined;
}

/**
 * The person whose real address this is, where the viewer may see it (`delivery_email`). A realm
 * that hides addresses gives everyone a stand-in `email` (`user123@…`), and a server cannot resolve
 * the login address people know each other by: sent as text it answers "unknown user".
 */
function idByDeliveryEmail(users: ReadonlyMap<number, User>, lower: string): number | undefined {
  for (const user of users.values())
    if (user.delivery_email?.toLowerCase() === lower) return user.user_id;
  return undefined;
}

/** A person as the search box shows them: `me`, their name, or their email when the name is shared. */
export function personText(id: number, account: AccountNames | undefined): string {
  if (id === account?.selfUserId) return 'me';
  const user = account?.users.users.get(id);
  if (!user) return String(id);
  const sameName = idsByName(account!.users.users).get(user.full_name.toLowerCase());
  return sameName && sameName.length > 1 ? user.email : user.full_name;
}

function resolveTerm(t: NarrowTerm, account: AccountNames | undefined): NarrowTerm {
  if (typeof t.operand !== 'string') return t;
  if (t.operator === 'channel') {
    const id = account?.channels.idByName.get(t.operand.toLowerCase());
    return id === undefined ? t : { ...t, operand: id };
  }
  if (PERSON_OPERATORS.has(t.operator)) {
    const id = personId(t.operand, account);
    return id === undefined ? t : { ...t, operand: id };
  }
  if (t.operator === 'dm') {
    const ids = t.operand.split(',').map((part) => personId(part, account));
    // One unknown name: the server is sent the text and says which.
    if (ids.some((id) => id === undefined)) return t;
    const others = (ids as number[]).filter((id) => id !== account?.selfUserId);
    return { ...t, operand: others.length > 0 ? others : [account!.selfUserId] };
  }
  return t;
}

/**
 * The narrow for search-box text: channel names become channel ids (so a search for
 * `channel:general topic:x` opens the same list as the sidebar's topic), and people (`me`, names,
 * emails) in `sender:`, `dm:` and `dm-including:` become user ids.
 */
export function searchNarrow(
  text: string,
  account: AccountNames | undefined,
  options?: Parameters<typeof parseSearchQuery>[1],
): Narrow {
  return canonicalNarrow(parseSearchQuery(text, options).map((t) => resolveTerm(t, account)));
}

/** A narrow as search-box text: channels and people by name, `me` for the user. */
export function searchText(narrow: Narrow, account: AccountNames | undefined): string {
  return narrowToSearchText(
    narrow.map((t) => {
      if (t.operator === 'channel' && typeof t.operand === 'number')
        return { ...t, operand: account?.channels.channels.get(t.operand)?.name ?? t.operand };
      if (PERSON_OPERATORS.has(t.operator) && typeof t.operand === 'number')
        return { ...t, operand: personText(t.operand, account) };
      if (t.operator === 'dm' && typeof t.operand !== 'string') {
        const ids = Array.isArray(t.operand) ? t.operand : [t.operand];
        return { ...t, operand: ids.map((id) => personText(id, account)).join(',') };
      }
      return t;
    }),
  );
}
