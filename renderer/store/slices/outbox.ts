// Local echo: messages the user sent that the server has not yet confirmed through a message
// event. An entry is shown at the end of matching message lists (pending, or failed with a retry)
// and disappears in the same store update that adds the server's message carrying its
// local_message_id.
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export type LocalEchoDestination =
  | { type: 'stream'; streamId: number; topic: string }
  /** User ids of the recipients (self may be omitted). */
  | { type: 'private'; to: number[] };

export interface LocalEchoInput {
  /** The local_id sent with POST /messages (echoed back as local_message_id). */
  localId: string;
  destination: LocalEchoDestination;
  content: string;
  /** Milliseconds; defaults to when it was added. */
  createdAt?: number;
}

export interface OutboxEntry extends LocalEchoInput {
  createdAt: number;
  /** pending: being sent; sent: the server accepted it (messageId known) but its event has not
   * arrived; failed: sending failed, the user may retry or discard. */
  status: 'pending' | 'sent' | 'failed';
  messageId?: number;
  error?: string;
}

export interface OutboxState {
  readonly version: number;
  readonly byLocalId: Map<string, OutboxEntry>;
}

export function emptyOutbox(): OutboxState {
  return { version: 0, byLocalId: new Map() };
}

/** The event types handleOutboxEvent reacts to (the dispatcher calls it for these only). */
export const outboxEventTypes: readonly ServerEventType[] = ['message'];

export function handleOutboxEvent(
  d: SliceDraft<OutboxState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'message' || d.read.byLocalId.size === 0) return;
  if (ev.local_message_id !== undefined && d.read.byLocalId.has(ev.local_message_id)) {
    d.write.byLocalId.delete(ev.local_message_id);
    return;
  }
  // After a re-register the new queue does not echo local ids; match by the id POST returned.
  for (const [localId, entry] of d.read.byLocalId) {
    if (entry.messageId === ev.message.id) d.write.byLocalId.delete(localId);
  }
}

export function addLocalEcho(d: SliceDraft<OutboxState>, input: LocalEchoInput, now: number): void {
  d.write.byLocalId.set(input.localId, {
    ...input,
    createdAt: input.createdAt ?? now,
    status: 'pending',
  });
}

export function updateLocalEcho(
  d: SliceDraft<OutboxState>,
  localId: string,
  patch: Pick<OutboxEntry, 'status'> & Partial<Pick<OutboxEntry, 'error' | 'messageId'>>,
): void {
  const entry = d.read.byLocalId.get(localId);
  if (!entry) return;
  d.write.byLocalId.set(localId, { ...entry, ...patch });
}

export function removeLocalEcho(d: SliceDraft<OutboxState>, localId: string): void {
  if (d.read.byLocalId.has(localId)) d.write.byLocalId.delete(localId);
}

/**
 * What survives a snapshot replacement: every entry. Pending and failed ones are still the user's
 * unsent text; sent ones leave when their message event arrives (matched by message id) or when the
 * history fetched after the snapshot contains them (see dropOutboxForFetched).
 */
export function outboxAfterSnapshot(s: OutboxState): OutboxState {
  return { version: s.version + 1, byLocalId: new Map(s.byLocalId) };
}

/** Remove sent entries whose message arrived with a history page. */
export function dropOutboxForFetched(
  d: SliceDraft<OutboxState>,
  messageIds: ReadonlySet<number>,
): void {
  for (const [localId, entry] of d.read.byLocalId) {
    if (entry.messageId !== undefined && messageIds.has(entry.messageId)) {
      d.write.byLocalId.delete(localId);
    }
  }
}
