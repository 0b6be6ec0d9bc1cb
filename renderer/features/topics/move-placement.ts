// Which messages a move started from one message moves at first, as the public web app picks it
// (stream_popover.ts): by the message's place in its topic. The first message moves the whole topic
// ("change_all", and the reader's view follows it), the last moves alone ("change_one"), one in
// between moves with the later ones ("change_later"). In a search view the web app starts from
// "only this message", as for the last. The place comes from the topic's own list when the store
// holds it with that end fetched, else from the server (the message's neighbours in its topic),
// as the web app asks it.
import type { AccountState } from '../../store';
import { narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';
import type { MessageWithFlags } from '../../../shared/api/types';
import { api } from '../../bridge/api';
import type { PropagateMode } from './topic-actions';

export type MessagePlacement = 'first' | 'intermediate' | 'last';

export const PLACEMENT_MODE: Record<MessagePlacement, PropagateMode> = {
  first: 'change_all',
  intermediate: 'change_later',
  last: 'change_one',
};

/** The place the store can tell, or undefined when only the server can. */
export function placementFromStore(
  account: AccountState | undefined,
  message: MessageWithFlags,
  openNarrow: Narrow | undefined,
): MessagePlacement | undefined {
  if (message.type !== 'stream') return 'last';
  if (openNarrow?.some((term) => term.operator === 'search')) return 'last';
  const list = account?.narrows.lists.get(
    narrowKey(topicNarrow(message.stream_id, message.subject)),
  );
  if (!list || list.ids.search(message.id) < 0) return undefined;
  if (list.foundOldest && list.ids.at(0) === message.id) return 'first';
  if (list.foundNewest && list.ids.at(list.ids.length - 1) === message.id) return 'last';
  // Both ends of the topic are known, or the message has neighbours on both sides in the list.
  const at = list.ids.search(message.id);
  if (at > 0 && at < list.ids.length - 1) return 'intermediate';
  return undefined;
}

/** The server's answer: the message's nearest neighbours in its topic, one each side. */
export async function placementFromServer(
  accountId: string,
  message: MessageWithFlags,
): Promise<MessagePlacement> {
  if (message.type !== 'stream') return 'last';
  const res = await api().getMessages({
    accountId,
    anchor: message.id,
    numBefore: 1,
    numAfter: 1,
    narrow: topicNarrow(message.stream_id, message.subject),
  });
  const ids = res.messages.map((m) => m.id);
  if (!ids.some((id) => id < message.id)) return 'first';
  if (!ids.some((id) => id > message.id)) return 'last';
  return 'intermediate';
}
