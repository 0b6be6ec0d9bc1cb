// The account cache on its own: what is on disk is sealed, a wrong key starts afresh, the bounds and
// eviction rule hold, pages merge into one run per conversation and answers are cut from it as the
// server would, and deleted messages leave the kept conversations.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import type { ServerEvent } from '../../shared/api/events';
import type { MessageWithFlags, RegisterResponse } from '../../shared/api/types';
import type { NarrowTerm } from '../../shared/narrow';
import {
  AccountCache,
  MAX_CACHED_NARROWS,
  MAX_MESSAGES_PER_NARROW,
} from '../../electron/cache/account-cache';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import { cutPage, mergePage } from '../../electron/cache/cached-pages';

const dir = mkdtempSync(join(tmpdir(), 'tributary-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `cache-${++files}.sqlite`);

const message = (id: number, text = `message ${id}`, read = true): MessageWithFlags =>
  ({
    id,
    type: 'stream',
    stream_id: 7,
    display_recipient: 'general',
    sender_id: 1,
    subject: 'lunch',
    content: `<p>${text}</p>`,
    flags: read ? ['read'] : [],
  }) as unknown as MessageWithFlags;

const pageOf = (ids: number[], oldest: boolean, newest: boolean): GetMessagesResponse => ({
  result: 'success',
  msg: '',
  messages: ids.map((id) => message(id)),
  found_oldest: oldest,
  found_newest: newest,
});

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
    cache.recordPage(topic(secret), newest, {
      ...pageOf([], true, true),
      messages: [message(5, secret)],
    });
    cache.setLastNarrow(topic(secret));
    cache.close();
    for (const file of readdirSync(dir).filter((f) => f.startsWith(`cache-${files}.`))) {
      expect(readFileSync(join(dir, file)).includes(secret)).toBe(false);
    }
  });

  it('starts empty when the key does not open it', () => {
    const path = newPath();
    const first = AccountCache.open(path, CacheCipher.newKey());
    first.saveSnapshot({ accountId: 'a', queueId: 'q', register: { last_event_id: 3 } as never });
    first.close();
    const other = AccountCache.open(path, CacheCipher.newKey());
    expect(other.load()).toEqual({ snapshot: null, events: [], lastNarrow: null });
    other.close();
  });

  it('keeps the conversations fetched last, each with its newest messages', () => {
    let clock = 1_000;
    const cache = AccountCache.open(newPath(), CacheCipher.newKey(), { now: () => clock++ });
    for (let i = 0; i < MAX_CACHED_NARROWS + 5; i++) {
      cache.recordPage(topic(`t${i}`), newest, pageOf([i * 10 + 1], true, true));
    }
    const ctx = { selfUserId: 1 };
    expect(cache.cachedPage(topic('t0'), newest, ctx)).toBeNull();
    expect(cache.cachedPage(topic('t4'), newest, ctx)).toBeNull();
    expect(cache.cachedPage(topic('t5'), newest, ctx)?.messages.map((m) => m.id)).toEqual([51]);
    const many = Array.from({ length: MAX_MESSAGES_PER_NARROW + 100 }, (_, i) => i + 1000);
    cache.recordPage(topic('long'), newest, pageOf(many, true, true));
    const all = { anchor: 'oldest' as const, numBefore: 0, numAfter: 5000 };
    const kept = cache.cachedPage(topic('long'), all, ctx)!;
    expect(kept.messages.map((m) => m.id)).toEqual(many.slice(-MAX_MESSAGES_PER_NARROW));
    expect(kept.found_oldest).toBe(false);
    cache.close();
  });

  it('drops deleted messages from kept conversations', () => {
    const path = newPath();
    const key = CacheCipher.newKey();
    const cache = AccountCache.open(path, key);
    cache.saveSnapshot({ accountId: 'a', queueId: 'q', register: { last_event_id: 0 } as never });
    cache.recordPage(topic('x'), newest, pageOf([1, 2, 3], true, true));
    cache.appendEvents([
      { id: 1, type: 'delete_message', message_ids: [2], message_type: 'stream' } as ServerEvent,
    ]);
    cache.close();
    const reopened = AccountCache.open(path, key);
    const page = reopened.cachedPage(topic('x'), newest, { selfUserId: 1 })!;
    expect(page.messages.map((m) => m.id)).toEqual([1, 3]);
    expect(reopened.load().events.map((e) => e.id)).toEqual([1]);
    reopened.close();
  });
});

describe('cached pages', () => {
  const narrow = topic('x');
  it('extends a run with overlapping and edge-anchored pages, restarts it after a gap', () => {
    let run = mergePage(undefined, narrow, newest, pageOf([10, 11, 12], false, true), 100);
    run = mergePage(
      run,
      narrow,
      { anchor: 10, numBefore: 3, numAfter: 0, includeAnchor: false },
      pageOf([7, 8, 9], true, false),
      100,
    );
    expect(run.messages.map((m) => m.id)).toEqual([7, 8, 9, 10, 11, 12]);
    expect([run.foundOldest, run.foundNewest]).toEqual([true, true]);
    run = mergePage(
      run,
      narrow,
      { anchor: 50, numBefore: 1, numAfter: 1 },
      pageOf([49, 50], false, true),
      100,
    );
    expect(run.messages.map((m) => m.id)).toEqual([49, 50]);
  });

  it('takes the page as the truth for the span it covers', () => {
    const run = mergePage(undefined, narrow, newest, pageOf([1, 2, 3, 4], true, true), 100);
    const next = mergePage(run, narrow, newest, pageOf([1, 3, 4], true, true), 100);
    expect(next.messages.map((m) => m.id)).toEqual([1, 3, 4]);
  });

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
