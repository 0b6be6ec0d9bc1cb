// Background sync for one account (issue #23): while the account is live and the person is not
// using the app, fill the cache with the recent history of every conversation they can read, newest
// conversation first, through the session's own client in small pages (the server's normal message
// fetches), one page at a time with a pause between pages. It pauses while the person is active, waits
// out a 429 for as long as the server asks, keeps the account's cache under its disk budget by
// evicting the oldest history, and stops with state `disk-full` when the disk is full (the outbox
// and drafts are separate files and lose nothing). "Sync now" runs a pass at once, active or not.
import { endpoints, type GetMessagesResponse } from '../../shared/api/endpoints';
import type { RegisterResponse } from '../../shared/api/types';
import type { OfflineSettings, OfflineStatus } from '../../shared/ipc/cache';
import type { NarrowTerm } from '../../shared/narrow';
import type { ApiClient } from '../api/client';
import { retryAfterMs } from '../api/client';
import { ApiError } from '../api/errors';
import { sleep } from '../api/backoff';
import { isDiskFull, type AccountCache } from '../cache/account-cache';
import type { PageRequest } from '../cache/cached-pages';
import type { ActivityTracker } from '../presence/activity';
import { planConversations, type PlannedConversation } from './sync-plan';
import { readSyncRecord, writeSyncRecord, type SyncRecord } from './sync-record';

/** What sync needs of the account's session. */
export interface SyncHost {
  readonly client: ApiClient;
  readonly register: RegisterResponse | null;
  isOnline(): boolean;
  /** Keeps a fetched page in the cache, as a page the renderer fetched is kept. */
  recordPage(narrow: NarrowTerm[], request: PageRequest, page: GetMessagesResponse): void;
}

export interface OfflineSyncOptions {
  accountId: string;
  host: SyncHost;
  cache: AccountCache;
  /** The account's offline-sync.json (sync-record.ts). */
  recordPath: string;
  activity?: ActivityTracker;
  push: (status: OfflineStatus) => void;
  /** Messages per page (default 100). */
  pageSize?: number;
  /** Pause between two requests (default 1 s). */
  pageDelayMs?: number;
  /** Input within this long counts as the person being active (default 10 s). */
  quietMs?: number;
  /** First pass after the account goes live (default 10 s), then a pass this often (default 15 min). */
  startDelayMs?: number;
  intervalMs?: number;
  /** Least time between two status pushes (default 250 ms). */
  pushThrottleMs?: number;
  now?: () => number;
}

/** Why a pass stopped before its end. */
class PassStopped extends Error {
  constructor(readonly state: OfflineStatus['state'] | 'cancelled') {
    super(state);
  }
}

/** Evicting brings the cache this far under its budget, so eviction is not run for every page. */
const EVICT_TO = 0.9;

