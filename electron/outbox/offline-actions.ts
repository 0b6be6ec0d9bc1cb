// One account's actions on existing messages and topics, done online directly and offline through
// the durable queue (action-queue.ts), shown at once either way.
//
// - Routing: online with nothing queued, a call goes straight to the server, as before. Offline, or
//   when a direct call gets no answer (a network error or timeout: it may or may not have been
//   applied), it is queued; while anything is queued, later calls queue behind it, so they replay in
//   the order they were made.
// - Shown at once: a queued action is written to disk, then the event the server would have sent is
//   delivered through the session's event path (renderer store and cache), and the call answers as
//   the server would have (`queued: true` added). After a new registration the events of actions
//   still queued are delivered again, since the new snapshot does not have them.
// - Messages before actions: replay waits for the outbox to flush first. An action can only name a
//   message the server has stored (the list shows unsent messages without actions), so nothing
//   queued here can need a message still in the outbox.
// - Settled: a refusal delivers the undoing events and a notice (`actionNotice` push); an edit whose
//   message changed meanwhile is also kept as a draft, under a key of its own so that settling it
//   again after a crash replaces that draft instead of adding a second.
import type { ServerEvent, UserTopicEvent } from '../../shared/api/events';
import type { RegisterResponse, VisibilityPolicy } from '../../shared/api/types';
import type { ActionNotice } from '../../shared/ipc/chat';
import type { PushSink } from '../../shared/ipc/contract';
import type { NarrowTerm } from '../../shared/narrow';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { PageRequest } from '../cache/cached-pages';
import type { DraftStore } from '../drafts/drafts';
import { callAction, type CallContext } from './action-calls';
import { actionEvents, type UnnumberedEvent } from './action-events';
import {
  ActionQueue,
  type ActionOutcome,
  type OfflineAction,
  type QueuedAction,
} from './action-queue';
import { performAction, sha256 } from './action-replay';

export interface OfflineActionsOptions {
  file: string;
  accountId: string;
  client: ApiClient;
  drafts: DraftStore;
  isOnline(): boolean;
  /** Resolves once messages sent before now have gone out (or cannot yet). */
  beforeReplay(): Promise<void>;
  /** The account's current snapshot and the events since (for a topic's policy before a change). */
  register(): RegisterResponse | null;
  backlog(): readonly ServerEvent[];
  /** Ids of the messages of a narrow page the cache holds. */
  cachedIds(narrow: NarrowTerm[], request: PageRequest): number[];
  /** Delivers events made here through the session's event path. */
  deliver(events: readonly UnnumberedEvent[]): void;
  push: PushSink;
}

/** Notices kept for a page that opens later (the newest). */
const NOTICES_KEPT = 20;

export class OfflineActions {
  private readonly queue: ActionQueue;
  private readonly kept: ActionNotice[] = [];

  constructor(private readonly options: OfflineActionsOptions) {
    this.queue = new ActionQueue(
      options.file,
      {
        isOnline: options.isOnline,
        before: options.beforeReplay,
        perform: (entry) =>
          performAction(entry, {
            ...this.callContext(),
            selfUserId: options.register()?.user_id ?? 0,
          }),
      },
      (entry, outcome) => this.settle(entry, outcome),
    );
  }

  /** Actions waiting for the server, oldest first. */
  list(): readonly QueuedAction[] {
    return this.queue.list();
  }

  /** Notices of actions the server refused (or edits kept as drafts), oldest first. */
  notices(): ActionNotice[] {
    return [...this.kept];
  }

  /** The events showing every queued action, in order. */
  shownEvents(): UnnumberedEvent[] {
    return this.queue.list().flatMap((entry) => entry.shown.map(withoutId));
  }

