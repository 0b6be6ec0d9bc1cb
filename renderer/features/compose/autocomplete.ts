// Compose's typeahead, by the public web app's rules (web/src/composebox_typeahead.ts): which token
// before the cursor starts a completion (`@`, `@_`, `#`, `#**channel>`, `:`), which candidates match
// it, in what order, and the syntax the chosen one leaves in the text.
import type { Channel, User, UserGroup } from '../../../shared/api/types';

export type CompletionKind = 'mention' | 'channel' | 'topic' | 'emoji';

export interface CompletionToken {
  kind: CompletionKind;
  /** What was typed after the trigger (`Emma Me` of `@**Emma Me`), as typed. */
  query: string;
  /** Index of the trigger (`@`, `#`, `:`) in the text. */
  start: number;
  end: number;
  /** `@_`: a silent mention. */
  silent?: boolean;
  /** For `#**channel>topic`: the channel's name. */
  channelName?: string;
}

/** A channel name, `#**>**` and some of a topic: how far back a token may start. */
const MAX_LOOKBACK = 60 + 6 + 20;
/** What may precede a trigger (besides the start of the text). */
const BEFORE_TRIGGER = /[\s"'(/<[{]/;
/** What may follow the cursor for a completion to start: the end of a word. */
const TERMINAL = ',.;?!()[]> \u00A0"\'\n\t';
/** `#**channel>topic` being typed (the public app's stream_topic_regex). */
const CHANNEL_TOPIC = /#\*\*([^*>]+)>([^*\n]*)$/;

/** The nearest `@ # : _` that starts a word before the cursor, and what follows it. */
function tokenStart(before: string): number {
  const min = Math.max(0, before.length - MAX_LOOKBACK);
  for (let i = before.length - 1; i >= min; i--) {
    if (!'#@:_'.includes(before[i])) continue;
    if (i === 0 || BEFORE_TRIGGER.test(before[i - 1])) return i;
  }
  return -1;
}

export function tokenAtCursor(text: string, cursor: number): CompletionToken | null {
  const before = text.slice(0, cursor);
  const rest = text.slice(cursor);
  // In the middle of a word (an already completed mention, say): nothing to complete.
  if (rest !== '' && !TERMINAL.includes(rest[0])) return null;

  const topic = CHANNEL_TOPIC.exec(before);
  if (topic) {
    if (topic[2].startsWith(' ')) return null;
    return {
      kind: 'topic',
      query: topic[2],
      start: topic.index,
      end: cursor,
      channelName: topic[1],
    };
  }

  const start = tokenStart(before);
  if (start < 0) return null;
  const token = before.slice(start);
  const at = (kind: CompletionKind, query: string, silent?: boolean): CompletionToken => ({
    kind,
    query,
    start,
    end: cursor,
    ...(silent ? { silent } : {}),
  });

  if (token.startsWith(':')) {
    // Emoticons (`:P`, `:-)`) and a lone colon are not emoji names.
    if (/^:-.?$/.test(token) || /^:[^+a-z]?$/.test(token) || token[1] === ' ') return null;
    return at('emoji', token.slice(1));
  }
  if (token.startsWith('@')) {
    let name = token.slice(1);
    const silent = name.startsWith('_');
    if (silent) name = name.slice(1);
    if (name.startsWith('**')) name = name.slice(2);
    else if (name.startsWith('*')) name = name.slice(1);
    if (name.includes('*') || name.startsWith(' ')) return null;
    return at('mention', name, silent);
  }
  if (token.startsWith('#')) {
    if (token.length === 1) return null;
    let name = token.slice(1);
    if (name.startsWith('**')) name = name.slice(2);
    if (name.startsWith(' ') || name.includes('*')) return null;
    return at('channel', name);
  }
  return null;
}

/** `#**channel** >`, typed after a completed channel link: reopen it for a topic. */
export function topicJump(text: string, cursor: number): { text: string; cursor: number } | null {
  const before = text.slice(0, cursor);
  const match = /#\*\*([^*>]+)\*\*\s?>$/.exec(before);
  if (!match) return null;
  const head = `${before.slice(0, match.index)}#**${match[1]}>`;
  return { text: head + text.slice(cursor), cursor: head.length };
}

// --- Matching and ranking ----------------------------------------------------------------------

function fold(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\u00A0/g, ' ');
}

/**
 * The public app's match: a one-word query anywhere in the name; a query with a space must start
 * the name or one of its words.
 */
export function queryMatches(query: string, source: string): boolean {
  const q = fold(query);
  const s = fold(source);
  if (!q.includes(' ')) return s.includes(q);
  return s.startsWith(q) || s.includes(` ${q}`);
}

