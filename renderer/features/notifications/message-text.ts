// A message's rendered HTML as the plain text a notification shows, as the public web app words it:
// emoji as their characters, math as its LaTeX source, spoilers hidden, a quote above a reply folded
// to "[…]". The HTML is parsed into an inert document (no scripts run, nothing loads) and only its
// text is read, so nothing from it reaches the page.

export interface MessageText {
  text: string;
  /** An inline image or an uploaded file (a message of only that reads "(attached file)"). */
  hasAttachment: boolean;
}

function emojiCharacter(span: Element): string | null {
  const code = [...span.classList].find((c) => c.startsWith('emoji-'))?.slice('emoji-'.length);
  if (!code || !/^[0-9a-f]+(-[0-9a-f]+)*$/.test(code)) return null;
  try {
    return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return null;
  }
}

export function messageText(html: string): MessageText {
  const doc = new DOMParser().parseFromString(`<div id="m">${html}</div>`, 'text/html');
  const root = doc.getElementById('m');
  if (!root) return { text: '', hasAttachment: false };
  const hasAttachment =
    root.querySelector('.message_inline_image, a[href^="/user_uploads"]') !== null;
  for (const span of root.querySelectorAll('span.emoji')) {
    const character = emojiCharacter(span);
    if (character) span.replaceWith(character);
  }
  for (const math of root.querySelectorAll('.katex')) {
    const tex = math.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
    if (tex !== undefined && tex !== null) math.replaceWith(tex);
  }
  for (const hidden of root.querySelectorAll('.spoiler-content')) hidden.remove();
  const quotes = root.querySelectorAll(':scope > blockquote');
  if (quotes.length > 0 && root.children.length > quotes.length) {
    for (const quote of quotes) quote.replaceWith(doc.createTextNode('[…]\n'));
  }
  // Paragraph and line breaks read as spaces in a one-paragraph notification body.
  for (const br of root.querySelectorAll('br')) br.replaceWith(' ');
  for (const block of root.querySelectorAll('p, li, blockquote, pre, h1, h2, h3, h4, h5, h6')) {
    block.append(doc.createTextNode('\n'));
  }
  const text = (root.textContent ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
  return { text, hasAttachment };
}
