// The plain name lists the renderer's bridge uses (shared/ipc/names.ts) equal the contract's keys.
import { describe, expect, it } from 'vitest';
import { methods, pushes } from '../../shared/ipc/contract';
import { METHOD_NAMES, PUSH_NAMES, isListedPushName } from '../../shared/ipc/names';

describe('IPC name lists', () => {
  it('list exactly the contract methods and pushes', () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(methods).sort());
    expect([...PUSH_NAMES].sort()).toEqual(Object.keys(pushes).sort());
  });

  it('recognise push names only', () => {
    expect(isListedPushName('events')).toBe(true);
    expect(isListedPushName('toString')).toBe(false);
    expect(isListedPushName(3)).toBe(false);
  });
});
