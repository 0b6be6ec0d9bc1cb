// A message's rendered HTML as a notification's text (renderer/features/notifications/message-text.ts),
// on HTML as the local server renders it.
import { describe, expect, it } from 'vitest';
import { messageText } from '../../../renderer/features/notifications/message-text';

describe('notification text', () => {
  it('emoji as characters, math as its source, spoilers hidden, paragraphs on lines', () => {
    const html =
      '<p>Ship it <span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>' +
      '<p><span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow>' +
      '<annotation encoding="application/x-tex">x^2</annotation></semantics></math></span>' +
      '<span class="katex-html" aria-hidden="true">x2</span></span> grows</p>' +
      '<div class="spoiler-block"><div class="spoiler-header"><p>Ending</p></div>' +
      '<div class="spoiler-content" aria-hidden="true"><p>they win</p></div></div>';
    expect(messageText(html)).toEqual({
      text: 'Ship it 🎉\nx^2 grows\nEnding',
      hasAttachment: false,
    });
  });

  it('a quote above a reply folds to […]; a quote alone stays', () => {
    expect(messageText('<blockquote><p>old words</p></blockquote><p>my reply</p>').text).toBe(
      '[…]\nmy reply',
    );
    expect(messageText('<blockquote><p>only a quote</p></blockquote>').text).toBe('only a quote');
  });

  it('sees uploads and inline images, and runs nothing', () => {
    expect(
      messageText('<p><a href="/user_uploads/2/ab/report.pdf">report.pdf</a></p>').hasAttachment,
    ).toBe(true);
    expect(
      messageText(
        '<div class="message_inline_image"><a href="/user_uploads/2/cd/x.png"><img src="/user_uploads/thumbnail/2/cd/x.png/840x560.webp"></a></div>',
      ),
    ).toEqual({ text: '', hasAttachment: true });
    const hostile = messageText('<p>hi<img src="x" onerror="window.__ran = 1"></p>');
    expect(hostile.text).toBe('hi');
    expect((window as unknown as { __ran?: number }).__ran).toBeUndefined();
  });
});
