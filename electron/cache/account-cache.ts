// One account's local cache: a SQLite file (WAL, synchronous=NORMAL) holding the last register
// snapshot, the events delivered since it (appended in batches at most every FLUSH_MS), the messages
// of recently opened conversations, and the conversation open last. Every payload is sealed with
// cache-cipher.ts. A new snapshot replaces the old one and its events in one transaction: that is the
// compaction, and the session asks for one (a re-registration) when the event log grows too big.
//
// Crash safety comes from SQLite: each flush is one transaction, and in WAL mode a process killed at
// any point leaves the last committed state. At most the events not yet flushed are lost.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import type { ServerEvent } from '../../shared/api/events';
import type { SnapshotMessage } from '../../shared/ipc/accounts';
import { narrowKey, type NarrowMatchContext, type NarrowTerm } from '../../shared/narrow';
import { CacheCipher } from './cache-cipher';
import {
  cutPage,
  mergePage,
  withoutMessages,
  type CachedRun,
  type PageRequest,
} from './cached-pages';
import { isSearchNarrow, searchCachedMessages } from './cached-search';

/** Events wait in memory at most this long before they are committed. */
export const FLUSH_MS = 500;
/** Conversations kept; the one fetched longest ago goes first. */
export const MAX_CACHED_NARROWS = 30;
/** Messages kept per conversation: its newest. */
export const MAX_MESSAGES_PER_NARROW = 300;
/** Beyond this many bytes of stored events, a fresh snapshot is cheaper to start from. */
export const MAX_EVENT_BYTES = 32 * 1024 * 1024;

const SCHEMA_VERSION = 1;

export interface CacheContents {
  snapshot: SnapshotMessage | null;
  events: ServerEvent[];
  lastNarrow: NarrowTerm[] | null;
}

export interface AccountCacheOptions {
  flushMs?: number;
  now?: () => number;
}

export class AccountCache {
  private readonly db: Database.Database;
  private readonly cipher: CacheCipher;
  private readonly flushMs: number;
  private readonly now: () => number;
  private pending: ServerEvent[] = [];
  private pendingSince = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private runs: Map<string, CachedRun> | null = null;
  private dirtyRuns = new Set<string>();
  private eventBytes = 0;
  private closed = false;
  private preloaded: CacheContents | null = null;

  /** Opens (or creates) the cache; a file that cannot be read with this key is started afresh. */
  static open(path: string, keyBase64: string, options: AccountCacheOptions = {}): AccountCache {
    try {
      const cache = new AccountCache(path, keyBase64, options);
      // Proves the key opens it; kept for the first load() so start-up reads the file once.
      cache.preloaded = cache.load();
      return cache;
    } catch (error) {
      console.warn(
        `Tributary: cache ${path} unreadable (${(error as Error).message}); starting empty`,
      );
      deleteCacheFiles(path);
      return new AccountCache(path, keyBase64, options);
    }
  }

