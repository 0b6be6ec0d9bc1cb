// One account's local cache: a SQLite file (WAL, synchronous=NORMAL) holding the last register
// snapshot, the events delivered since it (appended in batches at most every FLUSH_MS), the message
// store (message-store.ts: every cached message, kept current by applying the events, with its
// search index), and the conversation open last. Every payload is sealed with cache-cipher.ts. A new
// snapshot replaces the old one and its events in one transaction: that is the compaction, and the
// session asks for one (a re-registration) when the event log grows too big.
//
// Crash safety comes from SQLite: each flush is one transaction, and in WAL mode a process killed at
// any point leaves the last committed state. At most the events not yet flushed are lost. A file
// that cannot be read (corrupt, truncated, another key, an older or newer schema) is set aside
// (renamed, one copy kept) and a new one started: the cache is a copy of the server, never the only
// one.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import type { ServerEvent } from '../../shared/api/events';
import type { SnapshotMessage } from '../../shared/ipc/accounts';
import type { MessagesPage } from '../../shared/ipc/chat';
import type { NarrowMatchContext, NarrowTerm } from '../../shared/narrow';
import { applyEvents, type ApplyContext } from './apply-events';
import { CacheCipher } from './cache-cipher';
import type { PageRequest } from './cached-pages';
import { MESSAGE_TABLES, MessageStore } from './message-store';
import { SearchIndex } from './search-index';
import { logTiming } from '../timing';

/** Events wait in memory at most this long before they are committed. */
export const FLUSH_MS = 500;
/** Beyond this many bytes of stored events, a fresh snapshot is cheaper to start from. */
export const MAX_EVENT_BYTES = 32 * 1024 * 1024;

/** 2: one row per message (issue #23); 1 kept runs of pages per narrow and is set aside. */
export const SCHEMA_VERSION = 2;

export interface CacheContents {
  snapshot: SnapshotMessage | null;
  events: ServerEvent[];
  lastNarrow: NarrowTerm[] | null;
}

/**
 * The same, with the snapshot as the UTF-8 JSON it was stored as: a large organization's snapshot is
 * megabytes, and the page can be handed those bytes as they are (electron/ipc/raw-json.ts).
 */
export interface CacheRaw extends Omit<CacheContents, 'snapshot'> {
  snapshotJson: Buffer | null;
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
  private eventBytes = 0;
  /** The cached messages; write through `write()` so each change is one transaction. */
  readonly store: MessageStore;
  /** Realm lookups for applying events (the session sets them from its snapshot). */
  applyContext: ApplyContext = {};
  /** Told when a write failed for lack of disk space (events stay queued for the next flush). */
  onDiskFull: (() => void) | null = null;
  private closed = false;
  private preloaded: CacheRaw | null = null;

