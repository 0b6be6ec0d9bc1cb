// The cached messages of one account: one row per message (the message sealed, beside it the plain
// columns narrows are answered from: ids, channel id, sender id, time, flags and "has" bits, and the
// conversation as a keyed HMAC), and the spans of each conversation whose every message is here.
//
// Spans are what `offline_coverage` is made of. A page fetched for a conversation (the renderer's,
// or background sync's) says "every message of this conversation between these ids is in the page";
// overlapping or adjacent spans merge. A span that reached the conversation's newest message stays
// open (`newest`) while events are applied, since every new message of it arrives as an event; a new
// registration closes every open span (events between two event queues are lost), and sync opens it
// again when the conversation's newest id is inside it.
//
// SQLite side only; the file, its schema version and the event log are account-cache.ts's.
import type Database from 'better-sqlite3';
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import type { Message, MessageWithFlags } from '../../shared/api/types';
import type { MessagesPage, OfflineCoverage } from '../../shared/ipc/chat';
import {
  messageMatchesNarrow,
  type NarrowMatchContext,
  type NarrowTerm,
} from '../../shared/narrow';
import type { CacheCipher } from './cache-cipher';
import { cutPage, type PageRequest } from './cached-pages';
import { conversationOf, flagBits, flagsOf, hasBits, narrowConversation } from './message-columns';
import type { SearchIndex } from './search-index';
import { storeQuery } from './store-query';

/** Most ids a keyword search takes from the index (newest first). */
const SEARCH_LIMIT = 5_000;

interface Span {
  lo: number;
  hi: number;
  oldest: boolean;
  newest: boolean;
}

interface IdRow {
  id: number;
  flags: number;
}

export const MESSAGE_TABLES = `
  CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    conv TEXT NOT NULL,
    stream_id INTEGER,
    sender_id INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    flags INTEGER NOT NULL,
    has INTEGER NOT NULL,
    payload BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS messages_conv ON messages (conv, id);
  CREATE INDEX IF NOT EXISTS messages_stream ON messages (stream_id, id);
  CREATE INDEX IF NOT EXISTS messages_sender ON messages (sender_id, id);
  CREATE TABLE IF NOT EXISTS spans (
    conv TEXT NOT NULL,
    lo INTEGER NOT NULL,
    hi INTEGER NOT NULL,
    oldest INTEGER NOT NULL,
    newest INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS spans_conv ON spans (conv);
`;

const effectiveHi = (span: Span) => (span.newest ? Number.MAX_SAFE_INTEGER : span.hi);

export class MessageStore {
  constructor(
    private readonly db: Database.Database,
    private readonly cipher: CacheCipher,
    private readonly index: SearchIndex,
  ) {}

  /** The keyed name of a conversation, as stored. */
  tag(conversation: string): string {
    return this.cipher.tag(conversation);
  }

  get(id: number): MessageWithFlags | null {
    const row = this.db.prepare('SELECT id, flags, payload FROM messages WHERE id = ?').get(id) as
      { id: number; flags: number; payload: Buffer } | undefined;
    return row ? this.open(row) : null;
  }

