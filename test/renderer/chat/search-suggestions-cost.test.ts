// The search bar's typeahead does each piece of work once per key: a bare word offers `dm:` and
// `sender:` people from one reading of everyone, and a text already answered (a backspace back to
// it) is answered from memory, the same suggestions as computed afresh.
import { describe, expect, it, vi } from 'vitest';
import type { Channel, User } from '../../../shared/api/types';
import { register } from '../store/fixtures';
import * as autocomplete from '../../../renderer/features/compose/autocomplete';
import {
  rememberedSuggestions,
  searchSuggestions,
  type SearchSources,
} from '../../../renderer/features/search/search-suggestions';

vi.mock('../../../renderer/features/compose/autocomplete', async (original) => {
  const actual = await original<typeof import('../../../renderer/features/compose/autocomplete')>();
  return { ...actual, matchUsers: vi.fn(actual.matchUsers) };
});

const demo = register();
const sources: SearchSources = {
  channels: demo.subscriptions as unknown as Channel[],
  users: demo.realm_users as User[],
  selfUserId: demo.user_id,
  channelId: () => undefined,
  topics: () => [],
  isPerson: () => false,
};
const matchUsers = vi.mocked(autocomplete.matchUsers);

describe('the search typeahead’s work per key', () => {
  it('reads everyone once for a bare word’s dm: and sender: offers', () => {
    matchUsers.mockClear();
    const found = searchSuggestions('m', sources);
    expect(found.some((s) => s.label.startsWith('dm:'))).toBe(true);
    expect(found.some((s) => s.label.startsWith('sender:'))).toBe(true);
    expect(matchUsers).toHaveBeenCalledTimes(1);
  });

  it('answers a text it has answered from memory, as computed afresh', () => {
    const suggest = rememberedSuggestions(sources);
    const typed = ['s', 'se', 'sen', 'sender:', 'sender:m'];
    const answers = typed.map((text) => suggest(text));
    matchUsers.mockClear();
    // Backspaces back through the same texts: nobody is read again.
    for (const [i, text] of [...typed.entries()].reverse()) expect(suggest(text)).toBe(answers[i]);
    expect(matchUsers).not.toHaveBeenCalled();
    for (const [i, text] of typed.entries())
      expect(answers[i]).toEqual(searchSuggestions(text, sources));
    // New sources (a channel's topics arrived) start a new memory: no stale answers.
    expect(rememberedSuggestions(sources)('s')).not.toBe(answers[0]);
  });
});
