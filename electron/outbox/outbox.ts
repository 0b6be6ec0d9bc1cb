// The outbox: every message the user sends goes through here, exactly once.
//
// - Durable before acknowledged: an entry is written to disk before anything else happens, and
//   only then is it announced (the `outbox` push), which is when the page may forget its own copy.
// - Delivered once: before each attempt the entry records the newest message id main knows
//   (`afterId`); the message, if the server stores it, gets a larger id. An attempt whose answer was
//   lost (a dropped connection, a crash of this process) is resolved by looking, in that
//   conversation only, for a message of ours with the same text after `afterId` that no other entry
//   has claimed. Two identical "ok"s are two entries with their own watermarks: each claims at most
//   one message, so neither is taken for the other and neither is sent twice.
// - Handed over once: a page hands its unsent messages over again after a reconnect or a restart;
//   localIds already delivered are remembered (`completed`), so a second handover sends nothing.
import { randomUUID } from 'node:crypto';
import type { OutboxEntry, OutgoingMessage } from '../../shared/ipc/chat';
import { ApiError } from '../api/errors';
import { backoffDelay } from '../api/backoff';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

interface StoredEntry extends OutboxEntry {
  /** An attempt may have reached the server without us learning the outcome. */
  maybeDelivered: boolean;
  /**
   * The newest message id known before the first attempt: a delivered copy has a larger one.
   * Absent in entries written before it existed (then the lookup falls back to a time window).
   */
  afterId?: number | null;
}

interface CompletedEntry {
  localId: string;
  messageId: number;
}

interface OutboxFile {
  entries: StoredEntry[];
  completed: CompletedEntry[];
}

/** How many delivered localIds are remembered for handovers that come again. */
const COMPLETED_KEPT = 1000;

export interface DeliveryQuery {
  entry: OutboxEntry;
  /** Only messages with a larger id can be this entry's (null: unknown, use a time window). */
  afterId: number | null;
  /** Message ids other entries have claimed. */
  exclude: ReadonlySet<number>;
}

export interface OutboxTransport {
  /** POST /messages with queue_id/local_id for local echo; resolves to the new message id. */
  send(entry: OutboxEntry): Promise<number>;
  /** Looks for this entry on the server (see DeliveryQuery); the id if it was delivered after all. */
  findDelivered(query: DeliveryQuery): Promise<number | null>;
  /** The newest message id this account has seen (snapshot, events, sends), if any. */
  newestMessageId(): number | null;
  /** Whether sending makes sense now (connection live, account signed in). */
  isOnline(): boolean;
}

export class Outbox {
  private entries: StoredEntry[];
  private completed: CompletedEntry[];
  private flushing: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryAttempt = 0;
  private persistTimer: ReturnType<typeof setTimeout> | null = null;
  /** The account was removed: nothing is written any more (forget()). */
  private forgotten = false;
  /** Message ids already matched to entries, so two identical messages are not both "found". */
  private readonly claimed = new Set<number>();
  private readonly inFlight = new Map<string, Promise<number | null>>();

  constructor(
    private readonly file: string,
    private readonly accountId: string,
    private readonly transport: OutboxTransport,
    private readonly onChange: (entries: OutboxEntry[]) => void = () => undefined,
  ) {
    const stored = readJsonFile<OutboxFile | StoredEntry[]>(file, { entries: [], completed: [] });
    // The first format was the bare list of entries.
    const { entries, completed } = Array.isArray(stored)
      ? { entries: stored, completed: [] }
      : stored;
    this.completed = completed;
    // Already some entry's: after a crash, a message identical to a delivered one is not taken for
    // the copy of an entry whose attempt never reached the server (that entry would be lost).
    for (const done of completed) this.claimed.add(done.messageId);
    this.entries = entries.map((entry) =>
      // A process that died mid-send left "sending": that attempt may have been delivered.
      entry.state === 'sending' ? { ...entry, state: 'pending', maybeDelivered: true } : entry,
    );
  }

  list(): OutboxEntry[] {
    return this.entries.map(publicEntry);
  }

  /**
   * Records the message durably and, when online, sends it at once. The entry is written once, already
   * marked "maybe delivered" when it is about to go out, so the send costs one synchronous write.
   */
  async submit(
    message: OutgoingMessage,
    localId: string = randomUUID(),
  ): Promise<{ entry: OutboxEntry; messageId: number | null }> {
    const existing = this.entries.find((entry) => entry.localId === localId);
    if (existing) return { entry: publicEntry(existing), messageId: await this.sendNow(localId) };
    // Handed over again (a page that did not hear the first answer): already delivered.
    const done = this.completed.find((entry) => entry.localId === localId);
    if (done) {
      const entry: OutboxEntry = {
        localId,
        accountId: this.accountId,
        message,
        state: 'sending',
        attempts: 0,
        createdAt: Date.now(),
        lastError: null,
      };
      return { entry, messageId: done.messageId };
    }
    const online = this.transport.isOnline() && !this.flushing;
    const entry: StoredEntry = {
      localId,
      accountId: this.accountId,
      message,
      state: online ? 'sending' : 'pending',
      attempts: online ? 1 : 0,
      createdAt: Date.now(),
      lastError: null,
      maybeDelivered: online,
      afterId: online ? this.transport.newestMessageId() : null,
    };
    this.entries.push(entry);
    this.persist();
    if (!online) {
      void this.flush(); // behind entries already waiting, or when the connection returns
      return { entry: publicEntry(entry), messageId: null };
    }
    return {
      entry: publicEntry(entry),
      messageId: await this.once(entry, () => this.transmit(entry)),
    };
  }