  /** Stores messages as given (a newer copy replaces the older) and indexes their words. */
  put(messages: readonly MessageWithFlags[], reindex = true): void {
    if (messages.length === 0) return;
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO messages (id, conv, stream_id, sender_id, ts, flags, has, payload)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const message of messages) {
      const { flags, match_content: _c, match_subject: _s, ...rest } = message;
      insert.run(
        message.id,
        this.tag(conversationOf(message)),
        message.type === 'stream' ? message.stream_id : null,
        message.sender_id,
        message.timestamp,
        flagBits(flags ?? []),
        hasBits(message),
        this.cipher.seal(JSON.stringify(rest), `messages:${message.id}`),
      );
    }
    if (reindex) {
      this.index.add(
        messages.map((m) => ({ id: m.id, topic: m.subject, contentHtml: m.content ?? '' })),
      );
    }
  }

  /** A new message from the event stream: stored, and the conversation's open span grows with it. */
  addNew(message: MessageWithFlags): void {
    this.put([message]);
    this.db
      .prepare('UPDATE spans SET hi = MAX(hi, ?) WHERE conv = ? AND newest = 1')
      .run(message.id, this.tag(conversationOf(message)));
  }

  remove(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.db
      .prepare('DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?))')
      .run(JSON.stringify(ids));
    this.index.remove(ids);
  }

  setFlag(ids: readonly number[] | 'all', bit: number, on: boolean): void {
    const set = on ? 'flags = flags | ?' : 'flags = flags & ~?';
    if (ids === 'all') this.db.prepare(`UPDATE messages SET ${set}`).run(bit);
    else
      this.db
        .prepare(`UPDATE messages SET ${set} WHERE id IN (SELECT value FROM json_each(?))`)
        .run(bit, JSON.stringify(ids));
  }

  /**
   * Moved messages left their conversation (its spans stay true: fewer messages) and joined
   * another, which is complete only if every moved message was here to join it.
   */
  dropSpans(conversation: string): void {
    this.db.prepare('DELETE FROM spans WHERE conv = ?').run(this.tag(conversation));
  }

  /** Keeps a page fetched from the server: its messages, and for a conversation, its span. */
  recordPage(
    narrow: readonly NarrowTerm[],
    request: PageRequest,
    page: GetMessagesResponse,
    ctx: NarrowMatchContext,
  ): void {
    this.put(page.messages as MessageWithFlags[]);
    const conversation = narrowConversation(narrow, ctx);
    if (!conversation) return;
    const span = pageSpan(page, request);
    if (!span) return;
    const tag = this.tag(conversation);
    // Within its span the page is the truth: a kept message it lacks was deleted or moved away
    // while nobody listened.
    const ids = page.messages.map((m) => m.id);
    const gone = (
      this.db
        .prepare(
          `SELECT id FROM messages WHERE conv = ? AND id BETWEEN ? AND ?
           AND id NOT IN (SELECT value FROM json_each(?))`,
        )
        .all(tag, span.lo, effectiveHi(span), JSON.stringify(ids)) as { id: number }[]
    ).map((r) => r.id);
    this.remove(gone);
    this.addSpan(tag, span);
  }

  /**
   * Sync learned the conversation's newest message id: a span reaching it is complete up to the
   * newest message again (after a new registration closed it), without fetching anything.
   */
  reopenIfCurrent(conversation: string, newestId: number): boolean {
    const result = this.db
      .prepare('UPDATE spans SET newest = 1 WHERE conv = ? AND newest = 0 AND hi >= ?')
      .run(this.tag(conversation), newestId);
    return result.changes > 0 || this.coverageSpan(this.tag(conversation))?.newest === true;
  }

  /** Events between two event queues are lost: no conversation is known complete to its newest. */
  closeOpenSpans(): void {
    this.db.prepare('UPDATE spans SET newest = 0 WHERE newest = 1').run();
  }

  /** How much of a conversation is here: history back to `horizon` (unix seconds) and to now. */
  coverage(conversation: string, horizon: number): OfflineCoverage {
    const tag = this.tag(conversation);
    const span = this.coverageSpan(tag);
    if (span?.newest) {
      if (span.oldest) return 'synced';
      const first = this.db
        .prepare('SELECT ts FROM messages WHERE conv = ? AND id >= ? ORDER BY id LIMIT 1')
        .get(tag, span.lo) as { ts: number } | undefined;
      if (first && first.ts <= horizon) return 'synced';
    }
    if (span) return 'partial';
    const any = this.db.prepare('SELECT 1 FROM messages WHERE conv = ? LIMIT 1').get(tag);
    return any ? 'partial' : 'never';
  }

  /** Where a conversation's kept history starts: the oldest message id a sync has fetched down to. */
  syncedDownTo(conversation: string): { lo: number; oldest: boolean; newest: boolean } | null {
    return this.coverageSpan(this.tag(conversation));
  }

  /**
   * The answer to getMessages from the store. A conversation is cut from the span the anchor is in
   * (its ends say whether the list may ask for more); any other narrow from every matching message,
   * with both ends "found": offline, what is here is all there is.
   */
  page(
    narrow: readonly NarrowTerm[],
    request: PageRequest,
    ctx: NarrowMatchContext,
    horizon: number,
  ): MessagesPage {
    const conversation = narrowConversation(narrow, ctx);
    if (conversation) return this.conversationPage(conversation, request, horizon);
    const query = storeQuery(narrow, ctx, (conversation) => this.tag(conversation));
    const where = [...query.where];
    const params: unknown[] = [...query.params];
    if (query.search !== null) {
      where.push('id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(this.index.search(query.search, SEARCH_LIMIT)));
    }
    const sql = `SELECT id, flags, payload FROM messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`;
    const found = { oldest: true, newest: true };
    const coverage = this.anyMessages() ? 'partial' : 'never';
    if (query.residual.length > 0) {
      // Terms the columns cannot decide: open the candidates and let the matcher decide.
      const rows = this.db.prepare(sql).all(...params) as (IdRow & { payload: Buffer })[];
      const matching = rows
        .map((row) => this.open(row))
        .filter((m) => messageMatchesNarrow(m, query.residual, ctx) === true);
      const cut = cutPage(matching, request, found);
      return this.answer(cut, cut.messages, coverage);
    }
    // Decided by the columns alone: cut the ids, open only the page.
    const rows = this.db.prepare(sql.replace(', payload', '')).all(...params) as IdRow[];
    const cut = cutPage(rows.map(lightRow), request, found);
    return this.answer(cut, this.openAll(cut.messages.map((m) => m.id)), coverage);
  }

  /** A channel's topics as far as the cache knows them, newest first (as the server lists them). */
  topics(streamId: number): { name: string; max_id: number }[] {
    const newest = this.db
      .prepare('SELECT MAX(id) AS id FROM messages WHERE stream_id = ? GROUP BY conv')
      .all(streamId) as { id: number }[];
    return this.openAll(newest.map((r) => r.id))
      .map((m) => ({ name: m.subject, max_id: m.id }))
      .sort((a, b) => b.max_id - a.max_id);
  }

  /** Evicts the `count` oldest messages; spans that started there now start after them. */
  evictOldest(count: number): number {
    const rows = this.db.prepare('SELECT id FROM messages ORDER BY id LIMIT ?').all(count) as {
      id: number;
    }[];
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    const last = ids[ids.length - 1];
    this.remove(ids);
    this.db.prepare('DELETE FROM spans WHERE hi <= ? AND newest = 0').run(last);
    this.db.prepare('UPDATE spans SET lo = ?, oldest = 0 WHERE lo <= ?').run(last + 1, last);
    return ids.length;
  }

  /** Clear offline data: every message, span and indexed word. */
  clear(): void {
    this.db.exec('DELETE FROM messages; DELETE FROM spans;');
    this.index.clear();
  }

  /** How many messages are kept and the bytes of their sealed payloads. */
  payloadSize(): { count: number; bytes: number } {
    return this.db
      .prepare('SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(payload)), 0) AS bytes FROM messages')
      .get() as { count: number; bytes: number };
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
  }

  private anyMessages(): boolean {
    return this.db.prepare('SELECT 1 FROM messages LIMIT 1').get() !== undefined;
  }

  private conversationPage(
    conversation: string,
    request: PageRequest,
    horizon: number,
  ): MessagesPage {
    const tag = this.tag(conversation);
    const spans = this.spans(tag);
    const rows = this.db
      .prepare('SELECT id, flags FROM messages WHERE conv = ? ORDER BY id')
      .all(tag) as IdRow[];
    const coverage = this.coverage(conversation, horizon);
    if (rows.length === 0 && spans.length === 0) {
      // Never kept: an empty answer that stops the list asking; the coverage says why it is empty.
      const empty = cutPage([], request, { oldest: true, newest: true });
      return this.answer(empty, [], coverage);
    }
    const span = pickSpan(spans, rows, request);
    const inSpan = span ? rows.filter((r) => r.id >= span.lo && r.id <= effectiveHi(span)) : rows;
    const cut = cutPage(inSpan.map(lightRow), request, {
      oldest: span?.oldest ?? false,
      newest: span?.newest ?? false,
    });
    return this.answer(cut, this.openAll(cut.messages.map((m) => m.id)), coverage);
  }

  private answer(
    cut: Omit<GetMessagesResponse, 'messages'>,
    messages: MessageWithFlags[],
    coverage: OfflineCoverage,
  ): MessagesPage {
    return { ...cut, messages, from_cache: true, offline_coverage: coverage };
  }

  private openAll(ids: readonly number[]): MessageWithFlags[] {
    if (ids.length === 0) return [];
    const rows = this.db
      .prepare(
        'SELECT id, flags, payload FROM messages WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
      )
      .all(JSON.stringify(ids)) as (IdRow & { payload: Buffer })[];
    return rows.map((row) => this.open(row));
  }

  private open(row: IdRow & { payload: Buffer }): MessageWithFlags {
    const message = JSON.parse(this.cipher.open(row.payload, `messages:${row.id}`)) as Message;
    return { ...message, flags: flagsOf(row.flags) };
  }

  private spans(tag: string): Span[] {
    return (
      this.db
        .prepare('SELECT lo, hi, oldest, newest FROM spans WHERE conv = ? ORDER BY lo')
        .all(tag) as { lo: number; hi: number; oldest: number; newest: number }[]
    ).map((s) => ({ lo: s.lo, hi: s.hi, oldest: !!s.oldest, newest: !!s.newest }));
  }

  /** The span that matters for coverage: the newest one. */
  private coverageSpan(tag: string): Span | null {
    const spans = this.spans(tag);
    return spans[spans.length - 1] ?? null;
  }

  private addSpan(tag: string, added: Span): void {
    let merged = added;
    const apart: Span[] = [];
    for (const span of this.spans(tag)) {
      const touches = span.lo <= effectiveHi(merged) + 1 && merged.lo <= effectiveHi(span) + 1;
      if (!touches) {
        apart.push(span);
        continue;
      }
      merged = {
        lo: Math.min(span.lo, merged.lo),
        hi: Math.max(span.hi, merged.hi),
        oldest: span.oldest || merged.oldest,
        newest: span.newest || merged.newest,
      };
    }
    this.db.prepare('DELETE FROM spans WHERE conv = ?').run(tag);
    const insert = this.db.prepare(
      'INSERT INTO spans (conv, lo, hi, oldest, newest) VALUES (?, ?, ?, ?, ?)',
    );
    for (const span of [...apart, merged])
      insert.run(tag, span.lo, span.hi, span.oldest ? 1 : 0, span.newest ? 1 : 0);
  }
}

