// @vitest-environment node
// shared/narrow: keys, search-box parsing and client-side matching.
import { describe, expect, it } from 'vitest';
import {
  canonicalNarrow,
  dmConversationKey,
  isNarrowDecidableLocally,
  messageMatchesNarrow,
  narrowFromKey,
  narrowKey,
  narrowToSearchText,
  parseSearchQuery,
  type NarrowMatchContext,
} from '../../../shared/narrow';
import type { MessageWithFlags } from '../../../shared/api/types';
import { channelMessage, directMessage, DESIGN, EMMA, FARID, GENERAL, GUS, SELF } from './fixtures';

describe('narrowKey', () => {
  it('is the same for aliases and any term order', () => {
    const a = narrowKey([
      { operator: 'stream', operand: 'design' },
      { operator: 'topic', operand: 'logo' },
    ]);
    const b = narrowKey([
      { operator: 'topic', operand: 'logo' },
      { operator: 'channel', operand: 'design' },
    ]);
    expect(a).toBe(b);
    expect(narrowKey([{ operator: 'is', operand: 'private' }])).toBe(
      narrowKey([{ operator: 'is', operand: 'dm' }]),
    );
    expect(narrowKey([{ operator: 'pm-with', operand: [6, 5] }])).toBe(
      narrowKey([{ operator: 'dm', operand: [5, 6] }]),
    );
  });

  it('differs for negation and round-trips through narrowFromKey', () => {
    const plain = narrowKey([{ operator: 'is', operand: 'starred' }]);
    const negated = narrowKey([{ operator: 'is', operand: 'starred', negated: true }]);
    expect(plain).not.toBe(negated);
    expect(narrowFromKey(negated)).toEqual([{ operator: 'is', operand: 'starred', negated: true }]);
    expect(() => narrowFromKey('{"x":1}')).toThrow(/Not a narrow key/);
  });
});

describe('parseSearchQuery', () => {
  it('parses operators, quoted operands, negation and search words', () => {
    const narrow = parseSearchQuery(
      'channel:design topic:"release plan" -is:starred budget sender:me review',
    );
    expect(narrow).toEqual(
      expect.arrayContaining([
        { operator: 'channel', operand: 'design' },
        { operator: 'topic', operand: 'release plan' },
        { operator: 'is', operand: 'starred', negated: true },
        { operator: 'sender', operand: 'me' },
        { operator: 'search', operand: 'budget review' },
      ]),
    );
    expect(narrow).toHaveLength(5);
  });

  it('normalizes legacy operator names and is: operands', () => {
    expect(parseSearchQuery('stream:general is:private pm-with:emma@tributary.local')).toEqual(
      parseSearchQuery('dm:emma@tributary.local channel:general is:dm'),
    );
    expect(parseSearchQuery('has:LINK')).toEqual([{ operator: 'has', operand: 'link' }]);
  });

  it('keeps unknown operators, URLs and quoted colons as search text', () => {
    expect(parseSearchQuery('see https://example.com/x')).toEqual([
      { operator: 'search', operand: 'see https://example.com/x' },
    ]);
    expect(parseSearchQuery('"ratio:3" foo:bar')).toEqual([
      { operator: 'search', operand: 'ratio:3 foo:bar' },
    ]);
  });

  it("with unknownOperators: 'terms', sends a word that reads as an operator to the server", () => {
    expect(
      parseSearchQuery('foo:bar -baz:qux at 10:30 see https://example.com "ratio:3"', {
        unknownOperators: 'terms',
      }),
    ).toEqual(
      canonicalNarrow([
        { operator: 'foo', operand: 'bar' },
        { operator: 'baz', operand: 'qux', negated: true },
        { operator: 'search', operand: 'at 10:30 see https://example.com ratio:3' },
      ]),
    );
  });

  it('parses dm lists, message ids and an empty topic', () => {
    expect(parseSearchQuery('dm:a@x.test,b@x.test')).toEqual([
      { operator: 'dm', operand: 'a@x.test,b@x.test' },
    ]);
    expect(parseSearchQuery('near:42')).toEqual([{ operator: 'near', operand: 42 }]);
    expect(parseSearchQuery('channel:general topic:""')).toContainEqual({
      operator: 'topic',
      operand: '',
    });
    expect(parseSearchQuery('   ')).toEqual([]);
  });

  it('round-trips through narrowToSearchText', () => {
    const text = 'channel:design topic:"release plan" -is:starred budget';
    expect(parseSearchQuery(narrowToSearchText(parseSearchQuery(text)))).toEqual(
      parseSearchQuery(text),
    );
  });
});