  private constructor(
    private readonly path: string,
    keyBase64: string,
    options: AccountCacheOptions,
  ) {
    this.cipher = new CacheCipher(keyBase64);
    this.flushMs = options.flushMs ?? FLUSH_MS;
    this.now = options.now ?? Date.now;
    // Created 0600 before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
    closeSync(openSync(path, 'a', 0o600));
    this.db = new Database(path);
    try {
      this.db.pragma('auto_vacuum = FULL'); // only takes effect on a new file: freed pages shrink it
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, count INTEGER NOT NULL, payload BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS narrows (tag TEXT PRIMARY KEY, used_at INTEGER NOT NULL, payload BLOB NOT NULL);
      `);
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version !== 0 && version !== SCHEMA_VERSION) throw new Error(`cache version ${version}`);
      if (version === 0) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      this.eventBytes = (
        this.db.prepare('SELECT COALESCE(SUM(LENGTH(payload)), 0) AS n FROM events').get() as {
          n: number;
        }
      ).n;
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** What the last run left: the snapshot, every event committed after it, the last conversation. */
  load(): CacheContents {
    if (this.preloaded) {
      const contents = this.preloaded;
      this.preloaded = null;
      return contents;
    }
    const snapshotRow = this.db.prepare("SELECT value FROM meta WHERE name = 'snapshot'").get() as
      { value: Buffer } | undefined;
    const snapshot = snapshotRow
      ? (JSON.parse(this.cipher.open(snapshotRow.value, 'meta:snapshot')) as SnapshotMessage)
      : null;
    const events: ServerEvent[] = [];
    if (snapshot) {
      const rows = this.db.prepare('SELECT seq, payload FROM events ORDER BY seq').all() as {
        seq: number;
        payload: Buffer;
      }[];
      for (const row of rows) {
        const batch = JSON.parse(
          this.cipher.open(row.payload, `events:${row.seq}`),
        ) as ServerEvent[];
        for (const event of batch) events.push(event);
      }
    }
    const routeRow = this.db.prepare("SELECT value FROM meta WHERE name = 'lastNarrow'").get() as
      { value: Buffer } | undefined;
    const lastNarrow = routeRow
      ? (JSON.parse(this.cipher.open(routeRow.value, 'meta:lastNarrow')) as NarrowTerm[])
      : null;
    return { snapshot, events, lastNarrow };
  }

  /** A fresh registration: replaces the snapshot and drops the events before it, atomically. */
  saveSnapshot(snapshot: SnapshotMessage): void {
    if (this.closed) return;
    this.preloaded = null;
    this.pending = [];
    this.cancelTimer();
    const sealed = this.cipher.seal(JSON.stringify(snapshot), 'meta:snapshot');
    this.db.transaction(() => {
      this.db
        .prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('snapshot', ?)")
        .run(sealed);
      this.db.prepare('DELETE FROM events').run();
    })();
    this.eventBytes = 0;
  }

  /**
   * Queues events for the next flush. The flush runs on a timer, and also right here when the oldest
   * queued event has waited FLUSH_MS: a busy event loop that starves the timer still commits.
   */
  appendEvents(events: readonly ServerEvent[]): void {
    if (this.closed || events.length === 0) return;
    this.preloaded = null;
    if (this.pending.length === 0) this.pendingSince = this.now();
    for (const event of events) this.pending.push(event);
    if (this.now() - this.pendingSince >= this.flushMs) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Bytes of events stored since the snapshot. */
  get storedEventBytes(): number {
    return this.eventBytes;
  }

  /** Commits queued events (and the conversations they changed) in one transaction. */
  flush(): void {
    this.cancelTimer();
    if (this.closed || (this.pending.length === 0 && this.dirtyRuns.size === 0)) return;
    const events = this.pending;
    this.pending = [];
    this.applyToRuns(events);
    const sealedRuns = [...this.dirtyRuns].map((tag) => {
      const run = this.runs!.get(tag);
      return { tag, payload: run ? this.cipher.seal(JSON.stringify(run), `narrows:${tag}`) : null };
    });
    this.dirtyRuns.clear();
    this.db.transaction(() => {
      if (events.length > 0) {
        const seq = this.nextEventSeq();
        const payload = this.cipher.seal(JSON.stringify(events), `events:${seq}`);
        this.db
          .prepare('INSERT INTO events (seq, count, payload) VALUES (?, ?, ?)')
          .run(seq, events.length, payload);
        this.eventBytes += payload.length;
      }
      for (const { tag, payload } of sealedRuns) {
        if (payload)
          this.db.prepare('UPDATE narrows SET payload = ? WHERE tag = ?').run(payload, tag);
      }
    })();
  }

  /** Keeps a page of a conversation the renderer fetched from the server. */
  recordPage(narrow: NarrowTerm[], request: PageRequest, page: GetMessagesResponse): void {
    if (this.closed || isSearchNarrow(narrow)) return;
    const runs = this.loadRuns();
    const tag = this.cipher.tag(narrowKey(narrow));
    const run = mergePage(runs.get(tag), narrow, request, page, MAX_MESSAGES_PER_NARROW);
    runs.set(tag, run);
    this.dirtyRuns.delete(tag);
    const payload = this.cipher.seal(JSON.stringify(run), `narrows:${tag}`);
    this.db.transaction(() => {
      this.db
        .prepare('INSERT OR REPLACE INTO narrows (tag, used_at, payload) VALUES (?, ?, ?)')
        .run(tag, this.now(), payload);
      const evicted = this.db
        .prepare('SELECT tag FROM narrows ORDER BY used_at DESC LIMIT -1 OFFSET ?')
        .all(MAX_CACHED_NARROWS) as { tag: string }[];
      for (const old of evicted) {
        this.db.prepare('DELETE FROM narrows WHERE tag = ?').run(old.tag);
        runs.delete(old.tag);
      }
    })();
  }

  /**
   * The answer to a getMessages call from what is cached: a conversation's kept messages, or for a
   * search every cached message that matches. Null when the conversation was never kept.
   */
  cachedPage(
    narrow: NarrowTerm[],
    request: PageRequest,
    ctx: NarrowMatchContext,
  ): GetMessagesResponse | null {
    const runs = this.loadRuns();
    const run = runs.get(this.cipher.tag(narrowKey(narrow)));
    if (run)
      return cutPage(run.messages, request, { oldest: run.foundOldest, newest: run.foundNewest });
    if (!isSearchNarrow(narrow)) return null;
    const all = [...runs.values()].flatMap((r) => r.messages);
    // Offline, what the cache holds is all there is: both ends are "found", so the list stops asking.
    return cutPage(searchCachedMessages(all, narrow, ctx), request, { oldest: true, newest: true });
  }

  /**
   * The conversation the person had open, to show first on the next launch; null when they left
   * conversations for the Inbox or Recent conversations (the next launch opens their home view).
   */
  setLastNarrow(narrow: NarrowTerm[] | null): void {
    if (this.closed) return;
    this.preloaded = null;
    if (narrow === null) {
      this.db.prepare("DELETE FROM meta WHERE name = 'lastNarrow'").run();
      return;
    }
    this.db
      .prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('lastNarrow', ?)")
      .run(this.cipher.seal(JSON.stringify(narrow), 'meta:lastNarrow'));
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.db.close();
  }

  /** Closes the cache and removes its files (sign-out, account removed). */
  destroy(): void {
    this.pending = [];
    this.dirtyRuns.clear();
    this.close();
    deleteCacheFiles(this.path);
  }

  private nextEventSeq(): number {
    const row = this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM events').get() as {
      seq: number;
    };
    return row.seq;
  }

  private loadRuns(): Map<string, CachedRun> {
    if (this.runs) return this.runs;
    const runs = new Map<string, CachedRun>();
    const rows = this.db.prepare('SELECT tag, payload FROM narrows').all() as {
      tag: string;
      payload: Buffer;
    }[];
    for (const row of rows) {
      runs.set(
        row.tag,
        JSON.parse(this.cipher.open(row.payload, `narrows:${row.tag}`)) as CachedRun,
      );
    }
    this.runs = runs;
    return runs;
  }

  /** Deleted messages leave the kept conversations, so an offline answer never shows them again. */
  private applyToRuns(events: readonly ServerEvent[]): void {
    const deleted = new Set<number>();
    for (const event of events) {
      if (event.type === 'delete_message') for (const id of event.message_ids) deleted.add(id);
    }
    if (deleted.size === 0) return;
    const runs = this.loadRuns();
    for (const [tag, run] of runs) {
      const next = withoutMessages(run, deleted);
      if (next !== run) {
        runs.set(tag, next);
        this.dirtyRuns.add(tag);
      }
    }
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export function deleteCacheFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file)) rmSync(file, { force: true });
  }
}
