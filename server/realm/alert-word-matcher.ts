// Which users' alert words occur in a message, matched as the public server matches them: the
// message source lowercased, each occurrence of a (lowercased) word counted only when the
// character before it is one of ALLOWED_BEFORE (or it starts the text) and the one after it is one
// of ALLOWED_AFTER (or it ends the text). There is no Unicode word-boundary notion: "alert," and
// "(alert)" match, "alerts", "re-alert" and "alert\"" do not.
//
// One matcher serves the whole realm and is rebuilt only when alert words or users change (the
// table cache's triggers), so a send in a realm without alert words costs one map lookup.
import type { Db } from '../db';
import { sharedTableCache } from '../db/table-cache';

// The public server's sets. Its "after" set lists '",' as one two-character entry, which can never
// equal a single character: a double quote after a word does not end it. Kept as it behaves.
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const ALLOWED_AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

export interface AlertWordMatcher {
  /** Lowercased word -> the active users who have it. */
  readonly usersByWord: ReadonlyMap<string, readonly number[]>;
  /** Every user with at least one alert word. */
  readonly userIds: ReadonlySet<number>;
}

function buildMatcher(db: Db): AlertWordMatcher {
  const rows = db
    .prepare<[], { user_id: number; word: string }>(
      `SELECT a.user_id, a.word FROM alert_words a JOIN users u ON u.id = a.user_id
       WHERE u.is_active = 1`,
    )
    .all();
  const usersByWord = new Map<string, number[]>();
  const userIds = new Set<number>();
  for (const { user_id, word } of rows) {
    const lower = word.toLowerCase();
    const users = usersByWord.get(lower);
    if (users) users.push(user_id);
    else usersByWord.set(lower, [user_id]);
    userIds.add(user_id);
  }
  return { usersByWord, userIds };
}

export function realmAlertWordMatcher(db: Db): AlertWordMatcher {
  return sharedTableCache<0, AlertWordMatcher>(
    db,
    'alert-word-matcher',
    ['alert_words', 'users'],
    buildMatcher,
  ).get(0);
}

// The public server tests the character before the word only when that index is above 0 (its
// check is `index <= 0 or ...`): a word preceded by exactly one character at the very start of the
// text matches whatever that character is. Reproduced so both servers flag the same messages.
function validStart(text: string, wordStart: number): boolean {
  const before = wordStart - 1;
  return before <= 0 || ALLOWED_BEFORE.has(text[before]!);
}

function validEnd(text: string, wordEnd: number): boolean {
  return wordEnd >= text.length || ALLOWED_AFTER.has(text[wordEnd]!);
}

function occursAsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (validStart(text, at) && validEnd(text, at + word.length)) return true;
  }
  return false;
}

/**
 * The users for whom `isCandidate` holds whose alert words occur in `text`. Only the users who have
 * alert words are asked, words of non-candidates are not searched for, and nothing is searched
 * when no candidate has alert words.
 */
export function usersAlertedBy(
  matcher: AlertWordMatcher,
  text: string,
  isCandidate: (userId: number) => boolean,
): Set<number> {
  const alerted = new Set<number>();
  const wanted = new Set<number>();
  for (const id of matcher.userIds) if (isCandidate(id)) wanted.add(id);
  if (wanted.size === 0) return alerted;
  const lower = text.toLowerCase();
  for (const [word, users] of matcher.usersByWord) {
    if (!users.some((id) => wanted.has(id) && !alerted.has(id))) continue;
    if (!occursAsWord(lower, word)) continue;
    for (const id of users) if (wanted.has(id)) alerted.add(id);
  }
  return alerted;
}
