// The search bar's typeahead, by the public web app's rules (web/src/search_suggestion.ts): the word
// at the end of the text is completed. A bare word offers operators (`channel:`, `topic:`, `sender:`,
// `dm:`, `dm-including:`, `is:`, `has:`, `near:`), the `is:`/`has:` filters it starts, "sent by me",
// channels, people and (with a channel chosen) topics; after an operator come its values: channels,
// the chosen channel's topics, people by name, `is:` and `has:` values. A leading `-` negates. Terms
// that cannot go with what is already there (a second channel, a topic beside a DM) are not offered.
// Each suggestion is the whole new text, people and channels by name. A bare word is offered first
// as itself ("search for" it), as the web app's first row.
import type { Channel, User } from '../../../shared/api/types';
import {
  canonicalOperator,
  quoteSearchOperand,
  searchTokens,
  type SearchToken,
} from '../../../shared/narrow';
import { matchChannels, matchTopics, matchUsers } from '../compose/autocomplete';

export interface SearchSuggestion {
  /** The search text once it is picked. */
  text: string;
  /** What the row says: the term as typed. */
  label: string;
  /** What the term means ("Direct messages with Emma Miller"). */
  description: string;
  /** An operator without its value (`channel:`): picking it goes on to the values. */
  partial: boolean;
}

export interface SearchSources {
  /** The channels to offer: the user's subscriptions. */
  channels: Iterable<Channel>;
  /** Everyone (kept as one array per users state: matchUsers indexes it once). */
  users: readonly User[];
  selfUserId: number;
  /** Channel id by lower-cased name. */
  channelId: (name: string) => number | undefined;
  /** A channel's topics, newest first (empty until fetched). */
  topics: (streamId: number) => readonly string[];
  /** Whether a typed operand already names someone (`me`, an email, a unique name). */
  isPerson: (operand: string) => boolean;
  /** The channel of the open view, for `topic:` with no channel typed. */
  currentStreamId?: number;
}

export const MAX_SUGGESTIONS = 12;
const PEOPLE_PER_OPERATOR = 4;

const OPERATORS: ReadonlyArray<[string, string]> = [
  ['channel', 'Search in a channel'],
  ['topic', 'Search in a topic'],
  ['sender', 'Sent by someone'],
  ['dm', 'Direct messages with someone'],
  ['dm-including', 'Direct messages including someone'],
  ['is', 'Starred, unread, mentions…'],
  ['has', 'Links, images, attachments, reactions'],
  ['near', 'Around a message id'],
];

/** The public web app's `is:` filters and their descriptions. */
const IS_FILTERS: ReadonlyArray<[string, string]> = [
  ['dm', 'Direct messages'],
  ['starred', 'Starred messages'],
  ['mentioned', '@-mentions'],
  ['followed', 'Followed topics'],
  ['alerted', 'Alerted messages'],
  ['unread', 'Unread messages'],
  ['muted', 'Muted messages'],
  ['resolved', 'Resolved topics'],
];

const HAS_FILTERS: ReadonlyArray<[string, string]> = [
  ['link', 'Messages with links'],
  ['image', 'Messages with images'],
  ['attachment', 'Messages with attachments'],
  ['reaction', 'Messages with reactions'],
];

const PERSON_OPERATORS = new Set(['sender', 'dm', 'dm-including']);

interface Typed {
  /** The text before the word being completed (kept as is). */
  head: string;
  /** The operator typed (canonical), or undefined for a bare word. */
  operator?: string;
  /** The operand, or the bare word, as typed (without a leading `-` on a bare word). */
  query: string;
  negated: boolean;
  /** The complete terms before the word: their operators and operands (canonical operators). */
  before: Array<{ operator: string; operand: string; negated: boolean }>;
}

function termOf(token: SearchToken) {
  return {
    operator: token.operator === undefined ? 'search' : canonicalOperator(token.operator),
    operand: token.operand ?? token.text,
    negated: !!token.negated,
  };
}

