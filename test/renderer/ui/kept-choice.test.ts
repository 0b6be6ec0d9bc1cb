// The view choices kept in localStorage: what was written reads back, and anything missing,
// unparseable, not accepted or refused by the storage gives the default instead of an error.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readKept, writeKept } from '../../../renderer/lib/kept-choice';
import { readFilters, writeFilters } from '../../../renderer/features/views/recent-model';
import { readCollapsed, writeCollapsed } from '../../../renderer/features/views/inbox-model';

const acceptNumber = (kept: unknown) => (typeof kept === 'number' ? kept : undefined);

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('readKept and writeKept', () => {
  it('reads back what was written, as JSON', () => {
    writeKept('k', 42);
    expect(localStorage.getItem('k')).toBe('42');
    expect(readKept('k', acceptNumber, 0)).toBe(42);
  });

  it('gives the default for nothing kept, broken JSON and values not accepted', () => {
    expect(readKept('missing', acceptNumber, 7)).toBe(7);
    localStorage.setItem('broken', '{not json');
    expect(readKept('broken', acceptNumber, 7)).toBe(7);
    localStorage.setItem('wrong', '"a string"');
    expect(readKept('wrong', acceptNumber, 7)).toBe(7);
  });

  it('neither throws nor keeps anything when the storage refuses', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(() => writeKept('k', 1)).not.toThrow();
    expect(readKept('k', acceptNumber, 3)).toBe(3);
  });
});

describe('the views that keep choices through it', () => {
  it("Recent conversations' filters (not the text) and the Inbox's folded groups", () => {
    writeFilters('acct', {
      unread: true,
      participated: false,
      includeDms: false,
      topics: 'followed',
      text: 'not kept',
    });
    expect(readFilters('acct')).toEqual({
      unread: true,
      participated: false,
      includeDms: false,
      topics: 'followed',
      text: '',
    });
    writeCollapsed(new Set([3, 'dm']));
    expect(readCollapsed()).toEqual(new Set([3, 'dm']));
    localStorage.setItem('tributary:inbox-collapsed', '{"a":1}');
    expect(readCollapsed()).toEqual(new Set());
  });
});

describe('the people list', () => {
  it('opens closed at launch when it was closed last time', async () => {
    localStorage.setItem('tributary.userListOpen', 'false');
    vi.resetModules();
    const { uiStore } = await import('../../../renderer/store/ui-store');
    expect(uiStore.getState().userListOpen).toBe(false);
  });
});
