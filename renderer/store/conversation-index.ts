// The stored messages grouped by conversation: each channel's topics and each direct-message
// conversation, with their message ids (and so their newest id). The messages slice keeps it as it
// stores, moves and deletes messages, so the sidebar lists topics and conversations by reading
// this index instead of scanning every stored message on every update.
//
// Like the slice's byId, the maps are mutated in place (see sliceDraft.ts); the messages slice's
// version changes whenever they do.
import type { Message } from '../../shared/api/types';
import { MessageIdSet } from './message-id-set';

export interface ConversationIndex {
  /** channel id -> topic (exactly as the messages carry it) -> ids of stored messages */
  readonly channels: Map<number, Map<string, MessageIdSet>>;
  /**
   * Every participant's id, the user's own included, sorted and comma-joined (the stored form
   * needs no self id; dmConversationKey turns it into the unreads' key) -> ids of stored messages
   */
  readonly dms: Map<string, MessageIdSet>;
}

export function emptyConversationIndex(): ConversationIndex {
  return { channels: new Map(), dms: new Map() };
}

/** The dms key of a direct message: all participants, sorted. */
export function dmParticipantsKey(m: Message & { type: 'private' }): string {
  const ids = m.display_recipient.map((r) => r.id);
  if (ids.length === 2) return ids[0] < ids[1] ? `${ids[0]},${ids[1]}` : `${ids[1]},${ids[0]}`;
  return ids.sort((a, b) => a - b).join(',');
}

function idsOf(index: ConversationIndex, m: Message, create: boolean): MessageIdSet | undefined {
  if (m.type === 'stream') {
    let topics = index.channels.get(m.stream_id);
    if (!topics) {
      if (!create) return undefined;
      index.channels.set(m.stream_id, (topics = new Map()));
    }
    let ids = topics.get(m.subject);
    if (!ids && create) topics.set(m.subject, (ids = new MessageIdSet()));
    return ids;
  }
  const key = dmParticipantsKey(m);
  let ids = index.dms.get(key);
  if (!ids && create) index.dms.set(key, (ids = new MessageIdSet()));
  return ids;
}

/** A message is now stored where it says it is (new, fetched, or moved there). */
export function indexMessage(index: ConversationIndex, m: Message): void {
  idsOf(index, m, true)!.add(m.id);
}

/** A stored message leaves where it was (deleted, or about to be moved); empty groups go. */
export function unindexMessage(index: ConversationIndex, m: Message): void {
  const ids = idsOf(index, m, false);
  if (!ids || !ids.delete(m.id) || ids.size > 0) return;
  if (m.type === 'stream') {
    const topics = index.channels.get(m.stream_id)!;
    topics.delete(m.subject);
    if (topics.size === 0) index.channels.delete(m.stream_id);
  } else index.dms.delete(dmParticipantsKey(m));
}

/** The message replaces `previous` in the store: moved in the index only if its place changed. */
export function reindexMessage(
  index: ConversationIndex,
  previous: Message | undefined,
  next: Message,
): void {
  if (previous && !samePlace(previous, next)) unindexMessage(index, previous);
  indexMessage(index, next);
}

function samePlace(a: Message, b: Message): boolean {
  if (a.type === 'stream' && b.type === 'stream')
    return a.stream_id === b.stream_id && a.subject === b.subject;
  return (
    a.type === 'private' && b.type === 'private' && dmParticipantsKey(a) === dmParticipantsKey(b)
  );
}