  /** Tries one entry now. Resolves to the message id, or null if it stays queued. */
  async sendNow(localId: string): Promise<number | null> {
    await this.flushing;
    const entry = this.entries.find((candidate) => candidate.localId === localId);
    if (!entry) return null;
    return this.once(entry, () => this.attempt(entry));
  }

  /** Sends every pending entry in order (on reconnect, at start-up, on the user's retry). */
  flush({ includeFailed = false } = {}): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.flushAll(includeFailed).finally(() => {
        this.flushing = null;
      });
    }
    return this.flushing;
  }

  discard(localId: string): void {
    this.entries = this.entries.filter((entry) => entry.localId !== localId);
    this.persist();
  }

  dispose(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.persistTimer) this.persist();
  }

  /** The account is removed: no retry, and no write of the file from now on. */
  forget(): void {
    this.forgotten = true;
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    this.dispose();
  }

  private async flushAll(includeFailed: boolean): Promise<void> {
    // Entries added while this pass runs are picked up by it too.
    const tried = new Set<StoredEntry>();
    for (;;) {
      const entry = this.entries.find(
        (candidate) => !tried.has(candidate) && (includeFailed || candidate.state !== 'failed'),
      );
      if (!entry || !this.transport.isOnline()) break;
      tried.add(entry);
      let sent: number | null;
      try {
        sent = await this.once(entry, () => this.attempt(entry));
      } catch {
        continue; // refused for good: marked failed, the next one may still go
      }
      // Keep the order: a message that could not go stops the ones typed after it.
      if (sent === null && this.entries.includes(entry)) break;
    }
    this.scheduleRetryIfNeeded();
  }

  /**
   * One attempt per entry at a time: a page handing a message over again while its first send is
   * still waiting for the server joins that send instead of racing it (a lookup made meanwhile
   * cannot see a message still in flight, so a second request would store it twice).
   */
  private once(entry: StoredEntry, run: () => Promise<number | null>): Promise<number | null> {
    const running = this.inFlight.get(entry.localId);
    if (running) return running;
    const attempt = run().finally(() => this.inFlight.delete(entry.localId));
    this.inFlight.set(entry.localId, attempt);
    return attempt;
  }

  private async attempt(entry: StoredEntry): Promise<number | null> {
    if (!this.transport.isOnline()) return null;
    try {
      if (entry.maybeDelivered) {
        const found = await this.transport.findDelivered({
          entry: publicEntry(entry),
          afterId: entry.afterId ?? null,
          exclude: this.claimed,
        });
        if (found !== null) {
          this.complete(entry, found);
          return found;
        }
      }
    } catch {
      return null; // could not check: try again later rather than risk a duplicate
    }
    entry.state = 'sending';
    entry.attempts += 1;
    // Kept from the first attempt: a copy delivered by any attempt has a larger id than this.
    entry.afterId ??= this.transport.newestMessageId();
    entry.maybeDelivered = true; // on disk before the request leaves
    this.persist();
    return this.transmit(entry);
  }

  /** Sends an entry already marked "sending" on disk. */
  private async transmit(entry: StoredEntry): Promise<number | null> {
    try {
      const id = await this.transport.send(publicEntry(entry));
      this.complete(entry, id);
      this.retryAttempt = 0;
      return id;
    } catch (error) {
      if (!this.entries.includes(entry)) return null;
      const definite = error instanceof ApiError && !error.ambiguous && error.kind === 'server';
      // A definite refusal (4xx with a body) means the server did not store the message.
      if (definite) entry.maybeDelivered = false;
      entry.state = definite ? 'failed' : 'pending';
      entry.lastError = error instanceof Error ? error.message : String(error);
      this.persist();
      if (definite) throw error;
      this.scheduleRetryIfNeeded();
      return null;
    }
  }

  private scheduleRetryIfNeeded(): void {
    if (this.retryTimer || !this.entries.some((entry) => entry.state === 'pending')) return;
    if (!this.transport.isOnline()) return; // the reconnect will flush
    const delay = backoffDelay(this.retryAttempt++);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, delay);
    this.retryTimer.unref?.();
  }

  /**
   * Completion is written lazily (coalesced): should the process die first, the entry comes back as
   * "maybe delivered" and is found on the server rather than sent again.
   */
  private complete(entry: StoredEntry, messageId: number): void {
    this.claimed.add(messageId);
    this.entries = this.entries.filter((candidate) => candidate !== entry);
    this.completed.push({ localId: entry.localId, messageId });
    if (this.completed.length > COMPLETED_KEPT)
      this.completed.splice(0, this.completed.length - COMPLETED_KEPT);
    this.persistSoon();
  }

  private persist(): void {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    if (this.forgotten) return;
    writeJsonFile(this.file, {
      entries: this.entries,
      completed: this.completed,
    } satisfies OutboxFile);
    this.onChange(this.list());
  }

  private persistSoon(): void {
    if (this.persistTimer || this.forgotten) return;
    this.persistTimer = setTimeout(() => this.persist(), 0);
  }
}

function publicEntry(entry: StoredEntry): OutboxEntry {
  return {
    localId: entry.localId,
    accountId: entry.accountId,
    message: entry.message,
    state: entry.state,
    attempts: entry.attempts,
    createdAt: entry.createdAt,
    lastError: entry.lastError,
  };
}
