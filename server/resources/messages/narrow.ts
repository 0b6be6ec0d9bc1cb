// Narrows (api-notes §3.4): parsing the wire forms and turning terms into SQL conditions over
// `messages m` left-joined with the viewer's `user_messages um`. Unknown operators or operands are
// BAD_NARROW (400, with desc). Access control is not done here: the fetch query always ANDs the
// viewer's visibility condition (narrow-query.ts), so a narrow can only select, never widen.
import * as z from 'zod';
import type { Db } from '../../db';
import { MessageFlag } from '../../db/flags';
import { ApiError, badRequest, checkListCap } from '../../http/errors';
import { LIMITS } from '../../config';
import type { AuthUser } from '../../realm/context';
import { canSeeChannelMetadata } from '../../realm/permissions';
import { getChannel, getChannelByName, type ChannelRow } from '../channels/channels-store';
import { getUserRow, getUserRowByEmail } from '../users/users-store';
import { findDirectRecipientId, getMessage, RESOLVED_TOPIC_PREFIX } from './messages-store';
import { emptyTopicDisplayName } from './messages-rules';

export type NarrowOperand = string | number | number[];

export interface NarrowTerm {
  operator: string;
  operand: NarrowOperand;
  negated: boolean;
}

const operandSchema = z.union([z.string(), z.number().int(), z.array(z.number().int())]);

/** Both wire forms: {operator, operand, negated?} objects and legacy [operator, operand] pairs. */
export const narrowSchema = z.array(
  z.union([
    z.tuple([z.string(), operandSchema]),
    z.object({ operator: z.string(), operand: operandSchema, negated: z.boolean().optional() }),
  ]),
);

export function normalizeNarrow(raw: z.infer<typeof narrowSchema>): NarrowTerm[] {
  // Each term becomes SQL conditions: an unbounded narrow would reach SQLite's expression-depth
  // limit (a 500) and cost time on the way, so the term count and id lists are capped first.
  checkListCap(raw, LIMITS.maxNarrowTerms, 'narrow terms');
  for (const term of raw) {
    const operand = Array.isArray(term) ? term[1] : term.operand;
    if (Array.isArray(operand))
      checkListCap(operand, LIMITS.maxNarrowOperandIds, 'ids in a narrow term');
  }
  return raw.map((term) =>
    Array.isArray(term)
      ? { operator: term[0], operand: term[1], negated: false }
      : { operator: term.operator, operand: term.operand, negated: term.negated ?? false },
  );
}

export function badNarrow(desc: string): ApiError {
  return new ApiError('BAD_NARROW', `Invalid narrow operator: ${desc}`, 400, { desc });
}

export interface SqlCondition {
  sql: string;
  params: unknown[];
}

export interface CompiledNarrow {
  conditions: SqlCondition[];
  /** Keywords of non-negated search terms (for match_content / match_subject). */
  searchTerms: string[];
}

const OPERATOR_ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
  'dm-with': 'dm-including',
  subject: 'topic',
};

function operandString(term: NarrowTerm): string {
  if (typeof term.operand === 'string') return term.operand;
  if (typeof term.operand === 'number') return String(term.operand);
  throw badNarrow(`invalid operand for ${term.operator}`);
}

/** A topic term's topic as stored (the empty topic's display name stands for ''). */
function topicOperand(db: Db, term: NarrowTerm): string {
  const topic = operandString(term).trim();
  return topic === emptyTopicDisplayName(db) ? '' : topic;
}

function resolveUser(db: Db, operand: string | number) {
  const text = String(operand).trim();
  const row = /^\d+$/.test(text) ? getUserRow(db, Number(text)) : getUserRowByEmail(db, text);
  return row;
}

function resolveChannel(db: Db, viewer: AuthUser, operand: NarrowOperand): ChannelRow {
  if (Array.isArray(operand)) throw badNarrow('invalid channel operand');
  const text = String(operand).trim();
  let channel = /^\d+$/.test(text) ? getChannel(db, Number(text)) : undefined;
  channel ??= getChannelByName(db, text);
  if (!channel || !canSeeChannelMetadata(db, viewer, channel)) {
    throw badNarrow(`unknown channel ${text}`);
  }
  return channel;
}

/** FTS5 query: every keyword as a quoted prefix token, so operators in user input are inert. */
export function ftsQuery(keywords: readonly string[]): string {
  return keywords.map((k) => `"${k.replace(/"/g, '""')}"*`).join(' ');
}

