// What a narrow means to the screens: its title, whether it is one conversation (for mark-as-read
// on scroll and compose defaults), and the conversation a message belongs to.
import type { AccountNames, LocalEchoDestination } from '../../store';
import type { Message } from '../../../shared/api/types';
import { dmNarrow, topicNarrow, type Narrow } from '../../../shared/narrow';
import { searchText } from '../search/search-narrow';

export interface NarrowInfo {
  title: string;
  /** A single topic or direct-message conversation. */
  conversation: boolean;
  streamId?: number;
  topic?: string;
  dmUserIds?: number[];
}

function operand(narrow: Narrow, operator: string) {
  return narrow.find((t) => t.operator === operator && !t.negated)?.operand;
}

export function channelIdOf(narrow: Narrow, account: AccountNames | undefined): number | undefined {
  const op = operand(narrow, 'channel');
  if (typeof op === 'number') return op;
  if (typeof op === 'string') {
    const n = Number(op);
    if (Number.isInteger(n) && String(n) === op) return n;
    return account?.channels.idByName.get(op.toLowerCase());
  }
  return undefined;
}

export function dmIdsOf(narrow: Narrow): number[] | undefined {
  const op = operand(narrow, 'dm');
  if (Array.isArray(op)) return op;
  if (typeof op === 'number') return [op];
  return undefined;
}

/** What a name shows while a first sign-in's people are still coming (UsersState.loading). */
export const LOADING_NAME = '…';

export function userName(account: AccountNames | undefined, userId: number): string {
  const name = account?.users.users.get(userId)?.full_name;
  if (name !== undefined) return name;
  return account?.users.loading ? LOADING_NAME : `User ${userId}`;
}

export function describeNarrow(narrow: Narrow, account: AccountNames | undefined): NarrowInfo {
  if (narrow.length === 0) return { title: 'All messages', conversation: false };
  const streamId = channelIdOf(narrow, account);
  const topic = operand(narrow, 'topic');
  if (streamId !== undefined && narrow.length <= 2) {
    const name = account?.channels.channels.get(streamId)?.name ?? `channel ${streamId}`;
    if (typeof topic === 'string' && narrow.length === 2)
      return { title: `#${name} > ${topic}`, conversation: true, streamId, topic };
    if (narrow.length === 1) return { title: `#${name}`, conversation: false, streamId };
  }
  const dm = dmIdsOf(narrow);
  if (dm && narrow.length === 1) {
    const names = dm.map((id) => userName(account, id));
    return { title: names.join(', '), conversation: true, dmUserIds: dm };
  }
  const is = operand(narrow, 'is');
  if (narrow.length === 1 && is === 'mentioned') return { title: 'Mentions', conversation: false };
  if (narrow.length === 1 && is === 'starred')
    return { title: 'Starred messages', conversation: false };
  if (narrow.length === 1 && is === 'dm') return { title: 'Direct messages', conversation: false };
  return { title: `Search: ${searchText(narrow, account)}`, conversation: false };
}

/** The narrow of the conversation a message belongs to. */
export function conversationOf(message: Message, selfUserId: number): Narrow {
  if (message.type === 'stream') return topicNarrow(message.stream_id, message.subject);
  const others = message.display_recipient.map((r) => r.id).filter((id) => id !== selfUserId);
  return dmNarrow(others.length ? others : [selfUserId]);
}

/** Messages in the same conversation (for recipient headers). */
export function sameConversation(a: Message, b: Message): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'stream' && b.type === 'stream')
    return a.stream_id === b.stream_id && a.subject.toLowerCase() === b.subject.toLowerCase();
  if (a.type === 'private' && b.type === 'private') {
    const ka = a.display_recipient
      .map((r) => r.id)
      .sort((x, y) => x - y)
      .join();
    const kb = b.display_recipient
      .map((r) => r.id)
      .sort((x, y) => x - y)
      .join();
    return ka === kb;
  }
  return false;
}

/** Where a local echo goes and where a message is, compared: whether a local echo continues the
 * conversation of the row before it (for its recipient header). */
export function echoContinues(
  destination: LocalEchoDestination,
  before: Message | LocalEchoDestination,
  selfUserId: number,
): boolean {
  const key = (d: LocalEchoDestination) =>
    d.type === 'stream'
      ? `s${d.streamId}:${d.topic.toLowerCase()}`
      : `p${[...new Set(d.to.filter((id) => id !== selfUserId))].sort((x, y) => x - y).join()}`;
  const beforeDestination: LocalEchoDestination =
    'id' in before
      ? before.type === 'stream'
        ? { type: 'stream', streamId: before.stream_id, topic: before.subject }
        : { type: 'private', to: before.display_recipient.map((r) => r.id) }
      : before;
  return key(destination) === key(beforeDestination);
}
