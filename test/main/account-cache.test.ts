// The account cache on its own: what is on disk is sealed (topics and people only as keyed names), a
// file it cannot read (another key, an older or newer schema, garbage) is set aside and a new one
// started, pages become spans of a conversation that say how much of it is here, narrows are answered
// from the plain columns, eviction takes the oldest history first, and answers are cut as the server
// would cut them.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import type { ServerEvent } from '../../shared/api/events';
import type { MessageWithFlags, RegisterResponse } from '../../shared/api/types';
import type { NarrowTerm } from '../../shared/narrow';
import { AccountCache, SCHEMA_VERSION, setAsidePath } from '../../electron/cache/account-cache';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import { cutPage } from '../../electron/cache/cached-pages';

const dir = mkdtempSync(join(tmpdir(), 'tributary-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `cache-${++files}.sqlite`);

const message = (
  id: number,
  text = `message ${id}`,
  read = true,
  subject = 'lunch',
  more: Partial<MessageWithFlags> = {},
): MessageWithFlags =>
  ({
    id,
    type: 'stream',
    stream_id: 7,
    display_recipient: 'general',
    sender_id: 1,
    subject,
    timestamp: 1_700_000_000 + id,
    content: `<p>${text}</p>`,
    reactions: [],
    submessages: [],
    flags: read ? ['read'] : [],
    ...more,
  }) as unknown as MessageWithFlags;

const pageOf = (
  ids: number[],
  oldest: boolean,
  newest: boolean,
  subject = 'x',
): GetMessagesResponse => ({
  result: 'success',
  msg: '',
  messages: ids.map((id) => message(id, `message ${id}`, true, subject)),
  found_oldest: oldest,
  found_newest: newest,
});
const ctx = { selfUserId: 1 };
/** Far in the past: any kept history counts as recent. */
const horizon = 0;

const topic = (name: string): NarrowTerm[] => [
  { operator: 'channel', operand: 7 },
  { operator: 'topic', operand: name },
];
const newest = { anchor: 'newest' as const, numBefore: 50, numAfter: 0 };

describe('account cache', () => {
  it('keeps nothing readable on disk', () => {
    const path = newPath();
    const cache = AccountCache.open(path, CacheCipher.newKey());
    const secret = 'Secret-Topic-Words';
    cache.saveSnapshot({
      accountId: 'a',
      queueId: 'q',
      register: { last_event_id: 1, realm_name: secret } as unknown as RegisterResponse,
    });
    cache.appendEvents([{ id: 2, type: 'stream', secret } as unknown as ServerEvent]);
    cache.recordPage(
      topic(secret),
      newest,
      { ...pageOf([], true, true), messages: [message(5, secret, true, secret)] },
      ctx,
    );
    cache.setLastNarrow(topic(secret));
    cache.close();
    const written = readdirSync(dir).filter((f) => f.startsWith(`cache-${files}.`));
    expect(written.length).toBeGreaterThan(0);
    for (const file of written) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(secret)).toBe(false);
      expect(bytes.includes(secret.toLowerCase())).toBe(false);
    }
  });

  it('seals text of every kind as its UTF-8 bytes, bound to its row', () => {
    const cipher = new CacheCipher(CacheCipher.newKey());
    // Latin-1 only, past it (a two-byte string), an emoji, and a lone surrogate.
    for (const text of ['plain', 'café ✓ 𝄞 日本', `{"topic":"\ud800 x"}`, 'a\udc00b']) {
      const sealed = cipher.seal(text, 'meta:snapshot');
      expect(cipher.openBytes(sealed, 'meta:snapshot')).toEqual(Buffer.from(text, 'utf8'));
      expect(cipher.open(sealed, 'meta:snapshot')).toBe(Buffer.from(text, 'utf8').toString());
      expect(() => cipher.open(sealed, 'meta:lastNarrow')).toThrow();
    }
  });

  it('sets a new file up without syncing it, then writes every file with synchronous NORMAL', () => {
    // A new file's setup synced ten times before a first sign-in's register (docs/benchmarks.md,
    // large organization, twelfth pass); a kept one must still commit with NORMAL.
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    try {
      const path = newPath();
      const key = CacheCipher.newKey();
      const fresh = AccountCache.open(path, key);
      const setup = pragma.mock.calls.map(([sql]) => sql);
      expect(setup[0]).toBe('synchronous = OFF');
      expect(setup.indexOf('synchronous = OFF')).toBeLessThan(setup.indexOf('journal_mode = WAL'));
      const connection = pragma.mock.contexts[0] as Database.Database;
      expect(connection.pragma('synchronous', { simple: true })).toBe(1);
      expect(connection.pragma('journal_mode', { simple: true })).toBe('wal');
      fresh.saveSnapshot({ accountId: 'a', queueId: 'q', register: { last_event_id: 3 } as never });
      fresh.close();

      pragma.mockClear();
      const kept = AccountCache.open(path, key);
      expect(pragma.mock.calls.map(([sql]) => sql)).not.toContain('synchronous = OFF');
      const again = pragma.mock.contexts[0] as Database.Database;
      expect(again.pragma('synchronous', { simple: true })).toBe(1);
      expect(kept.load().snapshot?.queueId).toBe('q');
      kept.close();
    } finally {
      pragma.mockRestore();
    }
  });

  it('sets aside a file the key does not open, and starts empty', () => {
    const path = newPath();
    const first = AccountCache.open(path, CacheCipher.newKey());
    first.saveSnapshot({ accountId: 'a', queueId: 'q', register: { last_event_id: 3 } as never });
    first.close();
    const other = AccountCache.open(path, CacheCipher.newKey());
    expect(other.load()).toEqual({ snapshot: null, events: [], lastNarrow: null });
    other.close();
    expect(existsSync(setAsidePath(path))).toBe(true);
  });

  it('sets aside an older, a newer and a garbage file, never crashing', () => {
    for (const version of [1, SCHEMA_VERSION + 1]) {
      const path = newPath();
      const db = new Database(path);
      db.exec('CREATE TABLE narrows (tag TEXT PRIMARY KEY, used_at INTEGER, payload BLOB)');
      db.pragma(`user_version = ${version}`);
      db.close();
      const cache = AccountCache.open(path, CacheCipher.newKey());
      expect(cache.load().snapshot).toBeNull();
      cache.recordPage(topic('x'), newest, pageOf([1], true, true), ctx);
      expect(cache.cachedPage(topic('x'), newest, ctx, horizon)?.messages).toHaveLength(1);
      cache.close();
      // The old file is kept as it was, beside the new one.
      const aside = new Database(setAsidePath(path), { readonly: true });
      expect(aside.pragma('user_version', { simple: true })).toBe(version);
      aside.close();
    }
    const path = newPath();
    writeFileSync(path, Buffer.from('SQLite format 3\0 but truncated'.repeat(3)));
    const cache = AccountCache.open(path, CacheCipher.newKey());
    expect(cache.load().snapshot).toBeNull();
    cache.close();
    expect(readFileSync(setAsidePath(path), 'utf8')).toContain('truncated');
  });

  it('says how much of a conversation it holds: never, partial, synced', () => {
    const cache = AccountCache.open(newPath(), CacheCipher.newKey());
    const never = cache.cachedPage(topic('other'), newest, ctx, horizon)!;
    expect(never).toMatchObject({ messages: [], offline_coverage: 'never', from_cache: true });
    // The newest 3 of a longer conversation: partial until its history is here.
    cache.recordPage(topic('x'), newest, pageOf([20, 21, 22], false, true), ctx);
    expect(cache.cachedPage(topic('x'), newest, ctx, horizon)).toMatchObject({
      offline_coverage: 'partial',
      found_oldest: false,
      found_newest: true,
    });
    // An older page anchored at the span's edge joins it; with the oldest found it is complete.
    const older = { anchor: 20, numBefore: 3, numAfter: 0, includeAnchor: false };
    cache.recordPage(topic('x'), older, pageOf([3, 9], true, false), ctx);
    const page = cache.cachedPage(topic('x'), { ...newest, numBefore: 10 }, ctx, horizon)!;
    expect(page.messages.map((m) => m.id)).toEqual([3, 9, 20, 21, 22]);
    expect(page).toMatchObject({ offline_coverage: 'synced', found_oldest: true });
    // Or complete back to the horizon: history older than it is not needed.
    cache.recordPage(topic('y'), newest, pageOf([30, 31], false, true, 'y'), ctx);
    const recent = 1_700_000_000 + 30;
    expect(cache.cachedPage(topic('y'), newest, ctx, recent)?.offline_coverage).toBe('synced');
    expect(cache.cachedPage(topic('y'), newest, ctx, recent - 1)?.offline_coverage).toBe('partial');
    // A new registration: events between two queues are lost, so nothing is known current.
    cache.saveSnapshot({ accountId: 'a', queueId: 'q2', register: { last_event_id: 0 } as never });
    expect(cache.cachedPage(topic('x'), newest, ctx, horizon)?.offline_coverage).toBe('partial');
    // Until sync learns the conversation's newest id is inside the span.
    cache.write((store) => store.reopenIfCurrent('topic:7:x', 22));
    expect(cache.cachedPage(topic('x'), newest, ctx, horizon)?.offline_coverage).toBe('synced');
    cache.close();
  });

  it('takes a page as the truth within the span it covers', () => {
    const cache = AccountCache.open(newPath(), CacheCipher.newKey());
    cache.recordPage(topic('x'), newest, pageOf([1, 2, 3, 4], true, true), ctx);
    cache.recordPage(topic('x'), newest, pageOf([1, 3, 4], true, true), ctx);
    const page = cache.cachedPage(topic('x'), newest, ctx, horizon)!;
    expect(page.messages.map((m) => m.id)).toEqual([1, 3, 4]);
    cache.close();
  });

  it('answers channel, sender, is:, has: and keyword narrows from what it holds', () => {
    const cache = AccountCache.open(newPath(), CacheCipher.newKey());
    const dm = message(40, 'secret plans for lunch', false, '', {
      type: 'private',
      stream_id: undefined,
      sender_id: 2,
      display_recipient: [
        { id: 1, email: 'me@x', full_name: 'Me', is_mirror_dummy: false },
        { id: 2, email: 'ann@x', full_name: 'Ann', is_mirror_dummy: false },
      ],
    } as never);
    cache.recordPage(
      [{ operator: 'is', operand: 'dm' }],
      newest,
      {
        ...pageOf([], false, false),
        messages: [
          message(10, 'plain words'),
          { ...message(11, 'a <a href="https://x.org">link</a>'), flags: ['read', 'starred'] },
          { ...message(12, 'for @me', false, 'other'), flags: ['mentioned'] },
          message(13, 'lunch at noon', true, 'lunch', { stream_id: 8 } as never),
          dm,
        ],
      },
      ctx,
    );
    const ids = (narrow: NarrowTerm[]) =>
      cache
        .cachedPage(narrow, { ...newest, numBefore: 100 }, ctx, horizon)!
        .messages.map((m) => m.id);
    expect(ids([{ operator: 'channel', operand: 7 }])).toEqual([10, 11, 12]);
    expect(ids([{ operator: 'is', operand: 'starred' }])).toEqual([11]);
    expect(ids([{ operator: 'is', operand: 'mentioned' }])).toEqual([12]);
    expect(ids([{ operator: 'is', operand: 'unread' }])).toEqual([12, 40]);
    expect(ids([{ operator: 'is', operand: 'dm' }])).toEqual([40]);
    expect(ids([{ operator: 'dm', operand: [2] }])).toEqual([40]);
    expect(ids([{ operator: 'sender', operand: 2 }])).toEqual([40]);
    expect(ids([{ operator: 'has', operand: 'link' }])).toEqual([11]);
    expect(ids([{ operator: 'search', operand: 'lunch' }])).toEqual([10, 11, 13, 40]);
    expect(
      ids([
        { operator: 'search', operand: 'lunch' },
        { operator: 'is', operand: 'dm', negated: true },
        { operator: 'channel', operand: 7 },
      ]),
    ).toEqual([10, 11]);
    expect(ids([{ operator: 'search', operand: 'secret plans' }])).toEqual([40]);
    expect(ids([{ operator: 'topic', operand: 'OTHER' }])).toEqual([12]);
    // A term the cache cannot decide leaves the message out rather than showing a wrong one.
    expect(ids([{ operator: 'is', operand: 'followed' }])).toEqual([]);
    cache.close();
  });

  it('evicts the oldest history first, and the spans that started there start later', () => {
    const cache = AccountCache.open(newPath(), CacheCipher.newKey());
    cache.recordPage(topic('x'), newest, pageOf([1, 2, 3, 4, 5, 6], true, true), ctx);
    expect(cache.cachedPage(topic('x'), newest, ctx, horizon)?.offline_coverage).toBe('synced');
    cache.write((store) => store.evictOldest(2));
    const page = cache.cachedPage(topic('x'), { ...newest, numBefore: 10 }, ctx, horizon)!;
    expect(page.messages.map((m) => m.id)).toEqual([3, 4, 5, 6]);
    expect(page.found_oldest).toBe(false);
    expect(page.offline_coverage).toBe('partial');
    cache.close();
  });
});

describe('cached pages', () => {
  it('cuts answers around the anchor as the server does', () => {
    const messages = [1, 2, 3, 4, 5].map((id) => message(id, '', id < 3));
    const found = { oldest: true, newest: true };
    const unread = cutPage(messages, { anchor: 'first_unread', numBefore: 1, numAfter: 1 }, found);
    expect(unread.messages.map((m) => m.id)).toEqual([2, 3, 4]);
    expect(unread).toMatchObject({ anchor: 3, found_oldest: false, found_newest: false });
    const older = cutPage(
      messages,
      { anchor: 3, numBefore: 5, numAfter: 0, includeAnchor: false },
      found,
    );
    expect(older.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(older.found_oldest).toBe(true);
  });
});
