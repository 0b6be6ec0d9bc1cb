// Which outgoing-webhook bots a new message triggers, as the public server decides
// (get_service_bot_events): a channel message triggers the active outgoing bots it mentions by
// name or through a group (not silently, not by a wildcard), trigger "mention"; a direct message,
// one-on-one or in a group, triggers every outgoing bot among its recipients, trigger
// "direct_message". Messages sent by any bot trigger nothing, so bots never answer each other.
//
// The calls owed are rows of outgoing_webhook_deliveries, written in the message's own
// transaction (a rolled-back send owes nothing, a committed one survives a restart); the delivery
// worker (outgoing-delivery.ts) is woken once the message is announced.
import type { Db } from '../../db';
import type { AuthUser, RealmContext } from '../../realm/context';
import { getUserRow } from '../users/users-store';
import { botConfig } from '../users/bot-events';

export const OUTGOING_WEBHOOK_BOT = 3;
/** Interface 2, Slack's outgoing webhooks, has no form for direct messages. */
export const SLACK_INTERFACE = 2;

export type WebhookTrigger = 'mention' | 'direct_message';

export interface TriggerSource {
  kind: 'channel' | 'direct';
  /** Users the message mentions, group members included (not silent mentions, not wildcards). */
  mentionedUserIds: ReadonlySet<number>;
  /** Who receives the message (for a direct message: every participant). */
  recipientIds: Iterable<number>;
}

/** Queues the calls a stored message triggers; returns how many (call inside its transaction). */
export function queueWebhookTriggers(
  db: Db,
  sender: AuthUser,
  messageId: number,
  source: TriggerSource,
  nowMs: number,
): number {
  if (sender.is_bot) return 0;
  const candidates = source.kind === 'channel' ? source.mentionedUserIds : source.recipientIds;
  const trigger: WebhookTrigger = source.kind === 'channel' ? 'mention' : 'direct_message';
  let queued = 0;
  for (const id of candidates) {
    const row = getUserRow(db, id);
    if (!row || row.is_active !== 1 || row.is_bot !== 1 || row.bot_type !== OUTGOING_WEBHOOK_BOT)
      continue;
    if (source.kind === 'direct' && botConfig(db, id)?.interface === SLACK_INTERFACE) continue;
    db.prepare(
      `INSERT INTO outgoing_webhook_deliveries (bot_id, message_id, trigger, next_attempt_at)
       VALUES (?, ?, ?, ?)`,
    ).run(id, messageId, trigger, nowMs);
    queued += 1;
  }
  return queued;
}

const wakers = new WeakMap<RealmContext, () => void>();

/** Set by the running delivery worker: how a committed trigger reaches it. */
export function setWebhookWaker(ctx: RealmContext, wake: (() => void) | null): void {
  if (wake) wakers.set(ctx, wake);
  else wakers.delete(ctx);
}

/** Tells the delivery worker new calls are due (no-op while it is not running). */
export function wakeWebhookDelivery(ctx: RealmContext): void {
  wakers.get(ctx)?.();
}
