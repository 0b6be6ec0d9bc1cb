// The outbox: every message the user sends goes through here. It is written to disk before the first
// attempt, so a message typed while offline, or whose send failed, survives a restart and is retried
// when the connection returns. It never appears twice: an attempt is marked "maybe delivered" on disk
// before the request leaves, and such an entry is looked up on the server (sender:me, newest) before
// it is sent again.
import { randomUUID } from 'node:crypto';
import type { OutboxEntry, OutgoingMessage } from '../../shared/ipc/chat';
import { ApiError } from '../api/errors';
import { backoffDelay } from '../api/backoff';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

interface StoredEntry extends OutboxEntry {
  /** An attempt may have reached the server without us learning the outcome. */
  maybeDelivered: boolean;
}

export interface OutboxTransport {
  /** POST /messages with queue_id/local_id for local echo; resolves to the new message id. */
  send(entry: OutboxEntry): Promise<number>;
  /** Looks for this entry among the user's newest messages; the id if it was delivered after all. */
  findDelivered(entry: OutboxEntry, excludeIds: ReadonlySet<number>): Promise<number | null>;
  /** Whether sending makes sense now (connection live, account signed in). */
  isOnline(): boolean;
}

export class Outbox {
  private entries: StoredEntry[];
  private flushing: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryAttempt = 0;
  private persistTimer: ReturnType<typeof setTimeout> | null = null;
  /** Message ids already matched to entries, so two identical messages are not both "found". */
  private readonly claimed = new Set<number>();

  constructor(
    private readonly file: string,
    private readonly accountId: string,
    private readonly transport: OutboxTransport,
    private readonly onChange: (entries: OutboxEntry[]) => void = () => undefined,
  ) {
    this.entries = readJsonFile<StoredEntry[]>(file, []).map((entry) =>
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
    };
    this.entries.push(entry);
    this.persist();
    if (!online) {
      void this.flush(); // behind entries already waiting, or when the connection returns
      return { entry: publicEntry(entry), messageId: null };
    }
    return { entry: publicEntry(entry), messageId: await this.transmit(entry) };
  }

  /** Tries one entry now. Resolves to the message id, or null if it stays queued. */
  async sendNow(localId: string): Promise<number | null> {
    await this.flushing;
    const entry = this.entries.find((candidate) => candidate.localId === localId);
    if (!entry) return null;
    return this.attempt(entry);
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
        sent = await this.attempt(entry);
      } catch {
        continue; // refused for good: marked failed, the next one may still go
      }
      // Keep the order: a message that could not go stops the ones typed after it.
      if (sent === null && this.entries.includes(entry)) break;
    }
    this.scheduleRetryIfNeeded();
  }

  private async attempt(entry: StoredEntry): Promise<number | null> {
    if (!this.transport.isOnline()) return null;
    try {
      if (entry.maybeDelivered) {
        const found = await this.transport.findDelivered(publicEntry(entry), this.claimed);
        if (found !== null) {
          this.claimed.add(found);
          this.remove(entry);
          return found;
        }
      }
    } catch {
      return null; // could not check: try again later rather than risk a duplicate
    }
    entry.state = 'sending';
    entry.attempts += 1;
    entry.maybeDelivered = true; // on disk before the request leaves
    this.persist();
    return this.transmit(entry);
  }

  /** Sends an entry already marked "sending" on disk. */
  private async transmit(entry: StoredEntry): Promise<number | null> {
    try {
      const id = await this.transport.send(publicEntry(entry));
      this.claimed.add(id);
      this.remove(entry);
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
   * Removal is written lazily (coalesced): should the process die first, the entry comes back as
   * "maybe delivered" and is found on the server rather than sent again.
   */
  private remove(entry: StoredEntry): void {
    this.entries = this.entries.filter((candidate) => candidate !== entry);
    this.persistSoon();
  }

  private persist(): void {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    writeJsonFile(this.file, this.entries);
    this.onChange(this.list());
  }

  private persistSoon(): void {
    if (this.persistTimer) return;
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
