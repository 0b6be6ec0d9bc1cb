// Compose's typeahead rules, as the public web app's composebox typeahead has them: which token at
// the cursor starts a completion, how candidates are matched and ranked, and the syntax inserted.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyCompletion,
  matchChannels,
  matchMentions,
  matchTopics,
  matchUsers,
  mentionSyntax,
  queryMatches,
  rank,
  tokenAtCursor,
  topicJump,
  type MentionContext,
} from '../../../renderer/features/compose/autocomplete';
import type { Channel, User, UserGroup } from '../../../shared/api/types';
import { register } from '../store/fixtures';

const demo = register();
const users = demo.realm_users as User[];
const channels = demo.subscriptions as unknown as Channel[];
const names = (list: { type: string; user?: User; group?: UserGroup; name?: string }[]) =>
  list.map((c) =>
    c.type === 'user' ? c.user!.full_name : c.type === 'group' ? c.group!.name : c.name,
  );

const inChannel = (relevance: (id: number) => number = () => Infinity): MentionContext => ({
  messageType: 'stream',
  channelWildcardAllowed: true,
  topicWildcardAllowed: true,
  relevance,
});

const at = (text: string) => tokenAtCursor(text, text.length);

describe('the token at the cursor', () => {
  it('starts a mention at @, @_ (silent) and @** after a space, a quote or a bracket', () => {
    expect(at('hi @em')).toMatchObject({ kind: 'mention', query: 'em', start: 3 });
    expect(at('@_**Emma M')).toMatchObject({ kind: 'mention', query: 'Emma M', silent: true });
    expect(at('(@*desi')).toMatchObject({ kind: 'mention', query: 'desi', start: 1 });
    // Inside a word (an email address) or after a completed mention: nothing.
    expect(at('mail me@example')).toBeNull();
    expect(at('@**Emma Member** ')).toBeNull();
    expect(at('@ emma')).toBeNull();
  });

  it('does not complete in the middle of a word', () => {
    expect(tokenAtCursor('@emmax', 4)).toBeNull();
    expect(tokenAtCursor('@em, hi', 3)).toMatchObject({ kind: 'mention', query: 'em' });
  });

  it('starts a channel at # with something after it, and a topic at #**channel>', () => {
    expect(at('see #')).toBeNull();
    expect(at('see #gen')).toMatchObject({ kind: 'channel', query: 'gen', start: 4 });
    expect(at('see #**gen')).toMatchObject({ kind: 'channel', query: 'gen' });
    expect(at('see #**general>pl')).toMatchObject({
      kind: 'topic',
      query: 'pl',
      channelName: 'general',
      start: 4,
    });
    expect(at('see #**general>')).toMatchObject({ kind: 'topic', query: '' });
  });

  it('starts an emoji at : followed by a letter, not at emoticons or times', () => {
    expect(at('yes :s')).toMatchObject({ kind: 'emoji', query: 's' });
    expect(at('yes :+1')).toMatchObject({ kind: 'emoji', query: '+1' });
    expect(at('yes :P')).toBeNull();
    expect(at('yes :-)')).toBeNull();
    expect(at('at 12:30')).toBeNull();
    expect(at('yes :')).toBeNull();
  });

  it('reopens a completed channel link for a topic when > follows it', () => {
    expect(topicJump('see #**general** >', 18)).toEqual({ text: 'see #**general>', cursor: 15 });
    expect(topicJump('see #**general**', 16)).toBeNull();
  });
});

