// Whether a message on the server is the delivered copy of an outgoing one: same conversation, same
// topic as the server stores it, same text. The server trims what it stores (a topic's spaces, a
// message's trailing whitespace) and, before empty topics existed (FL 334), stored the empty topic
// under a name; comparing raw strings took "topic " and "topic" for different conversations.
import type { Message } from '../../shared/api/types';
import type { OutgoingMessage } from '../../shared/ipc/chat';

/** What servers have stored in place of an empty topic. */
const LEGACY_EMPTY_TOPICS = ['(no topic)'];

function sameTopic(stored: string, sent: string, emptyTopicName: string): boolean {
  const a = stored.trim();
  const b = sent.trim();
  if (a === b) return true;
  if (b !== '') return false;
  return a === emptyTopicName || LEGACY_EMPTY_TOPICS.includes(a);
}

export function sameMessage(
  candidate: Message,
  message: OutgoingMessage,
  emptyTopicName: string,
  selfId: number | undefined,
): boolean {
  if (candidate.content.trimEnd() !== message.content.trimEnd()) return false;
  if (message.type === 'channel') {
    if (candidate.type !== 'stream') return false;
    const sameChannel =
      typeof message.to === 'number'
        ? candidate.stream_id === message.to
        : candidate.display_recipient === message.to;
    return sameChannel && sameTopic(candidate.subject, message.topic, emptyTopicName);
  }
  if (candidate.type !== 'private') return false;
  // Participants as sets, with ourselves on both sides: a DM lists the sender, a DM to oneself
  // lists only oneself.
  const stored = new Set(candidate.display_recipient.map((user) => user.id));
  const sent = new Set(message.to);
  if (selfId !== undefined) {
    stored.add(selfId);
    sent.add(selfId);
  }
  return stored.size === sent.size && [...sent].every((id) => stored.has(id));
}