export function searchKeywords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((k) => k.replace(/[^\p{L}\p{N}_'-]/gu, ''))
    .filter((k) => k.length > 0);
}

const TRUE: SqlCondition = { sql: '1', params: [] };

function termCondition(
  db: Db,
  viewer: AuthUser,
  term: NarrowTerm,
  searchTerms: string[],
): SqlCondition {
  const operator = OPERATOR_ALIASES[term.operator] ?? term.operator;
  switch (operator) {
    case 'channel': {
      const channel = resolveChannel(db, viewer, term.operand);
      return { sql: "(m.type = 'stream' AND m.channel_id = ?)", params: [channel.id] };
    }
    case 'channels': {
      const value = operandString(term);
      if (value === 'public') {
        return {
          sql: "(m.type = 'stream' AND m.channel_id IN (SELECT id FROM channels WHERE invite_only = 0))",
          params: [],
        };
      }
      if (value === 'web-public') {
        return {
          sql: "(m.type = 'stream' AND m.channel_id IN (SELECT id FROM channels WHERE is_web_public = 1))",
          params: [],
        };
      }
      throw badNarrow(`unknown channels operand ${value}`);
    }
    case 'topic':
      return {
        sql: "(m.type = 'stream' AND m.topic = ? COLLATE NOCASE)",
        params: [topicOperand(db, term)],
      };
    case 'sender': {
      const user = resolveUser(db, Array.isArray(term.operand) ? '' : term.operand);
      if (!user) throw badNarrow(`unknown user ${String(term.operand)}`);
      return { sql: 'm.sender_id = ?', params: [user.id] };
    }
    case 'dm': {
      const items = Array.isArray(term.operand)
        ? term.operand
        : typeof term.operand === 'number'
          ? [term.operand]
          : term.operand
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
      if (items.length === 0) throw badNarrow('invalid dm operand');
      const ids = new Set<number>();
      for (const item of items) {
        const user = resolveUser(db, item);
        if (!user) throw badNarrow(`unknown user in ${String(term.operand)}`);
        ids.add(user.id);
      }
      ids.add(viewer.id);
      const recipientId = findDirectRecipientId(db, [...ids]);
      if (recipientId === undefined) return { sql: "(m.type = 'private' AND 0)", params: [] };
      return { sql: "(m.type = 'private' AND m.recipient_id = ?)", params: [recipientId] };
    }
    case 'dm-including': {
      const user = resolveUser(db, Array.isArray(term.operand) ? '' : term.operand);
      if (!user) throw badNarrow(`unknown user ${String(term.operand)}`);
      return {
        sql: `(m.type = 'private' AND m.recipient_id IN
                (SELECT recipient_id FROM recipient_members WHERE user_id = ?))`,
        params: [user.id],
      };
    }
    case 'is': {
      const value = operandString(term);
      switch (value) {
        case 'dm':
        case 'private':
          return { sql: "m.type = 'private'", params: [] };
        case 'starred':
          return { sql: `(um.flags & ${MessageFlag.starred}) <> 0`, params: [] };
        case 'unread':
          return {
            sql: `(um.user_id IS NOT NULL AND (um.flags & ${MessageFlag.read}) = 0)`,
            params: [],
          };
        case 'mentioned':
        case 'alerted': {
          const bits =
            MessageFlag.mentioned |
            MessageFlag.stream_wildcard_mentioned |
            MessageFlag.topic_wildcard_mentioned |
            MessageFlag.has_alert_word;
          return { sql: `(um.flags & ${bits}) <> 0`, params: [] };
        }
        case 'resolved':
          return {
            sql: "(m.type = 'stream' AND substr(m.topic, 1, 2) = ?)",
            params: [RESOLVED_TOPIC_PREFIX],
          };
        case 'followed':
          return {
            sql: `(m.type = 'stream' AND EXISTS (SELECT 1 FROM user_topics ut
                    WHERE ut.user_id = ? AND ut.channel_id = m.channel_id
                      AND ut.topic_name = m.topic AND ut.visibility_policy = 3))`,
            params: [viewer.id],
          };
        case 'muted':
          return { sql: mutedSql(), params: [viewer.id, viewer.id, viewer.id] };
        default:
          throw badNarrow(`unknown 'is' operand ${value}`);
      }
    }
    case 'in': {
      const value = operandString(term);
      if (value === 'all') return TRUE;
      if (value === 'home') {
        return { sql: `NOT ${mutedSql()}`, params: [viewer.id, viewer.id, viewer.id] };
      }
      throw badNarrow(`unknown 'in' operand ${value}`);
    }
    case 'has': {
      const value = operandString(term);
      switch (value) {
        case 'link':
          return { sql: 'm.has_link = 1', params: [] };
        case 'image':
          return { sql: 'm.has_image = 1', params: [] };
        case 'attachment':
          return { sql: 'm.has_attachment = 1', params: [] };
        case 'reaction':
          return {
            sql: 'EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)',
            params: [],
          };
        default:
          throw badNarrow(`unknown 'has' operand ${value}`);
      }
    }
    case 'id': {
      const id = Number(operandString(term));
      if (!Number.isInteger(id)) throw badNarrow(`invalid id ${String(term.operand)}`);
      return { sql: 'm.id = ?', params: [id] };
    }
    case 'near':
      // No effect on the server (api-notes §3.4); clients pass it as the anchor. The public server
      // takes its operand only as a string and refuses a number with this message.
      if (typeof term.operand !== 'string') throw badRequest('operand is not a string');
      return TRUE;
    case 'with': {
      const id = Number(operandString(term));
      if (!Number.isInteger(id)) throw badNarrow(`invalid id ${String(term.operand)}`);
      const message = getMessage(db, id);
      // An unknown or inaccessible message leaves the other terms to define the view.
      if (!message) return TRUE;
      if (message.type === 'stream') {
        return {
          sql: "(m.type = 'stream' AND m.channel_id = ? AND m.topic = ? COLLATE NOCASE)",
          params: [message.channel_id, message.topic],
        };
      }
      return { sql: 'm.recipient_id = ?', params: [message.recipient_id] };
    }
    case 'search': {
      const keywords = searchKeywords(operandString(term));
      if (keywords.length === 0) return TRUE;
      if (!term.negated) searchTerms.push(...keywords);
      return {
        sql: 'm.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)',
        params: [ftsQuery(keywords)],
      };
    }
    default:
      throw badNarrow(`unknown operator ${term.operator}`);
  }
}

// Muted: the channel is muted (unless the topic is unmuted or followed) or the topic is muted.
function mutedSql(): string {
  return `(m.type = 'stream' AND (
    (EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = ? AND s.channel_id = m.channel_id
               AND s.active = 1 AND s.is_muted = 1)
      AND NOT EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.channel_id = m.channel_id
               AND ut.topic_name = m.topic AND ut.visibility_policy IN (2, 3)))
    OR EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.channel_id = m.channel_id
               AND ut.topic_name = m.topic AND ut.visibility_policy = 1)))`;
}

const CHANNEL_OPERATORS = new Set(['channel', 'stream', 'channels', 'streams']);
const DM_OPERATORS = new Set(['dm', 'pm-with']);

function isDmTerm(term: NarrowTerm): boolean {
  return (
    DM_OPERATORS.has(term.operator) ||
    (term.operator === 'is' && (term.operand === 'dm' || term.operand === 'private'))
  );
}

export function compileNarrow(
  db: Db,
  viewer: AuthUser,
  terms: readonly NarrowTerm[],
): CompiledNarrow {
  const positive = terms.filter((t) => !t.negated);
  if (positive.some((t) => CHANNEL_OPERATORS.has(t.operator)) && positive.some(isDmTerm)) {
    throw badNarrow('No message can be both a channel message and direct message');
  }
  const searchTerms: string[] = [];
  const conditions: SqlCondition[] = [];
  // Topics excluded: one IN list, looked up per message, instead of a comparison per term (a
  // narrow of 99 excluded topics over 5,000 messages: 99 comparisons a row, bench/hostile-load).
  const excludedTopics: string[] = [];
  for (const term of terms) {
    if (term.negated && (OPERATOR_ALIASES[term.operator] ?? term.operator) === 'topic') {
      excludedTopics.push(topicOperand(db, term));
      continue;
    }
    const condition = termCondition(db, viewer, term, searchTerms);
    if (condition === TRUE && !term.negated) continue;
    conditions.push(
      term.negated
        ? { sql: `NOT COALESCE(${condition.sql}, 0)`, params: condition.params }
        : condition,
    );
  }
  if (excludedTopics.length > 0) {
    // The left operand's NOCASE collation applies to IN, as to the `=` of a single topic term.
    conditions.push({
      sql: `NOT (m.type = 'stream' AND m.topic COLLATE NOCASE IN (${excludedTopics.map(() => '?').join(',')}))`,
      params: excludedTopics,
    });
  }
  const recipient = channelWalk(db, viewer, positive);
  if (recipient) conditions.push(recipient);
  return { conditions, searchTerms };
}

/**
 * A narrow to one channel and nothing else positive (negated terms only filter): its messages by
 * the recipient's (recipient_id, id) index, already in id order, so a range reads only the rows it
 * returns. The planner otherwise took the channel's rows from the (channel, topic, id) index and
 * sorted them all: 5,000 rows of a channel of any size per fetch, and a range could not be read in
 * pages without sorting the channel again for each (bench/hostile-load). A topic, sender or search
 * term keeps its own index.
 */
function channelWalk(
  db: Db,
  viewer: AuthUser,
  positive: readonly NarrowTerm[],
): SqlCondition | null {
  if (positive.length !== 1) return null;
  const [term] = positive;
  if ((OPERATOR_ALIASES[term.operator] ?? term.operator) !== 'channel') return null;
  const channel = resolveChannel(db, viewer, term.operand);
  const recipient = db
    .prepare<[number], { id: number }>('SELECT id FROM recipients WHERE channel_id = ?')
    .get(channel.id);
  // No recipient yet: the channel has no messages, and the channel term alone finds none.
  return recipient ? { sql: 'm.recipient_id = ?', params: [recipient.id] } : null;
}