describe('matching and ranking', () => {
  it('matches one word anywhere, several words only from a word start', () => {
    expect(queryMatches('mem', 'Emma Member')).toBe(true);
    expect(queryMatches('mma', 'Emma Member')).toBe(true);
    expect(queryMatches('emma mem', 'Emma Member')).toBe(true);
    expect(queryMatches('ma mem', 'Emma Member')).toBe(false);
    expect(queryMatches('zoe', 'Zoë Ruiz')).toBe(true);
  });

  it('ranks name prefixes first, then later words, then the rest', () => {
    const found = matchMentions('m', users, [], { ...inChannel(), channelWildcardAllowed: false });
    const list = names(found);
    // "Maya Moderator" starts with m; "Emma Member", "Dev Member"... have a word starting with m;
    // "Adam Admin" only contains one.
    expect(list[0]).toBe('Maya Moderator');
    expect(list.indexOf('Emma Member')).toBeGreaterThan(0);
    expect(list.indexOf('Adam Admin')).toBeGreaterThan(list.indexOf('Farid Member'));
  });

  it('puts the people of the current conversation first within a match quality', () => {
    const farid = users.find((u) => u.full_name === 'Farid Member')!.user_id;
    const found = matchMentions('member', users, [], {
      ...inChannel((id) => (id === farid ? 0 : Infinity)),
      channelWildcardAllowed: false,
      topicWildcardAllowed: false,
    });
    expect(names(found).slice(0, 3)).toEqual(['Farid Member', 'Dev Member', 'Emma Member']);
  });

  it('offers the wildcards the conversation allows: first in a channel, last in a DM', () => {
    // `al` is also in every demo email address (…@tributary.local): the wildcard leads.
    const al = names(matchMentions('al', users, [], inChannel()));
    expect(al[0]).toBe('all');
    expect(al).not.toContain('everyone');
    // One channel-wide wildcard only, and `topic`.
    expect(names(matchMentions('', users, [], inChannel())).slice(0, 2)).toEqual(['all', 'topic']);
    const topicOnly = { ...inChannel(), channelWildcardAllowed: false };
    expect(names(matchMentions('', users, [], topicOnly))[0]).toBe('topic');
    expect(
      names(matchMentions('all', users, [], { ...topicOnly, topicWildcardAllowed: false })),
    ).toEqual([]);
    const dm = { ...inChannel(), messageType: 'private' as const };
    const inDm = names(matchMentions('', users, [], dm, 20));
    // Only the first of the equivalent wildcards, as the public app offers them.
    expect(inDm.at(-1)).toBe('all');
    expect(inDm).not.toContain('everyone');
  });

  it('lists user groups after the people whose names start with the query', () => {
    const group = { id: 30, name: 'design-team', description: 'Designers' } as UserGroup;
    const found = names(matchMentions('de', users, [group], inChannel()));
    expect(found.slice(0, 2)).toEqual(['Dev Member', 'design-team']);
  });

  it('ranks channels by name prefix, the channel being written to first among equals', () => {
    expect(matchChannels(channels, 'gen').map((c) => c.name)).toEqual(['general']);
    const design = channels.find((c) => c.name === 'design')!.stream_id;
    expect(matchChannels(channels, '', design)[0].name).toBe('design');
    // A prefix before a match inside the name.
    expect(
      matchChannels(channels, 'an')
        .map((c) => c.name)
        .slice(0, 2),
    ).toEqual(['announcements', 'random']);
  });

  it("offers a channel's topics, the channel link while nothing is typed, and a new topic", () => {
    const topics = ['plans', 'lunch plans', 'release'];
    expect(matchTopics(topics, '', { channelLink: true })[0]).toEqual({
      topic: null,
      isNew: false,
    });
    // What was typed is offered as a new topic, first as the exact match (as the public app does).
    expect(matchTopics(topics, 'pla', { channelLink: true })).toEqual([
      { topic: 'pla', isNew: true },
      { topic: 'plans', isNew: false },
      { topic: 'lunch plans', isNew: false },
    ]);
    expect(matchTopics(topics, 'plans', { channelLink: false })).toEqual([
      { topic: 'plans', isNew: false },
      { topic: 'lunch plans', isNew: false },
    ]);
  });
});

describe('the syntax inserted', () => {
  const emma = users.find((u) => u.full_name === 'Emma Member')!;

  it('writes @**Name**, with the id only when the name is not unique', () => {
    expect(mentionSyntax({ type: 'user', user: emma }, false, users)).toBe('@**Emma Member**');
    const twin = { ...emma, user_id: 99 };
    expect(mentionSyntax({ type: 'user', user: emma }, false, [...users, twin])).toBe(
      `@**Emma Member|${emma.user_id}**`,
    );
    expect(mentionSyntax({ type: 'user', user: emma }, true, users)).toBe('@_**Emma Member**');
  });

  it('writes @*group* and @**all**', () => {
    const group = { id: 30, name: 'design-team' } as UserGroup;
    expect(mentionSyntax({ type: 'group', group }, false)).toBe('@*design-team*');
    expect(mentionSyntax({ type: 'group', group }, true)).toBe('@_*design-team*');
    expect(mentionSyntax({ type: 'wildcard', name: 'all', description: '' }, false)).toBe(
      '@**all**',
    );
  });

  it('replaces the token and puts the cursor after the completion and a space', () => {
    const text = 'hi @em, there';
    const token = tokenAtCursor(text, 6)!;
    expect(applyCompletion(text, token, '@**Emma Member**')).toEqual({
      text: 'hi @**Emma Member** , there',
      cursor: 20,
    });
    const channel = at('see #gen')!;
    expect(applyCompletion('see #gen', channel, '#**general>', { space: false })).toEqual({
      text: 'see #**general>',
      cursor: 15,
    });
  });
});

