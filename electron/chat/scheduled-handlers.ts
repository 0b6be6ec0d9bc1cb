// Handlers of the scheduled-messages domain (shared/ipc/scheduled.ts): scheduling, editing and
// deleting scheduled messages, setting reminders about messages, and reading a message's read
// receipts.
import { endpoints, type ScheduledMessageParams } from '../../shared/api/endpoints';
import type { OutgoingMessage } from '../../shared/ipc/chat';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { scheduledMethods } from '../../shared/ipc/scheduled';
import type { AccountSession } from '../accounts/session';

export type ScheduledHandlers = Pick<MethodHandlers, keyof typeof scheduledMethods>;

function scheduledParams(message: OutgoingMessage): ScheduledMessageParams {
  return message.type === 'channel'
    ? { type: 'stream', to: message.to, topic: message.topic, content: message.content }
    : { type: 'direct', to: message.to, content: message.content };
}

export function scheduledHandlers(sessions: {
  session(accountId: string): AccountSession;
}): ScheduledHandlers {
  const client = (payload: { accountId: string }) => {
    const found = sessions.session(payload.accountId);
    found.assertSignedIn();
    return found.client;
  };
  return {
    scheduleMessage: async (p) => {
      const res = await client(p).call(endpoints.createScheduledMessage, {
        ...scheduledParams(p.message),
        scheduled_delivery_timestamp: p.deliverAt,
      });
      return { scheduledMessageId: res.scheduled_message_id };
    },
    editScheduledMessage: (p) =>
      client(p).call(endpoints.editScheduledMessage, {
        scheduled_message_id: p.scheduledMessageId,
        ...(p.message ? scheduledParams(p.message) : {}),
        scheduled_delivery_timestamp: p.deliverAt,
      }),
    deleteScheduledMessage: (p) =>
      client(p).call(endpoints.deleteScheduledMessage, {
        scheduled_message_id: p.scheduledMessageId,
      }),
    createReminder: async (p) => {
      const res = await client(p).call(endpoints.createReminder, {
        message_id: p.messageId,
        scheduled_delivery_timestamp: p.deliverAt,
      });
      return { reminderId: res.reminder_id };
    },
    getReminders: async (p) => {
      const res = await client(p).call(endpoints.getReminders, {});
      return { reminders: res.reminders };
    },
    deleteReminder: (p) => client(p).call(endpoints.deleteReminder, { reminder_id: p.reminderId }),
    getReadReceipts: async (p) => {
      const res = await client(p).call(endpoints.getReadReceipts, { message_id: p.messageId });
      return { userIds: res.user_ids };
    },
  };
}
