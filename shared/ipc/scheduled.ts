// Scheduled messages (sent by the server at their time), reminders about messages and read receipts. The list itself comes
// with the snapshot and scheduled_messages events; these are the calls that change it.
import * as z from 'zod';
import type { SuccessEnvelope } from '../api/endpoints';
import type { Reminder } from '../api/types';
import { outgoingMessage } from './chat';
import { forAccount, messageId } from './common';
import { method } from './define';

/** UNIX seconds; the server refuses times already past. */
const deliveryTimestamp = z.number().int().positive();
const scheduledMessageId = z.number().int().positive();

export const scheduledMethods = {
  scheduleMessage: method<{ scheduledMessageId: number }>()(
    forAccount({ message: outgoingMessage, deliverAt: deliveryTimestamp }),
  ),
  /** Replaces the destination and content and/or the time of a scheduled message. */
  editScheduledMessage: method<SuccessEnvelope>()(
    forAccount({
      scheduledMessageId,
      message: outgoingMessage.optional(),
      deliverAt: deliveryTimestamp.optional(),
    }),
  ),
  deleteScheduledMessage: method<SuccessEnvelope>()(forAccount({ scheduledMessageId })),
  /** "Remind me about this": the server's Notification Bot sends a DM quoting the message then. */
  createReminder: method<{ reminderId: number }>()(
    forAccount({ messageId, deliverAt: deliveryTimestamp }),
  ),
  /** Your pending reminders, from the server each time (GET /reminders). */
  getReminders: method<{ reminders: Reminder[] }>()(forAccount({})),
  deleteReminder: method<SuccessEnvelope>()(
    forAccount({ reminderId: z.number().int().positive() }),
  ),
  /** The ids of the users who read a message (the server refuses when the realm disabled them). */
  getReadReceipts: method<{ userIds: number[] }>()(forAccount({ messageId })),
} as const;