export interface Triage<T> {
  /** Exact and prefix matches (case-sensitive prefix first). */
  good: T[];
  /** The query starts a later word (after a space, `_`, `/` or `-`). */
  wordStart: T[];
  rest: T[];
}

const WORD_BOUNDARY = ' _/-';
const WORD_BOUNDARIES = [...WORD_BOUNDARY];

/** Splits candidates into the public app's match qualities, keeping their order within each. */
export function triage<T>(
  query: string,
  items: readonly T[],
  names: (x: T) => string[],
): Triage<T> {
  const exact: T[] = [];
  const prefixCased: T[] = [];
  const prefix: T[] = [];
  const wordStart: T[] = [];
  const rest: T[] = [];
  const q = fold(query);
  for (const item of items) {
    const raw = names(item);
    const folded = raw.map(fold);
    if (folded.includes(q)) exact.push(item);
    else if (raw.some((n) => n.startsWith(query))) prefixCased.push(item);
    else if (folded.some((n) => n.startsWith(q))) prefix.push(item);
    else if (folded.some((n) => [...WORD_BOUNDARY].some((c) => n.includes(c + q))))
      wordStart.push(item);
    else rest.push(item);
  }
  return { good: [...exact, ...prefixCased, ...prefix], wordStart, rest };
}

/** Sorted by match quality: good, then word-start, then the rest, each by `compare`. */
export function rank<T>(
  query: string,
  items: readonly T[],
  names: (x: T) => string[],
  compare: (a: T, b: T) => number,
): T[] {
  const t = triage(query, items, names);
  return [...t.good.sort(compare), ...t.wordStart.sort(compare), ...t.rest.sort(compare)];
}

// --- Mentions ----------------------------------------------------------------------------------

export type MentionCandidate =
  | { type: 'user'; user: User }
  | { type: 'group'; group: UserGroup }
  | { type: 'wildcard'; name: string; description: string };

export interface MentionContext {
  /** Where the message goes: wildcards differ for channels and direct messages. */
  messageType: 'stream' | 'private';
  /** Channel-wide wildcards (`all`, `everyone`, `channel`, `stream`) are allowed here. */
  channelWildcardAllowed: boolean;
  topicWildcardAllowed: boolean;
  /** Lower is more relevant: the people of the current conversation first. Others are Infinity. */
  relevance: (userId: number) => number;
}

/** The wildcard mentions compose offers, as the public app does for the message's type. */
export function wildcardMentions(ctx: MentionContext): MentionCandidate[] {
  const names =
    ctx.messageType === 'private'
      ? ['all', 'everyone']
      : ctx.channelWildcardAllowed
        ? ['all', 'everyone', 'stream', 'channel', 'topic']
        : ctx.topicWildcardAllowed
          ? ['topic']
          : [];
  return names.map((name) => ({
    type: 'wildcard',
    name,
    description:
      ctx.messageType === 'private'
        ? 'Notify recipients'
        : name === 'topic'
          ? 'Notify participants in this conversation'
          : 'Notify all channel subscribers',
  }));
}

export function candidateName(c: MentionCandidate): string {
  return c.type === 'user' ? c.user.full_name : c.type === 'group' ? c.group.name : c.name;
}

/**
 * Mention suggestions in the public app's order: people whose name starts with the query (then
 * whose later word does), groups, bots, matches by email, then other matches; within each, the
 * people of the current conversation first, then by name. Wildcards lead in a channel and trail in
 * a direct message, and only the first channel-wide one is offered.
 */
