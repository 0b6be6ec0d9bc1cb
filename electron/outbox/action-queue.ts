// The action queue: what the person does to existing messages and topics while the server cannot be
// reached (star, react, mark read or unread (also all messages), edit, delete, mute or follow), kept beside the outbox
// with the same guarantees.
//
// - Durable before shown: an action is written to disk before the session shows it as done (the
//   event the server would have sent), so a crash of either process loses nothing acknowledged.
// - In order, exactly once: actions are replayed one at a time, oldest first; an action stays at
//   the head until the server's answer is known, and a later one never overtakes it (an unstar
//   queued after a star must end unstarred). An attempt is marked "maybe sent" on disk before its
//   request leaves; the attempt after a crash or a lost answer goes through the replayer's checks
//   (action-replay.ts), which recognise an action already applied: a flag or reaction already in
//   place, a deleted message already gone, an edit whose text is already the message's.
// - Settled once: an action the server refuses, or an edit whose message changed meanwhile, is
//   handed to `onSettled` (the session undoes it on screen, keeps the edit as a draft, explains)
//   before it leaves the file, so a crash in between settles it again rather than never.
import { randomUUID } from 'node:crypto';
import type { ServerEvent } from '../../shared/api/events';
import type { MethodPayload } from '../../shared/ipc/contract';
import type { DraftBody } from '../../shared/ipc/drafts';
import { ApiError } from '../api/errors';
import { backoffDelay } from '../api/backoff';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

/** The chat methods that can be done offline; their payloads are stored as the renderer sent them. */
export const OFFLINE_ACTION_KINDS = [
  'updateFlags',
  'updateFlagsForNarrow',
  'markAllAsRead',
  'addReaction',
  'removeReaction',
  'editMessage',
  'deleteMessage',
  'setUserTopic',
] as const;
export type OfflineActionKind = (typeof OFFLINE_ACTION_KINDS)[number];

type PayloadOf<K extends OfflineActionKind> = Omit<MethodPayload<K>, 'accountId'>;

export type OfflineAction = {
  [K in OfflineActionKind]: { kind: K; payload: PayloadOf<K> };
}[OfflineActionKind];

export interface QueuedAction {
  id: string;
  action: OfflineAction;
  createdAt: number;
  /**
   * Until when (ms, this computer's clock) the account knew the server's state when the action was
   * made: an edit's message changed after this was changed by someone else (see action-replay.ts).
   */
  seenUntil: number;
  attempts: number;
  /** An attempt may have reached the server without us learning the outcome. */
  maybeSent: boolean;
  /** The events that showed the action at once (sent again after a new registration). */
  shown: ServerEvent[];
  /** The events that undo it on screen if the server refuses it (when known in advance). */
  undo: ServerEvent[];
  lastError: string | null;
}

/** What became of an action at the server. A thrown error means "not known yet: try again later". */
export type ActionOutcome =
  | { status: 'done' }
  /** Refused for good: undone on screen (`undo` replaces the entry's own when given) and explained. */
  | { status: 'refused'; reason: string; undo?: ServerEvent[] }
  /** An edit whose message changed meanwhile: kept as a draft with a note, undone on screen. */
  | { status: 'conflict'; reason: string; draft: DraftBody | null; undo?: ServerEvent[] };

export interface ActionTransport {
  /** Whether replaying makes sense now (connection live, account signed in). */
  isOnline(): boolean;
  /** Applies one action at the server (action-replay.ts). */
  perform(entry: QueuedAction): Promise<ActionOutcome>;
  /** Before another action is replayed: waits for messages sent earlier (the outbox) to go out. */
  before?(): Promise<void>;
}

interface ActionFile {
  actions: QueuedAction[];
  /** When the account last knew the server's state (ms): an offline action's `seenUntil`. */
  seenUntil?: number;
}

export class ActionQueue {
  private actions: QueuedAction[];
  private flushing: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryAttempt = 0;
  private forgotten = false;
  private seen: number;

  constructor(
    private readonly file: string,
    private readonly transport: ActionTransport,
    /** A refused or conflicting action, before it leaves the file (may run twice after a crash). */
    private readonly onSettled: (entry: QueuedAction, outcome: ActionOutcome) => void = () =>
      undefined,
    private readonly onChange: (actions: readonly QueuedAction[]) => void = () => undefined,
  ) {
    const stored = readJsonFile<ActionFile>(file, { actions: [] });
    this.actions = stored.actions;
    // Never heard of: every edit found changed on the server counts as changed meanwhile.
    this.seen = stored.seenUntil ?? 0;
  }

  /** When the account last knew the server's state (ms), as far as this file remembers. */
  get seenUntil(): number {
    return this.seen;
  }

  /** Notes that the server's state is known as of `at`; `durable` writes it down now. */
  noteSeen(at: number, durable: boolean): void {
    this.seen = Math.max(this.seen, at);
    if (durable) this.persist();
  }

  /** Actions not yet settled, oldest first. */
  list(): readonly QueuedAction[] {
    return this.actions;
  }

  get size(): number {
    return this.actions.length;
  }

  /**
   * Records an action durably (on disk when this returns) and starts replaying if online.
   * `maybeSent`: a direct attempt already failed without an answer, so it may have been applied.
   */
  add(
    action: OfflineAction,
    details: { seenUntil: number; shown: ServerEvent[]; undo: ServerEvent[]; maybeSent?: boolean },
  ): QueuedAction {
    const entry: QueuedAction = {
      id: randomUUID(),
      action,
      createdAt: Date.now(),
      seenUntil: details.seenUntil,
      attempts: details.maybeSent ? 1 : 0,
      maybeSent: details.maybeSent ?? false,
      shown: details.shown,
      undo: details.undo,
      lastError: null,
    };
    this.actions.push(entry);
    this.persist();
    void this.flush();
    return entry;
  }

  /** Replays every action in order (on reconnect, at start-up). */
  flush(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.flushAll().finally(() => {
        this.flushing = null;
      });
    }
    return this.flushing;
  }

  dispose(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** The account is removed: no replay, and no write of the file from now on. */
  forget(): void {
    this.forgotten = true;
    this.dispose();
  }

  private async flushAll(): Promise<void> {
    if (this.actions.length > 0 && this.transport.isOnline()) await this.transport.before?.();
    while (!this.forgotten && this.transport.isOnline()) {
      const entry = this.actions[0];
      if (!entry) break;
      entry.attempts += 1;
      entry.maybeSent = true; // on disk before the request leaves
      this.persist();
      let outcome: ActionOutcome;
      try {
        outcome = await this.transport.perform(entry);
      } catch (error) {
        // No answer (or not one we can act on): the action keeps its place at the head.
        entry.lastError = error instanceof Error ? error.message : String(error);
        this.persist();
        if (error instanceof ApiError && error.kind === 'auth') return; // until signed in again
        this.scheduleRetry();
        return;
      }
      this.retryAttempt = 0;
      if (outcome.status !== 'done') this.onSettled(entry, outcome);
      this.actions = this.actions.filter((candidate) => candidate !== entry);
      this.persist();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.forgotten || !this.transport.isOnline()) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, backoffDelay(this.retryAttempt++));
    this.retryTimer.unref?.();
  }

  private persist(): void {
    if (this.forgotten) return;
    writeJsonFile(this.file, { actions: this.actions, seenUntil: this.seen } satisfies ActionFile);
    this.onChange(this.actions);
  }
}
