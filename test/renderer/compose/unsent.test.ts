// The page's own copy of what it sent: kept until main has it, handed over oldest first, and kept
// again when main cannot be reached.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  forgetUnsent,
  handOverUnsent,
  keepUnsent,
  listUnsent,
  type UnsentMessage,
} from '../../../renderer/bridge/unsent';
import type { Api } from '../../../renderer/bridge/api';

const message = (localId: string, createdAt: number, accountId = 'a'): UnsentMessage => ({
  accountId,
  localId,
  createdAt,
  message: { type: 'channel', to: 1, topic: 't', content: localId },
});

beforeEach(() => localStorage.clear());

describe('unsent messages', () => {
  it('keeps each localId once and forgets what main holds', () => {
    keepUnsent(message('one', 1));
    keepUnsent(message('one', 1));
    keepUnsent(message('two', 2));
    expect(listUnsent().map((u) => u.localId)).toEqual(['one', 'two']);
    forgetUnsent(['one']);
    expect(listUnsent().map((u) => u.localId)).toEqual(['two']);
    forgetUnsent(['two']);
    expect(localStorage.getItem('tributary.unsent.v1')).toBeNull();
  });

  it('hands over oldest first, stops when main is unreachable, drops removed accounts', async () => {
    keepUnsent(message('late', 3));
    keepUnsent(message('early', 1));
    keepUnsent(message('gone-account', 2, 'removed'));
    const sent: string[] = [];
    let reachable = false;
    const api = {
      sendMessage: vi.fn(async ({ localId }: { localId: string }) => {
        if (!reachable) throw Object.assign(new Error('closed'), { code: 'BRIDGE_CLOSED' });
        sent.push(localId);
        return { localId, messageId: 1, state: 'sent' };
      }),
    } as unknown as Api;
    await handOverUnsent(api, new Set(['a']));
    expect(sent).toEqual([]);
    // Nothing handed over: everything still kept, in the page, for the next connection.
    expect(
      listUnsent()
        .map((u) => u.localId)
        .sort(),
    ).toEqual(['early', 'gone-account', 'late']);
    reachable = true;
    await handOverUnsent(api, new Set(['a']));
    expect(sent).toEqual(['early', 'late']);
    expect(listUnsent()).toEqual([]);
  });

  it('forgets a message main refused for good (main keeps it as failed)', async () => {
    keepUnsent(message('refused', 1));
    const api = {
      sendMessage: vi.fn(async () => {
        throw Object.assign(new Error('no such channel'), { code: 'STREAM_DOES_NOT_EXIST' });
      }),
    } as unknown as Api;
    await handOverUnsent(api, new Set(['a']));
    expect(listUnsent()).toEqual([]);
  });
});
