import { describe, expect, it } from 'vitest';
import { diffTokens, markHtmlDifferences } from '../../shared/diff/word-diff';

describe('diffTokens', () => {
  it('keeps common tokens and lists the removed and added ones in order', () => {
    expect(diffTokens(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      { kind: 'same', token: 'a' },
      { kind: 'deleted', token: 'b' },
      { kind: 'inserted', token: 'x' },
      { kind: 'same', token: 'c' },
      { kind: 'same', token: 'd' },
      { kind: 'inserted', token: 'e' },
    ]);
  });

  it('handles empty sides', () => {
    expect(diffTokens([], ['a'])).toEqual([{ kind: 'inserted', token: 'a' }]);
    expect(diffTokens(['a'], [])).toEqual([{ kind: 'deleted', token: 'a' }]);
  });
});

describe('markHtmlDifferences', () => {
  it('marks an inserted word', () => {
    expect(markHtmlDifferences('<p>a c</p>', '<p>a b c</p>')).toBe(
      '<p>a <ins class="diff-inserted">b</ins> c</p>',
    );
  });

  it('marks a replaced word as deleted then inserted', () => {
    expect(markHtmlDifferences('<p>lunch at noon</p>', '<p>lunch at one</p>')).toBe(
      '<p>lunch at <del class="diff-deleted">noon</del><ins class="diff-inserted">one</ins></p>',
    );
  });

  it('joins a run of changed words into one mark', () => {
    expect(markHtmlDifferences('<p>a d</p>', '<p>a b c d</p>')).toBe(
      '<p>a <ins class="diff-inserted">b c</ins> d</p>',
    );
    expect(markHtmlDifferences('<p>a b c d</p>', '<p>a d</p>')).toBe(
      '<p>a <del class="diff-deleted">b c</del> d</p>',
    );
  });

  it('keeps the newer markup and drops removed tags, not their words', () => {
    expect(markHtmlDifferences('<p>say <strong>hi</strong></p>', '<p>say hi</p>')).toBe(
      '<p>say hi</p>',
    );
    expect(markHtmlDifferences('<p>one</p>', '<p>one</p>\n<p>two</p>')).toBe(
      '<p>one</p>\n<p><ins class="diff-inserted">two</ins></p>',
    );
  });

  it('returns identical versions unmarked', () => {
    const html = '<p>same <a href="x">link</a></p>';
    expect(markHtmlDifferences(html, html)).toBe(html);
  });
});