/** The word at the end of the text and what precedes it; a name typed with spaces stays whole. */
function typedAtEnd(text: string, isPerson: (operand: string) => boolean): Typed {
  const tokens = searchTokens(text);
  const endsOpen = text.length > 0 && !/\s$/.test(text);
  let last = endsOpen ? tokens.at(-1) : undefined;
  let rest = last ? tokens.slice(0, -1) : tokens;
  let head = last ? text.slice(0, last.start) : text;
  let query = last ? (last.operand ?? last.text) : '';
  // `sender:Emma Mi`: the words after a person operator that names nobody yet are the name going on.
  const previous = rest.at(-1);
  if (
    last &&
    last.operator === undefined &&
    previous?.operator !== undefined &&
    !previous.quoted &&
    PERSON_OPERATORS.has(canonicalOperator(previous.operator)) &&
    previous.operand &&
    !isPerson(previous.operand)
  ) {
    query = `${previous.operand} ${last.text}`;
    last = { ...previous, end: last.end };
    rest = rest.slice(0, -1);
    head = text.slice(0, previous.start);
  }
  let negated = !!last?.negated;
  if (last && last.operator === undefined && query.startsWith('-')) {
    negated = true;
    query = query.slice(1);
  }
  return {
    head,
    operator: last?.operator === undefined ? undefined : canonicalOperator(last.operator),
    query,
    negated,
    before: rest.map(termOf),
  };
}

function has(before: Typed['before'], operator: string, operand?: string): boolean {
  return before.some(
    (t) =>
      t.operator === operator && (operand === undefined || t.operand.toLowerCase() === operand),
  );
}

/** The public app's incompatible patterns: what each kind of term cannot be added to. */
function channelAllowed(b: Typed['before']) {
  return !(
    has(b, 'channel') ||
    has(b, 'channels') ||
    has(b, 'is', 'dm') ||
    has(b, 'dm') ||
    has(b, 'dm-including')
  );
}
function topicAllowed(b: Typed['before']) {
  return !(has(b, 'dm') || has(b, 'is', 'dm') || has(b, 'dm-including') || has(b, 'topic'));
}
function personAllowed(operator: string, b: Typed['before']) {
  if (operator === 'sender') return !has(b, 'sender');
  if (operator === 'dm') return !(has(b, 'dm') || has(b, 'channel') || has(b, 'is', 'resolved'));
  return !(has(b, 'channel') || has(b, 'is', 'resolved'));
}

const dash = (negated: boolean) => (negated ? '-' : '');
const term = (operator: string, operand: string, negated: boolean) =>
  `${dash(negated)}${operator}:${quoteSearchOperand(operand)}`;