export function matchMentions(
  query: string,
  users: readonly User[],
  groups: readonly UserGroup[],
  ctx: MentionContext,
  limit = 8,
): MentionCandidate[] {
  const wildcards = wildcardMentions(ctx).filter((w) => queryMatches(query, candidateName(w)));
  const people = users.filter(
    (u) => u.is_active && (queryMatches(query, u.full_name) || queryMatches(query, u.email)),
  );
  const compare = (a: User, b: User) =>
    ctx.relevance(a.user_id) - ctx.relevance(b.user_id) || a.full_name.localeCompare(b.full_name);
  const quality = (list: User[]) => {
    const byName = triage(query, list, (u) => [u.full_name]);
    const byEmail = triage(query, byName.rest, (u) => [u.email]);
    return {
      best: [...byName.good.sort(compare), ...byName.wordStart.sort(compare)],
      email: [...byEmail.good.sort(compare), ...byEmail.wordStart.sort(compare)],
      worst: byEmail.rest.sort(compare),
    };
  };
  const humans = quality(people.filter((u) => !u.is_bot));
  const bots = quality(people.filter((u) => u.is_bot));
  const groupTriage = triage(
    query,
    groups.filter((g) => queryMatches(query, g.name)),
    (g) => [g.name],
  );
  const asUsers = (list: User[]): MentionCandidate[] =>
    list.map((user) => ({ type: 'user', user }));
  const asGroups = (list: UserGroup[]): MentionCandidate[] =>
    list.map((group) => ({ type: 'group', group }));
  const ordered: MentionCandidate[] = [
    ...asUsers(humans.best),
    ...asGroups([...groupTriage.good, ...groupTriage.wordStart]),
    ...asUsers(bots.best),
    ...asUsers(humans.email),
    ...asUsers(bots.email),
    ...asUsers(humans.worst),
    ...asGroups(groupTriage.rest),
    ...asUsers(bots.worst),
  ];
  let channelWide = false;
  const firstWildcards = wildcards.filter((w) => {
    if (w.type !== 'wildcard' || w.name === 'topic') return true;
    if (channelWide) return false;
    channelWide = true;
    return true;
  });
  const all =
    ctx.messageType === 'private'
      ? [...ordered, ...firstWildcards]
      : [...firstWildcards, ...ordered];
  return all.slice(0, limit);
}

interface FoldedUser {
  user: User;
  name: string;
  email: string;
}

interface UserIndex {
  /** Active people sorted by name, name and email folded. */
  all: FoldedUser[];
  /**
   * The queries typed so far, each containing the one before it (the first is ''), with everyone
   * whose name or email contains it (in name order). A backspace goes back a step for free
   * instead of reading all 10,000 people again.
   */
  steps: Array<{ query: string; containing: FoldedUser[] }>;
}

/**
 * Per list of users (the callers keep one array per users state), so a keystroke over 10,000
 * people folds only the query; and as a query grows by typing, only the people who contained the
 * shorter one are looked at again.
 */
const userIndexes = new WeakMap<object, UserIndex>();

function userIndex(users: Iterable<User>): UserIndex {
  let index = userIndexes.get(users);
  if (!index) {
    const all = [...users]
      .filter((u) => u.is_active)
      .sort((a, b) => a.full_name.localeCompare(b.full_name))
      .map((user) => ({ user, name: fold(user.full_name), email: fold(user.email) }));
    index = { all, steps: [{ query: '', containing: all }] };
    userIndexes.set(users, index);
  }
  return index;
}

/** Folds and sorts the list now (at idle, or when a field gains focus) rather than on a keystroke. */
export function prepareUserMatching(users: Iterable<User>): void {
  userIndex(users);
}

/** Everyone whose folded name or email contains `q`: every match of `q` is among them. */
function containing(index: UserIndex, q: string): FoldedUser[] {
  const { steps } = index;
  // Back to the longest step `q` still contains ('' always is).
  while (!q.includes(steps.at(-1)!.query)) steps.pop();
  const last = steps.at(-1)!;
  if (last.query === q) return last.containing;
  const found = last.containing.filter((u) => u.name.includes(q) || u.email.includes(q));
  steps.push({ query: q, containing: found });
  return found;
}

/**
 * Active people matching `query` (name or email) for the recipient field and the search bar, best
 * first: exact and prefix matches, then a later word's start, then the rest, each by name (the
 * order `rank` gives). The list is in name order, so a scan stops once `limit` prefix matches are in.
 */
export function matchUsers(users: Iterable<User>, query: string, limit = 8): User[] {
  const q = fold(query);
  const phrase = q.includes(' ');
  const afterBoundary = WORD_BOUNDARIES.map((c) => c + q);
  const good: User[] = [];
  const wordStart: User[] = [];
  const rest: User[] = [];
  // A raw prefix (`query` as typed) is also a folded one, so every match contains `q`.
  for (const { user, name, email } of containing(userIndex(users), q)) {
    // A prefix is a match of the best quality (and always a match).
    if (
      name.startsWith(q) ||
      email.startsWith(q) ||
      user.full_name.startsWith(query) ||
      user.email.startsWith(query)
    ) {
      good.push(user);
      if (good.length >= limit) break;
      continue;
    }
    // Only a better match can still make the list once `limit` word-start matches are in.
    if (wordStart.length >= limit) continue;
    if (phrase && !name.includes(` ${q}`)) continue;
    if (afterBoundary.some((b) => name.includes(b) || email.includes(b))) wordStart.push(user);
    else if (rest.length < limit) rest.push(user);
  }
  return [...good, ...wordStart, ...rest].slice(0, limit);
}

