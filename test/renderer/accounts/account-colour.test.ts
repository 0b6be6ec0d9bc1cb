// Accounts without an avatar show initials on a colour of their own: the same on every launch, and
// never shared by two accounts in the list (even when their e-mails would pick the same one).
import { describe, expect, it } from 'vitest';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import { accountColour } from '../../../renderer/features/accounts/AccountBadge';

const account = (id: string, email: string): AccountSummary => ({
  id,
  site: 'https://chat.example.com',
  email,
  userId: 1,
  realmName: 'Example',
  featureLevel: 372,
  secretBackend: 'file-0600',
  connection: { status: 'live', queueId: 'q' },
});

describe('accountColour', () => {
  it('gives nine accounts nine colours, and the same colour again for the same list', () => {
    const all = Array.from({ length: 9 }, (_, i) => account(`a${i}`, `person${i}@example.com`));
    const colours = all.map((a) => accountColour(a, all));
    expect(new Set(colours).size).toBe(9);
    expect(all.map((a) => accountColour(a, [...all]))).toEqual(colours);
  });

  it('moves a later account off a colour an earlier one already has', () => {
    const first = account('a', 'same@example.com');
    const second = account('b', 'SAME@example.com'); // same e-mail, so the same first choice
    expect(accountColour(second, [first, second])).not.toBe(accountColour(first, [first, second]));
    // Alone, it keeps its own choice.
    expect(accountColour(second, [second])).toBe(accountColour(first, [first, second]));
  });

  it('keeps each account its colour when the rail is reordered, clashes included', () => {
    const first = account('a', 'same@example.com');
    const second = account('b', 'SAME@example.com'); // the same first choice as `first`
    const third = account('c', 'other@example.com');
    const before = [first, second, third];
    const after = [third, second, first]; // moved around the rail
    for (const a of before) expect(accountColour(a, after)).toBe(accountColour(a, before));
    expect(accountColour(first, after)).not.toBe(accountColour(second, after));
  });
});