/** Suggestions for the search text, best first, at most MAX_SUGGESTIONS. */
export function searchSuggestions(text: string, sources: SearchSources): SearchSuggestion[] {
  const typed = typedAtEnd(text, sources.isPerson);
  const { head, operator, query, negated, before } = typed;
  const out: SearchSuggestion[] = [];
  const seen = new Set<string>();
  const add = (termText: string, description: string, partial = false) => {
    const full = partial ? head + termText : `${head}${termText} `;
    if (seen.has(full) || out.length >= MAX_SUGGESTIONS) return;
    seen.add(full);
    out.push({ text: full, label: termText, description, partial });
  };
  const exclude = negated ? 'Exclude ' : '';
  const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
  const described = (s: string) => (negated ? exclude + lowerFirst(s) : s);

  const chosenChannel = (): number | undefined => {
    const named = before.find((t) => t.operator === 'channel' && !t.negated);
    if (named) return sources.channelId(named.operand.toLowerCase());
    return sources.currentStreamId;
  };
  const channelSuggestions = () => {
    if (!channelAllowed(before)) return;
    for (const c of matchChannels(sources.channels, query, null, MAX_SUGGESTIONS))
      add(term('channel', c.name, negated), described(`Channel #${c.name}`));
  };
  const topicSuggestions = (limit = 10) => {
    if (!topicAllowed(before)) return;
    const streamId = chosenChannel();
    if (streamId === undefined) return;
    const topics = sources.topics(streamId);
    const matched = matchTopics(topics, query, { channelLink: false }, limit).filter(
      (t) => !t.isNew && t.topic !== null,
    );
    for (const t of matched) add(term('topic', t.topic!, negated), described(`Topic ${t.topic}`));
  };
  // A bare word offers `dm:` and `sender:` people for the same words: 10,000 people read once.
  const matched = new Map<string, User[]>();
  const matchPeople = (part: string, limit: number) => {
    const key = `${limit} ${part}`;
    let people = matched.get(key);
    if (!people) matched.set(key, (people = matchUsers(sources.users, part, limit)));
    return people;
  };
  const peopleSuggestions = (op: string, limit: number) => {
    if (!personAllowed(op, before)) return;
    // `dm:Emma Miller,Le`: the people before the last comma stay, the last part is completed.
    const comma = op === 'dm' ? query.lastIndexOf(',') : -1;
    const chosen = comma >= 0 ? query.slice(0, comma + 1) : '';
    const part = query.slice(comma + 1);
    const people = matchPeople(part, limit + 1).filter((u) => !u.is_bot || op === 'sender');
    for (const u of people.slice(0, limit)) {
      const name = u.user_id === sources.selfUserId && op === 'sender' ? 'me' : u.full_name;
      const description =
        op === 'sender'
          ? `Sent by ${u.full_name}`
          : op === 'dm'
            ? `Direct messages with ${chosen ? `${chosen.replace(/,$/, '')}, ` : ''}${u.full_name}`
            : `Direct messages including ${u.full_name}`;
      add(term(op, chosen + name, negated), described(description));
    }
  };
  const filterSuggestions = (op: 'is' | 'has', onlyOperand: boolean) => {
    const list = op === 'is' ? IS_FILTERS : HAS_FILTERS;
    const q = query.toLowerCase();
    for (const [value, description] of list) {
      if (has(before, op, value)) continue;
      if (op === 'is' && value === 'dm' && (has(before, 'channel') || has(before, 'topic')))
        continue;
      const matches = onlyOperand
        ? value.startsWith(q) || (op === 'is' && value === 'dm' && 'private'.startsWith(q))
        : q !== '' &&
          (`${op}:${value}`.startsWith(q) ||
            value.startsWith(q) ||
            description.toLowerCase().startsWith(q));
      if (!matches) continue;
      if (op === 'is' && value === 'resolved' && negated) {
        add('-is:resolved', 'Unresolved topics');
        continue;
      }
      add(term(op, value, negated), described(description));
    }
  };

  if (operator === undefined) {
    // A bare word (or nothing yet): the words themselves first, as the web app's "search for …"
    // row (Enter searches them too), then operators it starts, filters, "sent by me", values.
    const q = query.toLowerCase();
    if (q !== '' && !negated) add(query, 'Search for this text');
    // After `channel:x `, its topics come first, as the web app offers `channel:x topic:…`.
    if (q === '' && before.some((t) => t.operator === 'channel')) topicSuggestions(6);
    for (const [op, description] of OPERATORS) {
      const allowed =
        op === 'channel'
          ? channelAllowed(before)
          : op === 'topic'
            ? topicAllowed(before)
            : PERSON_OPERATORS.has(op)
              ? personAllowed(op, before)
              : true;
      const named =
        op.startsWith(q) ||
        (q === 'stream' && op === 'channel') ||
        (q === 'from' && op === 'sender');
      if (allowed && named) add(`${dash(negated)}${op}:`, description, true);
    }
    filterSuggestions('is', false);
    if (q !== '' && !has(before, 'sender') && ('sender:me'.startsWith(q) || 'from'.startsWith(q)))
      add(`${dash(negated)}sender:me`, described('Sent by me'));
    if (q !== '') {
      channelSuggestions();
      peopleSuggestions('dm', 2);
      peopleSuggestions('sender', 2);
      if (before.some((t) => t.operator === 'channel')) topicSuggestions();
    }
    filterSuggestions('has', false);
    return out;
  }
  switch (operator) {
    case 'channel':
      channelSuggestions();
      break;
    case 'topic':
      topicSuggestions();
      break;
    case 'sender':
      if ('me'.startsWith(query.toLowerCase()) && personAllowed('sender', before))
        add(term('sender', 'me', negated), described('Sent by me'));
      peopleSuggestions('sender', PEOPLE_PER_OPERATOR * 2);
      break;
    case 'dm':
    case 'dm-including':
      peopleSuggestions(operator, PEOPLE_PER_OPERATOR * 2);
      break;
    case 'is':
      filterSuggestions('is', true);
      break;
    case 'has':
      filterSuggestions('has', true);
      break;
    default:
      break;
  }
  return out;
}

/** How many texts' suggestions one set of sources remembers (a word typed and erased again). */
const REMEMBERED_TEXTS = 64;

/**
 * searchSuggestions over fixed sources, remembering each text's answer: a backspace returns to a
 * text already answered, and is then free. Make a new one when any source changes.
 */
export function rememberedSuggestions(
  sources: SearchSources,
): (text: string) => SearchSuggestion[] {
  const answers = new Map<string, SearchSuggestion[]>();
  return (text) => {
    let answer = answers.get(text);
    if (!answer) {
      if (answers.size >= REMEMBERED_TEXTS) answers.clear();
      answers.set(text, (answer = searchSuggestions(text, sources)));
    }
    return answer;
  };
}