const lightRow = (row: IdRow) => ({ id: row.id, flags: flagsOf(row.flags) });

/**
 * The ids a page vouches for: from its first to its last message, stretched to the anchor on a side
 * it did not ask for (a page of older messages covers up to its anchor), to 0 when it found the
 * oldest. Null when it vouches for nothing.
 */
export function pageSpan(page: GetMessagesResponse, request: PageRequest): Span | null {
  const ids = page.messages.map((m) => m.id);
  let lo = ids.length ? Math.min(...ids) : undefined;
  let hi = ids.length ? Math.max(...ids) : undefined;
  if (typeof request.anchor === 'number') {
    const include = request.includeAnchor ?? true;
    const anchor = request.anchor;
    if (request.numAfter === 0) hi = Math.max(hi ?? -1, include ? anchor : anchor - 1);
    if (request.numBefore === 0) lo = Math.min(lo ?? Infinity, include ? anchor : anchor + 1);
  }
  if (page.found_oldest) lo = 0;
  if (page.found_newest) hi ??= lo ?? 0;
  if (lo === undefined || hi === undefined || lo > hi) return null;
  return { lo, hi, oldest: !!page.found_oldest, newest: !!page.found_newest };
}

/** The span a request reads from: the one holding its anchor, else the nearest sensible one. */
function pickSpan(spans: Span[], rows: readonly IdRow[], request: PageRequest): Span | null {
  if (spans.length === 0) return null;
  const holding = (id: number) => spans.find((s) => s.lo <= id && id <= effectiveHi(s));
  const { anchor } = request;
  if (anchor === 'oldest') return spans[0];
  if (anchor === 'newest') return spans[spans.length - 1];
  if (anchor === 'first_unread') {
    const unread = rows.find((r) => !flagsOf(r.flags).includes('read'));
    return (unread && holding(unread.id)) ?? spans[spans.length - 1];
  }
  return holding(anchor) ?? spans.find((s) => s.lo > anchor) ?? spans[spans.length - 1];
}