describe('messageMatchesNarrow', () => {
  const ctx: NarrowMatchContext = {
    selfUserId: SELF,
    channelIdByName: (name) => ({ general: GENERAL, design: DESIGN })[name.toLowerCase()],
    userIdByEmail: (email) => ({ 'farid@tributary.local': FARID })[email],
    topicVisibility: (streamId, topic) =>
      streamId === GENERAL && topic === 'followed one' ? 3 : 0,
    isChannelMuted: (streamId) => streamId === DESIGN,
  };
  const withFlags = <T extends object>(m: T, flags: MessageWithFlags['flags'] = []) => ({
    ...m,
    flags,
  });
  const inGeneral = withFlags(channelMessage(10, GENERAL, 'Planning'), ['read', 'starred']);
  const dmWithEmma = withFlags(directMessage(11, [EMMA]), []);
  const groupDm = withFlags(directMessage(12, [EMMA, FARID]), ['mentioned']);
  const selfDm = withFlags(directMessage(13, [SELF], { sender: SELF }), ['read']);

  it('matches channels by id or name and topics case-insensitively', () => {
    expect(
      messageMatchesNarrow(inGeneral, parseSearchQuery('channel:General topic:planning'), ctx),
    ).toBe(true);
    expect(messageMatchesNarrow(inGeneral, [{ operator: 'channel', operand: GENERAL }], ctx)).toBe(
      true,
    );
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('channel:design'), ctx)).toBe(false);
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('channel:nonexistent'), ctx)).toBe(
      false,
    );
  });

  it('matches exact DM conversations by ids or emails, and the self conversation', () => {
    expect(messageMatchesNarrow(dmWithEmma, [{ operator: 'dm', operand: [EMMA] }], ctx)).toBe(true);
    expect(messageMatchesNarrow(groupDm, [{ operator: 'dm', operand: [EMMA] }], ctx)).toBe(false);
    expect(
      messageMatchesNarrow(
        groupDm,
        parseSearchQuery('dm:emma@tributary.local,farid@tributary.local'),
        ctx,
      ),
    ).toBe(true);
    expect(messageMatchesNarrow(selfDm, [{ operator: 'dm', operand: [SELF] }], ctx)).toBe(true);
    expect(messageMatchesNarrow(groupDm, [{ operator: 'dm-including', operand: FARID }], ctx)).toBe(
      true,
    );
    expect(
      messageMatchesNarrow(dmWithEmma, [{ operator: 'dm-including', operand: GUS }], ctx),
    ).toBe(false);
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('is:dm'), ctx)).toBe(false);
  });

  it('decides flags, senders, negation and is:resolved / is:followed / in:home', () => {
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('is:starred'), ctx)).toBe(true);
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('-is:starred'), ctx)).toBe(false);
    expect(messageMatchesNarrow(dmWithEmma, parseSearchQuery('is:unread'), ctx)).toBe(true);
    expect(messageMatchesNarrow(groupDm, parseSearchQuery('is:mentioned'), ctx)).toBe(true);
    expect(
      messageMatchesNarrow(inGeneral, parseSearchQuery('sender:emma@tributary.local'), ctx),
    ).toBe(true);
    expect(messageMatchesNarrow(selfDm, parseSearchQuery('sender:me'), ctx)).toBe(true);
    expect(
      messageMatchesNarrow(
        withFlags(channelMessage(1, GENERAL, '✔ done')),
        parseSearchQuery('is:resolved'),
        ctx,
      ),
    ).toBe(true);
    expect(
      messageMatchesNarrow(
        withFlags(channelMessage(2, GENERAL, 'followed one')),
        parseSearchQuery('is:followed'),
        ctx,
      ),
    ).toBe(true);
    expect(
      messageMatchesNarrow(
        withFlags(channelMessage(3, DESIGN, 'x')),
        parseSearchQuery('in:home'),
        ctx,
      ),
    ).toBe(false);
  });

  it('answers undefined when a term needs the server, but false wins', () => {
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('budget'), ctx)).toBeUndefined();
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('has:link'), ctx)).toBeUndefined();
    expect(messageMatchesNarrow(inGeneral, parseSearchQuery('channel:design budget'), ctx)).toBe(
      false,
    );
    expect(isNarrowDecidableLocally(parseSearchQuery('channel:design -is:starred'))).toBe(true);
    expect(isNarrowDecidableLocally(parseSearchQuery('channel:design budget'))).toBe(false);
  });

  it('builds the same DM key whatever the participant spelling', () => {
    expect(dmConversationKey([FARID, SELF, EMMA], SELF)).toBe(`${EMMA},${FARID}`);
    expect(dmConversationKey([SELF], SELF)).toBe(String(SELF));
  });
});
