// @-mention, #-channel and :emoji: completion: find the token being typed before the cursor, list
// matches, and splice the chosen one into the text in the server's syntax.
import type { Channel, User } from '../../../shared/api/types';

export interface CompletionToken {
  kind: 'user' | 'channel' | 'emoji';
  query: string;
  /** Index of the @ or # in the text. */
  start: number;
  end: number;
}

/** `:` and two characters of a name at the start of a word, as the public app completes emoji. */
const EMOJI_TOKEN = /(^|\s):([a-zA-Z0-9_+-]{2,})$/;

export function tokenAtCursor(text: string, cursor: number): CompletionToken | null {
  const before = text.slice(0, cursor);
  const match = /(^|\s)([@#])(\*\*)?([^\s@#*]*)$/.exec(before);
  if (!match) {
    const emoji = EMOJI_TOKEN.exec(before);
    if (!emoji) return null;
    const start = emoji.index + emoji[1].length;
    return { kind: 'emoji', query: emoji[2].toLowerCase(), start, end: cursor };
  }
  const start = match.index + match[1].length;
  return {
    kind: match[2] === '@' ? 'user' : 'channel',
    query: match[4].toLowerCase(),
    start,
    end: cursor,
  };
}

export function matchUsers(users: Iterable<User>, query: string, limit = 8): User[] {
  const out: User[] = [];
  for (const u of users) {
    if (!u.is_active) continue;
    const name = u.full_name.toLowerCase();
    if (
      !query ||
      name.startsWith(query) ||
      name.split(/\s+/).some((w) => w.startsWith(query)) ||
      u.email.toLowerCase().startsWith(query)
    )
      out.push(u);
    if (out.length >= limit) break;
  }
  return out;
}

export function matchChannels(channels: Iterable<Channel>, query: string, limit = 8): Channel[] {
  const out: Channel[] = [];
  for (const c of channels) {
    if (!query || c.name.toLowerCase().includes(query)) out.push(c);
    if (out.length >= limit) break;
  }
  return out;
}

/** Text with the token replaced, and the cursor after the insertion. */
export function applyCompletion(
  text: string,
  token: CompletionToken,
  replacement: string,
): { text: string; cursor: number } {
  const inserted = `${replacement} `;
  return {
    text: text.slice(0, token.start) + inserted + text.slice(token.end),
    cursor: token.start + inserted.length,
  };
}

export const mentionSyntax = (u: User) => `@**${u.full_name}|${u.user_id}**`;
export const channelSyntax = (c: Channel) => `#**${c.name}**`;