  /** Does an action: directly when online and nothing is queued, else queued and shown at once. */
  async act(action: OfflineAction): Promise<unknown> {
    if (this.options.isOnline() && this.queue.size === 0) {
      try {
        return await callAction(this.callContext(), action);
      } catch (error) {
        const unanswered =
          error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
        if (!unanswered) throw error;
        return this.enqueue(action, true);
      }
    }
    return this.enqueue(action, false);
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  private callContext(): CallContext {
    return {
      client: this.options.client,
      featureLevel: this.options.register()?.zulip_feature_level ?? 0,
    };
  }

  /** Events arrived: the account knows the server's state as of now. */
  heardFromServer(): void {
    this.queue.noteSeen(Date.now(), false);
  }

  /** Going live or losing the connection: when the server was last heard is kept on disk. */
  connectionChanged(live: boolean): void {
    if (live || this.wasLive) this.queue.noteSeen(Date.now(), true);
    this.wasLive = live;
  }

  private wasLive = false;

  dispose(): void {
    if (this.wasLive) this.queue.noteSeen(Date.now(), true);
    this.queue.dispose();
  }

  forget(): void {
    this.queue.forget();
  }

  private enqueue(action: OfflineAction, maybeSent: boolean): unknown {
    const register = this.options.register();
    const stored = withEditBase(action, this.queue.list());
    const nowSeconds = Math.floor(Date.now() / 1000);
    let narrowIds: number[] = [];
    const events = actionEvents(stored, {
      selfUserId: register?.user_id ?? 0,
      nowSeconds,
      topicPolicy: (streamId, topic) => this.topicPolicy(streamId, topic),
      narrowMessageIds: ({ payload }) => {
        narrowIds = this.options.cachedIds(payload.narrow, payload);
        return narrowIds;
      },
    });
    // On disk before it is shown.
    this.queue.add(stored, {
      seenUntil: this.options.isOnline() ? Date.now() : this.queue.seenUntil,
      shown: events.shown as ServerEvent[],
      undo: events.undo as ServerEvent[],
      maybeSent,
    });
    this.options.deliver(events.shown);
    return answerFor(stored, narrowIds);
  }

  /** A topic's policy now: the snapshot's, unless a user_topic event since changed it. */
  private topicPolicy(streamId: number, topic: string): VisibilityPolicy {
    const same = (s: number, t: string) =>
      s === streamId && t.toLowerCase() === topic.toLowerCase();
    const backlog = this.options.backlog();
    for (let i = backlog.length - 1; i >= 0; i -= 1) {
      const event = backlog[i]!;
      if (event.type !== 'user_topic') continue;
      const change = event as UserTopicEvent;
      if (same(change.stream_id, change.topic_name)) return change.visibility_policy;
    }
    const known = this.options
      .register()
      ?.user_topics?.find((entry) => same(entry.stream_id, entry.topic_name));
    return known?.visibility_policy ?? 0;
  }

  private settle(entry: QueuedAction, outcome: ActionOutcome): void {
    if (outcome.status === 'done') return;
    if (outcome.status === 'conflict' && outcome.draft) {
      this.options.drafts.save(`offline-edit-${entry.id}`, outcome.draft);
    }
    this.options.deliver((outcome.undo ?? entry.undo).map(withoutId));
    const notice: ActionNotice = {
      id: entry.id,
      accountId: this.options.accountId,
      kind: outcome.status,
      text: outcome.reason,
      createdAt: Date.now(),
    };
    this.kept.push(notice);
    if (this.kept.length > NOTICES_KEPT) this.kept.splice(0, this.kept.length - NOTICES_KEPT);
    this.options.push('actionNotice', notice);
  }
}

/**
 * A second offline edit of a message is checked against the first one's text (the renderer could
 * not read the source offline): the message changed by the first is not a conflict for the second.
 */
function withEditBase(action: OfflineAction, queued: readonly QueuedAction[]): OfflineAction {
  if (action.kind !== 'editMessage' || action.payload.prevContentSha256 !== undefined)
    return action;
  if (action.payload.content === undefined) return action;
  for (let i = queued.length - 1; i >= 0; i -= 1) {
    const earlier = queued[i]!.action;
    if (earlier.kind !== 'editMessage' || earlier.payload.messageId !== action.payload.messageId)
      continue;
    if (earlier.payload.content === undefined) continue;
    const base = sha256(earlier.payload.content.trimEnd());
    return { ...action, payload: { ...action.payload, prevContentSha256: base } };
  }
  return action;
}

/** The answer the server would have given, for a call that was queued. */
function answerFor(action: OfflineAction, narrowIds: readonly number[]): unknown {
  const success = { result: 'success', msg: '', queued: true };
  if (action.kind === 'updateFlags') return { ...success, messages: action.payload.messages };
  if (action.kind === 'markAllAsRead') return { ...success, complete: true };
  if (action.kind === 'updateFlagsForNarrow') {
    return {
      ...success,
      processed_count: narrowIds.length,
      updated_count: narrowIds.length,
      first_processed_id: narrowIds[0] ?? null,
      last_processed_id: narrowIds.at(-1) ?? null,
      // The replay goes on to the newest itself: the caller must not ask for more batches.
      found_oldest: true,
      found_newest: true,
    };
  }
  return success;
}

function withoutId(event: ServerEvent | UnnumberedEvent): UnnumberedEvent {
  const { id: _id, ...rest } = event as ServerEvent;
  return rest as UnnumberedEvent;
}
