// The reader's alert words marked in message HTML as the public web app marks them: whole words or
// phrases in any case, never inside code, links or mentions, and only ever text (the markup stays).
import { describe, expect, it } from 'vitest';
import { highlightAlertWords } from '../../../renderer/features/messages/rich-content';

describe('highlightAlertWords', () => {
  it('marks whole words and phrases in any case', () => {
    expect(highlightAlertWords('<p>The Lighthouse, lit. lighthouses no.</p>', ['lighthouse'])).toBe(
      '<p>The <span class="alert-word">Lighthouse</span>, lit. lighthouses no.</p>',
    );
    expect(highlightAlertWords('<p>go to the big deploy now</p>', ['big deploy'])).toBe(
      '<p>go to the <span class="alert-word">big deploy</span> now</p>',
    );
  });

  it('leaves code, links and mentions alone, and escapes nothing it should not', () => {
    const html =
      '<p><code>deploy</code> <a href="https://x.test/">deploy</a> <span class="user-mention">@deploy</span> deploy &lt;b&gt;</p>';
    expect(highlightAlertWords(html, ['deploy'])).toBe(
      '<p><code>deploy</code> <a href="https://x.test/">deploy</a> <span class="user-mention">@deploy</span> <span class="alert-word">deploy</span> &lt;b&gt;</p>',
    );
  });

  it('treats the words as text, not patterns', () => {
    expect(highlightAlertWords('<p>a.b axb</p>', ['a.b'])).toBe(
      '<p><span class="alert-word">a.b</span> axb</p>',
    );
    expect(highlightAlertWords('<p>nothing here</p>', ['absent'])).toBe('<p>nothing here</p>');
  });
});
