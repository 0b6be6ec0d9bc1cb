// The narrow a client passes to POST /register filters which message events its queue receives
// (api-notes §3.4): channel/stream, topic, sender and is:<dm|private|starred|unread|mentioned|
// alerted|resolved>. It never widens what the user receives. Validation lives in validateRegisterNarrow.
import { badRequest } from '../http/errors';
import type { EventBody, RegisterNarrow } from './queue';

const SUPPORTED = new Set(['channel', 'stream', 'topic', 'sender', 'is']);
const IS_OPERANDS = new Set([
  'dm',
  'private',
  'starred',
  'unread',
  'mentioned',
  'alerted',
  'resolved',
]);

export function validateRegisterNarrow(narrow: RegisterNarrow): void {
  for (const [operator, operand] of narrow) {
    if (!SUPPORTED.has(operator)) throw badRequest(`Operator ${operator} not supported.`);
    if (operator === 'is' && !IS_OPERANDS.has(operand)) {
      throw badRequest(`Operand ${operand} not supported.`);
    }
  }
}

interface MessageEventShape {
  message?: {
    type?: string;
    stream_id?: number;
    display_recipient?: unknown;
    subject?: string;
    sender_email?: string;
    sender_id?: number;
  };
  flags?: string[];
}

export function messageMatchesRegisterNarrow(narrow: RegisterNarrow, event: EventBody): boolean {
  const { message, flags = [] } = event as MessageEventShape;
  if (!message) return true;
  return narrow.every(([operator, operand]) => {
    switch (operator) {
      case 'channel':
      case 'stream':
        return (
          message.type === 'stream' &&
          (String(message.stream_id) === operand ||
            (typeof message.display_recipient === 'string' &&
              message.display_recipient.toLowerCase() === operand.toLowerCase()))
        );
      case 'topic':
        return (
          message.type === 'stream' &&
          (message.subject ?? '').toLowerCase() === operand.toLowerCase()
        );
      case 'sender':
        return (
          String(message.sender_id) === operand ||
          (message.sender_email ?? '').toLowerCase() === operand.toLowerCase()
        );
      case 'is':
        switch (operand) {
          case 'dm':
          case 'private':
            return message.type === 'private';
          case 'starred':
            return flags.includes('starred');
          case 'unread':
            return !flags.includes('read');
          case 'mentioned':
          case 'alerted':
            return flags.includes('mentioned') || flags.includes('has_alert_word');
          case 'resolved':
            return message.type === 'stream' && (message.subject ?? '').startsWith('✔ ');
        }
        return true;
    }
    return true;
  });
}