/**
 * The mention syntax the public app writes: `@**Name**`, with `|id` only when another person has
 * the same name; `@_**…**` when silent; `@*group*`; `@**all**` for wildcards.
 */
export function mentionSyntax(
  c: MentionCandidate,
  silent: boolean,
  users: readonly User[] = [],
): string {
  const at = silent ? '@_' : '@';
  if (c.type === 'group') return `${at}*${c.group.name}*`;
  if (c.type === 'wildcard') return `${at}**${c.name}**`;
  const name = c.user.full_name;
  const duplicate = users.some((u) => u.user_id !== c.user.user_id && u.full_name === name);
  return `${at}**${name}${duplicate ? `|${c.user.user_id}` : ''}**`;
}

// --- Channels and topics -------------------------------------------------------------------------

interface FoldedChannel {
  channel: Channel;
  name: string;
  description: string;
}

/** Unarchived channels sorted by name, name and description folded once, per list (as users). */
const foldedChannelLists = new WeakMap<object, FoldedChannel[]>();

function foldedChannels(channels: Iterable<Channel>): FoldedChannel[] {
  let list = foldedChannelLists.get(channels);
  if (!list) {
    list = [...channels]
      .filter((c) => !c.is_archived)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((channel) => ({
        channel,
        name: fold(channel.name),
        description: fold(channel.description),
      }));
    foldedChannelLists.set(channels, list);
  }
  return list;
}

/** `queryMatches` on folded text with a folded query. */
function foldedMatches(q: string, s: string): boolean {
  return q.includes(' ') ? s.startsWith(q) || s.includes(` ${q}`) : s.includes(q);
}

/**
 * Channels matching `query` by name (then by description), the composing channel first within
 * each match quality, then by name. Each list of channels is folded and sorted once.
 */
export function matchChannels(
  channels: Iterable<Channel>,
  query: string,
  currentStreamId: number | null = null,
  limit = 8,
): Channel[] {
  const q = fold(query);
  const buckets: Channel[][] = [[], [], [], []]; // good, word start, rest, by description
  for (const { channel, name, description } of foldedChannels(channels)) {
    let bucket: Channel[];
    if (foldedMatches(q, name)) {
      if (name.startsWith(q) || channel.name.startsWith(query)) bucket = buckets[0];
      else if (WORD_BOUNDARIES.some((c) => name.includes(c + q))) bucket = buckets[1];
      else bucket = buckets[2];
    } else if (query && foldedMatches(q, description)) bucket = buckets[3];
    else continue;
    // The composing channel leads its bucket; the rest stay in name order.
    if (channel.stream_id === currentStreamId) bucket.unshift(channel);
    else bucket.push(channel);
  }
  return buckets.flat().slice(0, limit);
}

export const channelSyntax = (name: string) => `#**${name}**`;
export const channelTopicSyntax = (name: string, topic: string) => `#**${name}>${topic}**`;

export interface TopicOption {
  /** null: the channel itself (offered while nothing follows `>`). */
  topic: string | null;
  /** A topic nobody has used yet: what was typed. */
  isNew: boolean;
}

/**
 * Topics for `#**channel>query`, or for the topic field: matching topics by quality, the channel
 * itself first while the query is empty, and what was typed as a new topic when no topic has that
 * name.
 */
export function matchTopics(
  topics: readonly string[],
  query: string,
  options: { channelLink: boolean },
  limit = 8,
): TopicOption[] {
  const list = [...topics];
  const isNew = query !== '' && !list.some((t) => t.toLowerCase() === query.toLowerCase());
  if (isNew) list.push(query);
  const matched = list.filter((t) => queryMatches(query, t));
  const t = triage(query, matched, (x) => [x]);
  const ordered: TopicOption[] = [...t.good, ...t.wordStart, ...t.rest].map((topic) => ({
    topic,
    isNew: isNew && topic === query,
  }));
  if (options.channelLink && query === '') ordered.unshift({ topic: null, isNew: false });
  return ordered.slice(0, limit);
}

/** Text with the token replaced, and the cursor after the insertion. */
export function applyCompletion(
  text: string,
  token: CompletionToken,
  replacement: string,
  { space = true }: { space?: boolean } = {},
): { text: string; cursor: number } {
  const inserted = space ? `${replacement} ` : replacement;
  return {
    text: text.slice(0, token.start) + inserted + text.slice(token.end),
    cursor: token.start + inserted.length,
  };
}
