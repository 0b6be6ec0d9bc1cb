// The plain-text fast path of the message renderer must give exactly what markdown-it gives:
// checked against the full parser on generated text of the fast path's alphabet, and on text
// just outside it (which must still go through the parser).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { renderMessage, renderPlainText } from '../../server/markdown/render';
import type { MentionLookup } from '../../server/markdown/mentions';

const plainLookup: MentionLookup = {
  userByName: () => [],
  userById: () => undefined,
  groupByName: () => undefined,
  channelByName: () => undefined,
};

// A linkifier that can never match this alphabet: its presence forces the full parser, which
// gives the reference rendering.
const parserLookup: MentionLookup = {
  ...plainLookup,
  linkifiers: () => [{ regex: /_NEVER_(?<id>[0-9]+)/u, url: (g) => `https://x.test/${g.id}` }],
};

const letter = fc.constantFrom(...'abcXYZ'.split(''));
// A dot only ever before a space (the fast path's rule).
const plainChar = fc.constantFrom(...'aZ09 ,?!\'"'.split(''), '. ');
const plainText = fc
  .tuple(letter, fc.array(plainChar, { maxLength: 40 }))
  .map(([first, rest]) => first + rest.join(''));

describe('plain-text fast path', () => {
  it('renders like markdown-it for text of its alphabet', () => {
    fc.assert(
      fc.property(plainText, (text) => {
        const reference = renderMessage(text, parserLookup);
        expect(renderPlainText(text)).toBe(reference.html);
        expect(renderMessage(text, plainLookup)).toEqual(reference);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves markdown, mentions, links and line breaks to the parser', () => {
    for (const text of [
      'say **hi**',
      'hi @**Emma**',
      'see https://example.com',
      'one\ntwo',
      'a :smile:',
      '1. item',
      'x & y',
      '    indented',
      'Setext\n---',
      '/me waves',
      'see x.aaa',
      'e.g. this',
      'done. next',
      'smile :)',
      'trailing  ',
    ]) {
      expect(renderMessage(text, plainLookup)).toEqual(renderMessage(text, parserLookup));
    }
    expect(renderMessage('see https://example.com', plainLookup).hasLink).toBe(true);
    expect(renderMessage('/me waves', plainLookup).isMeMessage).toBe(true);
  });
});