describe('matchUsers over a large organization', () => {
  // The ranking matchUsers had before it kept a folded index per list: every active person whose
  // name or email matches, by match quality, then by name.
  const reference = (list: User[], query: string, limit: number) =>
    rank(
      query,
      list.filter(
        (u) => u.is_active && (queryMatches(query, u.full_name) || queryMatches(query, u.email)),
      ),
      (u) => [u.full_name, u.email],
      (a, b) => a.full_name.localeCompare(b.full_name),
    ).slice(0, limit);

  it('ranks as before, whatever the names and the query', () => {
    const word = fc.stringMatching(/^[A-Za-zéÖ]{1,6}$/);
    const person = fc.record({
      first: word,
      last: word,
      active: fc.boolean(),
      bot: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(person, { maxLength: 40 }),
        fc.oneof(
          word,
          fc.tuple(word, word).map(([a, b]) => `${a} ${b.slice(0, 2)}`),
        ),
        fc.integer({ min: 1, max: 10 }),
        (people, query, limit) => {
          const list = people.map(
            (p, i) =>
              ({
                user_id: i + 1,
                full_name: `${p.first} ${p.last}`,
                email: `${p.first.toLowerCase()}${i}@example.test`,
                is_active: p.active,
                is_bot: p.bot,
              }) as User,
          );
          // Typed a key at a time, erased a key at a time (each backspace goes back to a step
          // kept from the typing), then typed afresh: each answer as the reference's.
          const q = query.slice(0, 1 + (people.length % 4));
          const prefixes = [...q].map((_, i) => q.slice(0, i + 1));
          const typing = [...prefixes, ...prefixes.slice(0, -1).reverse(), '', query, q];
          for (const typed of typing)
            expect(matchUsers(list, typed, limit).map((u) => u.user_id)).toEqual(
              reference(list, typed, limit).map((u) => u.user_id),
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('matchChannels over a large organization', () => {
  // The ranking matchChannels had before it kept a folded index per list.
  const reference = (list: Channel[], query: string, current: number | null, limit: number) => {
    const open = list.filter((c) => !c.is_archived);
    const compare = (a: Channel, b: Channel) =>
      Number(b.stream_id === current) - Number(a.stream_id === current) ||
      a.name.localeCompare(b.name);
    const byName = open.filter((c) => queryMatches(query, c.name));
    const byDescription = open.filter(
      (c) => !byName.includes(c) && query && queryMatches(query, c.description),
    );
    return [...rank(query, byName, (c) => [c.name], compare), ...byDescription.sort(compare)].slice(
      0,
      limit,
    );
  };

  it('ranks as before, the composing channel first within each match quality', () => {
    const word = fc.stringMatching(/^[a-zA-Zé]{1,5}$/);
    const channel = fc.record({
      name: fc.tuple(word, fc.constantFrom('-', ' ', '_', ''), word).map((p) => p.join('')),
      description: fc.array(word, { maxLength: 4 }).map((w) => w.join(' ')),
      archived: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(channel, { maxLength: 30, selector: (c) => c.name }),
        word,
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 10 }),
        (specs, query, current, limit) => {
          const list = specs.map(
            (c, i) =>
              ({
                stream_id: i + 1,
                name: c.name,
                description: c.description,
                is_archived: c.archived,
              }) as Channel,
          );
          const q = query.slice(0, 1 + (specs.length % 3));
          const currentId = current === 0 ? null : current;
          expect(matchChannels(list, q, currentId, limit).map((c) => c.stream_id)).toEqual(
            reference(list, q, currentId, limit).map((c) => c.stream_id),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