export class OfflineSync {
  private record: SyncRecord;
  private state: OfflineStatus['state'] = 'idle';
  private error: string | null = null;
  private running: Promise<void> | null = null;
  /** Bumped to cancel a running pass (clear, settings changed, stop). */
  private generation = 0;
  private forced = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pushTimer: ReturnType<typeof setTimeout> | null = null;
  private lastPushAt = 0;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly options: OfflineSyncOptions) {
    this.record = readSyncRecord(options.recordPath);
    this.now = options.now ?? Date.now;
  }

  get settings(): OfflineSettings {
    return this.record.settings;
  }

  status(): OfflineStatus {
    const { cache } = this.options;
    const open = !cache.isClosed;
    return {
      accountId: this.options.accountId,
      settings: this.record.settings,
      state: this.state,
      conversationsSynced: this.record.conversationsSynced,
      conversationsKnown: this.record.conversationsKnown,
      messages: open ? cache.store.count() : 0,
      bytes: open ? cache.bytesOnDisk() : 0,
      lastSyncAt: this.record.lastSyncAt,
      error: this.error,
    };
  }

  /** The account went live: a pass soon (the first after start, or after being offline). */
  wake(): void {
    if (this.state === 'offline') this.setState('idle');
    this.schedule(this.options.startDelayMs ?? 10_000);
  }

  /** "Sync now": a pass at once, even while the person is active; resolves when it has started. */
  syncNow(): OfflineStatus {
    if (this.state === 'disk-full' || this.state === 'error') this.setState('idle');
    this.forced = true;
    if (!this.running) this.startPass();
    return this.status();
  }

  /** "Clear offline data": every cached message and the index go; the snapshot and queues stay. */
  clear(): OfflineStatus {
    this.generation += 1; // a running pass stops before its next page
    const { cache } = this.options;
    if (!cache.isClosed) cache.write((store) => store.clear());
    this.record = { ...this.record, conversationsSynced: 0, lastSyncAt: null };
    this.saveRecord();
    if (this.state === 'disk-full' || this.state === 'syncing' || this.state === 'paused')
      this.setState('idle');
    this.pushSoon();
    return this.status();
  }

  setSettings(settings: OfflineSettings): OfflineStatus {
    const before = this.record.settings;
    this.record = { ...this.record, settings };
    this.saveRecord();
    if (before.days !== settings.days || before.enabled !== settings.enabled) {
      this.generation += 1;
      if (settings.enabled) this.schedule(0);
    }
    if (settings.budgetBytes < before.budgetBytes) this.enforceBudget();
    this.pushSoon();
    return this.status();
  }

  /** A write failed for lack of disk space (a page, or the event log): stop until told to go on. */
  noteDiskFull(): void {
    this.generation += 1;
    this.error = 'The disk is full: offline sync stopped. Free some space, then choose Sync now.';
    this.setState('disk-full');
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    if (this.timer) clearTimeout(this.timer);
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.timer = this.pushTimer = null;
  }

  /** Resolves when the running pass (if any) has ended. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.running && this.record.settings.enabled && this.state !== 'disk-full')
        this.startPass();
      this.schedule(this.options.intervalMs ?? 15 * 60_000);
    }, delayMs);
  }

  private startPass(): void {
    const generation = ++this.generation;
    this.running = this.pass(generation).finally(() => {
      this.running = null;
      this.forced = false;
    });
  }

  private async pass(generation: number): Promise<void> {
    const { host, cache } = this.options;
    this.error = null;
    try {
      await this.turn(generation);
      const register = host.register;
      if (!register) throw new PassStopped('offline');
      this.setState('syncing');
      const plan = await planConversations(register, async (streamId) => {
        await this.turn(generation);
        const answer = await this.call(() =>
          host.client.call(
            endpoints.getStreamTopics,
            { stream_id: streamId, allow_empty_topic_name: true },
            { waitOnRateLimit: false },
          ),
        );
        return answer.topics;
      });
      this.record = { ...this.record, conversationsKnown: plan.length, conversationsSynced: 0 };
      let synced = 0;
      for (let i = 0; i < plan.length; i += 1) {
        const outcome = await this.syncConversation(plan[i], generation);
        if (outcome === 'too-old') {
          // Ordered by last activity: every conversation after this one is older still.
          this.record = { ...this.record, conversationsKnown: i };
          break;
        }
        if (outcome === 'budget-full') break;
        synced += 1;
        this.record = { ...this.record, conversationsSynced: synced };
        this.pushSoon();
      }
      this.record = { ...this.record, lastSyncAt: this.now() };
      this.saveRecord();
      this.setState('idle');
    } catch (error) {
      if (cache.isClosed) return;
      if (error instanceof PassStopped) {
        if (error.state !== 'cancelled') this.setState(error.state);
        this.saveRecord();
        return;
      }
      if (isDiskFull(error)) {
        this.noteDiskFull();
        return;
      }
      if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) {
        this.setState('offline');
        return;
      }
      this.error = (error as Error).message;
      this.setState('error');
    }
  }

  /**
   * One conversation, newest page first, back until its oldest message or the `days` horizon. A
   * conversation whose kept span already reaches its newest message starts below that span.
   */
  private async syncConversation(
    planned: PlannedConversation,
    generation: number,
  ): Promise<'done' | 'too-old' | 'budget-full'> {
    const { cache, host } = this.options;
    const horizon = Math.floor(this.now() / 1000) - this.record.settings.days * 86_400;
    const newest = cache.store.get(planned.maxId);
    if (newest && newest.timestamp < horizon) return 'too-old';
    cache.write((store) => store.reopenIfCurrent(planned.conversation, planned.maxId));
    const kept = cache.store.syncedDownTo(planned.conversation);
    let anchor: number | 'newest' = 'newest';
    if (kept?.newest) {
      if (kept.oldest) return 'done';
      if (cache.store.coverage(planned.conversation, horizon) === 'synced') return 'done';
      anchor = kept.lo;
    }
    for (let first = true; ; first = false) {
      await this.turn(generation);
      const request: PageRequest = {
        anchor,
        numBefore: this.options.pageSize ?? 100,
        numAfter: 0,
        includeAnchor: anchor === 'newest',
      };
      const page = await this.call(() =>
        host.client.call(
          endpoints.getMessages,
          {
            anchor: request.anchor,
            num_before: request.numBefore,
            num_after: 0,
            include_anchor: request.includeAnchor,
            narrow: planned.narrow,
            apply_markdown: true,
            client_gravatar: false,
            allow_empty_topic_name: true,
          },
          { waitOnRateLimit: false },
        ),
      );
      if (generation !== this.generation) throw new PassStopped('cancelled');
      host.recordPage(planned.narrow, request, page);
      if (this.state === 'disk-full') throw new PassStopped('disk-full');
      const ids = page.messages.map((m) => m.id);
      const oldestId = ids.length ? Math.min(...ids) : null;
      if (first && anchor === 'newest' && page.messages.length > 0) {
        const newestTs = Math.max(...page.messages.map((m) => m.timestamp));
        if (newestTs < horizon) return 'too-old';
      }
      if (this.enforceBudget() && oldestId !== null && !cache.store.get(oldestId))
        return 'budget-full'; // what was just fetched is already the oldest history kept
      if (page.found_oldest || oldestId === null) return 'done';
      const oldest = page.messages.find((m) => m.id === oldestId)!;
      if (oldest.timestamp < horizon) return 'done';
      anchor = oldestId;
      this.pushSoon();
    }
  }

  /**
   * Waits for the right moment for the next request: the account live (else the pass stops as
   * offline), the person not using the app (unless "Sync now"), and a pause after the last request.
   */
  private async turn(generation: number): Promise<void> {
    await sleep(this.options.pageDelayMs ?? 1_000);
    for (;;) {
      if (generation !== this.generation || this.stopped) throw new PassStopped('cancelled');
      if (this.options.cache.isClosed) throw new PassStopped('cancelled');
      if (!this.options.host.isOnline()) throw new PassStopped('offline');
      if (this.state === 'disk-full') throw new PassStopped('disk-full');
      if (this.forced || !this.personActive()) break;
      this.setState('paused');
      await sleep(Math.min(1_000, this.options.quietMs ?? 10_000));
    }
    if (this.state === 'paused' || this.state === 'idle') this.setState('syncing');
  }

  private personActive(): boolean {
    const activity = this.options.activity;
    if (!activity) return false;
    return activity.userInputSince(this.now() - (this.options.quietMs ?? 10_000));
  }

  /** A request, with the server's 429 waited out (paused meanwhile) for as long as it asks. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await request();
      } catch (error) {
        if (!(error instanceof ApiError) || error.kind !== 'rate_limited') throw error;
        this.setState('paused');
        await sleep(retryAfterMs(error));
        this.setState('syncing');
      }
    }
  }

  /** Evicts the oldest history while the cache is over budget; true when it evicted anything. */
  private enforceBudget(): boolean {
    const { cache } = this.options;
    const budget = this.record.settings.budgetBytes;
    if (cache.isClosed || cache.usedBytes() <= budget) return false;
    // As many of the oldest messages as the excess holds, at their average stored size, in one
    // go: the full-text index frees its pages only at its own later merges, so waiting for the file
    // to shrink below the budget could evict everything.
    const { count, bytes } = cache.store.payloadSize();
    const used = cache.usedBytes();
    const perMessage = Math.max(1, bytes / Math.max(1, count));
    const excess = used - budget * EVICT_TO;
    // Never more than half at once: what the index still holds is counted in `used` too.
    const n = Math.min(Math.ceil(excess / perMessage), Math.ceil(count / 2));
    const evicted = cache.write((store) => store.evictOldest(n)) > 0;
    this.pushSoon();
    return evicted;
  }

  private setState(state: OfflineStatus['state']): void {
    if (this.state === state) return;
    this.state = state;
    if (state !== 'disk-full' && state !== 'error') this.error = null;
    this.pushSoon();
  }

  private saveRecord(): void {
    try {
      writeSyncRecord(this.options.recordPath, this.record);
    } catch (error) {
      if (isDiskFull(error)) this.noteDiskFull();
      else throw error;
    }
  }

  /** Pushes the status now, or at the end of the throttle window (the latest status wins). */
  private pushSoon(): void {
    if (this.stopped || this.pushTimer) return;
    const wait = Math.max(0, this.lastPushAt + (this.options.pushThrottleMs ?? 250) - this.now());
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      if (this.stopped || this.options.cache.isClosed) return;
      this.lastPushAt = this.now();
      this.options.push(this.status());
    }, wait);
  }
}
