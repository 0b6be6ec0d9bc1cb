// A narrow as a query over the message store's plain columns: the terms the columns decide become
// SQL; keyword search goes to the search index; whatever is left (`dm-including:`, `is:resolved`,
// a topic without its channel, ...) is matched on the opened messages by the client-side matcher,
// where a term it cannot decide excludes the message: an offline answer may miss messages, it
// never shows wrong ones.
import { canonicalOperator, type NarrowMatchContext, type NarrowTerm } from '../../shared/narrow';
import {
  HAS_BITS,
  MENTION_BITS,
  channelIdOf,
  flagBit,
  topicConversation,
  userIdOf,
} from './message-columns';

export interface StoreQuery {
  /** SQL conditions ANDed, with their parameters. */
  where: string[];
  params: unknown[];
  /** Words and phrases for the search index, or null without a keyword term. */
  search: string | null;
  /** Terms left for the client-side matcher on opened messages. */
  residual: NarrowTerm[];
}

const IS_FLAG: Record<string, number> = {
  starred: flagBit('starred'),
  mentioned: MENTION_BITS,
  alerted: flagBit('has_alert_word'),
};

/** `tag` turns a conversation's name into the keyed name the store keeps. */
export function storeQuery(
  narrow: readonly NarrowTerm[],
  ctx: NarrowMatchContext,
  tag: (conversation: string) => string,
): StoreQuery {
  const query: StoreQuery = { where: [], params: [], search: null, residual: [] };
  const channelTerm = narrow.find((t) => canonicalOperator(t.operator) === 'channel' && !t.negated);
  const channelId = channelTerm ? channelIdOf(channelTerm.operand, ctx) : undefined;
  const words: string[] = [];
  const add = (negated: boolean | undefined, sql: string, ...params: unknown[]) => {
    query.where.push(negated ? `NOT (${sql})` : sql);
    query.params.push(...params);
  };
  for (const term of narrow) {
    const operand = term.operand;
    const not = term.negated;
    switch (canonicalOperator(term.operator)) {
      case 'channel': {
        const id = channelIdOf(operand, ctx);
        if (id === undefined) query.residual.push(term);
        else add(not, 'stream_id IS NOT NULL AND stream_id = ?', id);
        continue;
      }
      case 'topic':
        // With its channel, a topic is a conversation; alone, the matcher compares names.
        if (channelId === undefined) query.residual.push(term);
        else add(not, 'conv = ?', tag(topicConversation(channelId, String(operand))));
        continue;
      case 'sender': {
        const id = Array.isArray(operand) ? undefined : userIdOf(operand, ctx);
        if (id === undefined) query.residual.push(term);
        else add(not, 'sender_id = ?', id);
        continue;
      }
      case 'id': {
        const id = userIdOf(operand, { selfUserId: -1 });
        if (id === undefined) query.residual.push(term);
        else add(not, 'id = ?', id);
        continue;
      }
      case 'is': {
        const what = String(operand).toLowerCase();
        if (what === 'dm' || what === 'private') add(not, 'stream_id IS NULL');
        else if (what === 'unread') add(not, '(flags & ?) = 0', flagBit('read'));
        else if (IS_FLAG[what]) add(not, '(flags & ?) != 0', IS_FLAG[what]);
        else query.residual.push(term);
        continue;
      }
      case 'has': {
        const bit = HAS_BITS[String(operand).toLowerCase() as keyof typeof HAS_BITS];
        if (bit) add(not, '(has & ?) != 0', bit);
        else query.residual.push(term);
        continue;
      }
      case 'search':
        if (not) query.residual.push(term);
        else words.push(String(operand));
        continue;
      case 'near':
        continue; // the anchor, not a filter
      case 'in':
        if (String(operand).toLowerCase() === 'all' && !not) continue;
        query.residual.push(term);
        continue;
      default:
        query.residual.push(term);
    }
  }
  if (words.length > 0) query.search = words.join(' ');
  return query;
}