  /** Opens (or creates) the cache; a file that cannot be read with this key is started afresh. */
  static open(path: string, keyBase64: string, options: AccountCacheOptions = {}): AccountCache {
    try {
      logTiming('cache-open');
      const cache = new AccountCache(path, keyBase64, options);
      // Proves the key opens it (GCM authenticates every row); kept for the first load so start-up
      // reads the file once. The snapshot is not parsed here: main may never need it as an object
      // before the page has it.
      cache.preloaded = cache.loadRaw();
      logTiming('cache-opened');
      return cache;
    } catch (error) {
      console.warn(
        `Tributary: cache ${path} unreadable (${(error as Error).message}); set aside as ${setAsidePath(path)}, starting empty`,
      );
      setAsideCacheFiles(path);
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
    const fresh = isNewFile(path);
    // Created 0600 before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
    closeSync(openSync(path, 'a', 0o600));
    this.db = new Database(path);
    try {
      // A new file's setup (the page size and vacuum mode, the switch to WAL, the tables) made
      // ten fsyncs, 50-115 ms of a first sign-in's wait before its register on a busy disk
      // (docs/benchmarks.md, large organization, twelfth pass). Unsynced, it holds nothing yet: a
      // crash that tears it leaves a file the next open sets aside as unreadable (or whose missing
      // tables it creates). NORMAL from the first real write on.
      if (fresh) this.db.pragma('synchronous = OFF');
      this.db.pragma('auto_vacuum = FULL'); // only takes effect on a new file: freed pages shrink it
      this.db.pragma('journal_mode = WAL');
      if (!fresh) this.db.pragma('synchronous = NORMAL');
      // Checked before anything is created: an older or newer file is set aside untouched.
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version !== 0 && version !== SCHEMA_VERSION) throw new Error(`cache version ${version}`);
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, count INTEGER NOT NULL, payload BLOB NOT NULL);
        ${MESSAGE_TABLES}
      `);
      if (version === 0) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      this.store = new MessageStore(this.db, this.cipher, new SearchIndex(this.db, keyBase64));
      if (fresh) this.db.pragma('synchronous = NORMAL');
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
    const { snapshotJson, ...rest } = this.loadRaw();
    return {
      snapshot: snapshotJson
        ? (JSON.parse(snapshotJson.toString('utf8')) as SnapshotMessage)
        : null,
      ...rest,
    };
  }

  /** load(), with the snapshot left as its UTF-8 JSON (not decoded: see CacheRaw). */
  loadRaw(): CacheRaw {
    if (this.preloaded) {
      const contents = this.preloaded;
      this.preloaded = null;
      return contents;
    }
    const snapshotRow = this.db.prepare("SELECT value FROM meta WHERE name = 'snapshot'").get() as
      { value: Buffer } | undefined;
    const snapshot = snapshotRow ? this.cipher.openBytes(snapshotRow.value, 'meta:snapshot') : null;
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
    return { snapshotJson: snapshot, events, lastNarrow };
  }

  /**
   * A fresh registration: replaces the snapshot and drops the events before it, atomically. The
   * queued events still change the messages; and since events between two queues are lost, no
   * conversation is known complete up to its newest message any more. `json`: the snapshot's JSON
   * when the caller has it already (a register's text).
   */
  saveSnapshot(snapshot: SnapshotMessage, json?: string): void {
    if (this.closed) return;
    this.preloaded = null;
    const queued = this.pending;
    this.pending = [];
    this.cancelTimer();
    const sealed = this.cipher.seal(json ?? JSON.stringify(snapshot), 'meta:snapshot');
    this.db.transaction(() => {
      applyEvents(this.store, queued, this.applyContext);
      this.store.closeOpenSpans();
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

  /** Whether a snapshot is kept (an account's first start has none). */
  hasSnapshot(): boolean {
    if (this.preloaded) return this.preloaded.snapshotJson !== null;
    return this.db.prepare("SELECT 1 FROM meta WHERE name = 'snapshot'").get() !== undefined;
  }

  /** Bytes of events stored since the snapshot. */
  get storedEventBytes(): number {
    return this.eventBytes;
  }

  /**
   * Commits queued events to the log and applies them to the messages, in one transaction. A full
   * disk keeps them queued for the next try (and says so); nothing is half-written.
   */
  flush(): void {
    this.cancelTimer();
    if (this.closed || this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    try {
      this.db.transaction(() => {
        const seq = this.nextEventSeq();
        const payload = this.cipher.seal(JSON.stringify(events), `events:${seq}`);
        this.db
          .prepare('INSERT INTO events (seq, count, payload) VALUES (?, ?, ?)')
          .run(seq, events.length, payload);
        applyEvents(this.store, events, this.applyContext);
        this.eventBytes += payload.length;
      })();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.pending = [...events, ...this.pending];
      this.timer ??= setTimeout(() => this.flush(), this.flushMs * 10);
      this.onDiskFull?.();
    }
  }

  /** Runs `change` on the messages as one transaction (after the queued events, so order holds). */
  write<T>(change: (store: MessageStore) => T): T {
    if (this.closed) throw new Error('The cache is closed');
    this.flush();
    return this.db.transaction(() => change(this.store))();
  }

  /** Keeps a page the server answered: its messages, and the span of the conversation it covers. */
  recordPage(
    narrow: NarrowTerm[],
    request: PageRequest,
    page: GetMessagesResponse,
    ctx: NarrowMatchContext,
  ): void {
    if (this.closed) return;
    this.write((store) => store.recordPage(narrow, request, page, ctx));
  }

  /**
   * The answer to a getMessages call from the cached messages, with how much of the conversation
   * is here (`offline_coverage`, history back to `horizon` in unix seconds counting as complete).
   */
  cachedPage(
    narrow: NarrowTerm[],
    request: PageRequest,
    ctx: NarrowMatchContext,
    horizon: number,
  ): MessagesPage | null {
    if (this.closed) return null;
    this.flush();
    return this.store.page(narrow, request, ctx, horizon);
  }

  /** Bytes of the cache's files on disk (the database and its write-ahead log). */
  bytesOnDisk(): number {
    let bytes = 0;
    for (const file of [this.path, `${this.path}-wal`]) {
      if (existsSync(file)) bytes += statSync(file).size;
    }
    return bytes;
  }

  /** Bytes the database's pages use (what eviction brings under the budget). */
  usedBytes(): number {
    const pages = this.db.pragma('page_count', { simple: true }) as number;
    const free = this.db.pragma('freelist_count', { simple: true }) as number;
    const size = this.db.pragma('page_size', { simple: true }) as number;
    return (pages - free) * size;
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

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    try {
      this.flush();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
    }
    this.cancelTimer();
    this.closed = true;
    this.db.close();
  }

  /** Closes the cache and removes its files (sign-out, account removed). */
  destroy(): void {
    this.pending = [];
    this.close();
    deleteCacheFiles(this.path);
  }

  private nextEventSeq(): number {
    const row = this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM events').get() as {
      seq: number;
    };
    return row.seq;
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** SQLite's "database or disk is full" (also a max_page_count reached) or the OS's ENOSPC. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

const CACHE_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

/** No file yet, or an empty one (SQLite has not written its header): nothing in it to keep. */
function isNewFile(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return true;
  }
}

export function setAsidePath(path: string): string {
  return `${path}.set-aside`;
}

/** Renames an unreadable cache out of the way (replacing an earlier set-aside copy). */
function setAsideCacheFiles(path: string): void {
  const aside = setAsidePath(path);
  for (const suffix of CACHE_FILE_SUFFIXES) rmSync(`${aside}${suffix}`, { force: true });
  for (const suffix of CACHE_FILE_SUFFIXES) {
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${aside}${suffix}`);
  }
}

/** Removes the cache and any set-aside copy of it. */
export function deleteCacheFiles(path: string): void {
  for (const base of [path, setAsidePath(path)]) {
    for (const suffix of CACHE_FILE_SUFFIXES) rmSync(`${base}${suffix}`, { force: true });
  }
}
