// The app's own additions to sanitized message HTML, made as the public web app makes them: a copy
// button and the language on each code block, spoilers made collapsible (a focusable header with
// aria-expanded, the content hidden), and global times in the reader's zone and format. They are
// added to the string, once per distinct HTML and only when it has the construct, so that showing
// a row never walks its DOM; clicks and keys on them are handled by the list (content-controls.ts).

import { sanitizeMessageHtml } from '../../lib/sanitize';

/** Decorated HTML by sanitized HTML (the sanitizer caches by content the same way). */
const CACHE_ENTRIES = 500;
const decorated = new Map<string, string>();

/**
 * `clean` (already sanitized) with code block buttons and spoiler controls. It is parsed into an
 * inert template: nothing runs or loads, and what is added is the app's, never the server's.
 */
export function decorateMessageHtml(clean: string): string {
  if (!clean.includes('codehilite') && !clean.includes('spoiler-header')) return clean;
  let out = decorated.get(clean);
  if (out !== undefined) return out;
  const template = document.createElement('template');
  template.innerHTML = clean;
  const root = template.content;
  for (const block of root.querySelectorAll('.codehilite')) addCodeButtons(block);
  for (const header of root.querySelectorAll('.spoiler-header')) makeSpoilerToggle(header);
  out = template.innerHTML;
  if (decorated.size >= CACHE_ENTRIES) decorated.delete(decorated.keys().next().value!);
  decorated.set(clean, out);
  return out;
}

function addCodeButtons(block: Element): void {
  const doc = block.ownerDocument;
  const bar = doc.createElement('div');
  bar.className = 'code-buttons';
  const language = block.getAttribute('data-code-language');
  if (language) {
    const label = doc.createElement('span');
    label.className = 'code-language';
    label.textContent = language;
    bar.append(label);
  }
  const copy = doc.createElement('button');
  copy.type = 'button';
  copy.className = 'copy-code';
  copy.title = 'Copy code';
  copy.setAttribute('aria-label', 'Copy code');
  bar.append(copy);
  block.prepend(bar);
}

function makeSpoilerToggle(header: Element): void {
  // As the public app does: a header left empty reads "Spoiler".
  if (!header.textContent?.trim() && !header.querySelector('img')) {
    const p = header.ownerDocument.createElement('p');
    p.textContent = 'Spoiler';
    header.append(p);
  }
  header.setAttribute('role', 'button');
  header.setAttribute('tabindex', '0');
  header.setAttribute('aria-expanded', 'false');
  const content = header.parentElement?.querySelector(':scope > .spoiler-content');
  content?.setAttribute('aria-hidden', 'true');
}

/** A `<time>` as the sanitizer writes the server's (DOMPurify quotes and escapes the attribute). */
const TIME_ELEMENT = /<time datetime="([^"<>]*)">([^<]*)<\/time>/g;

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(kind: 'short' | 'full', twentyFourHour: boolean): Intl.DateTimeFormat {
  const key = `${kind}${twentyFourHour}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(
      undefined,
      kind === 'short'
        ? {
            weekday: 'short',
            year: 'numeric',
            month: 'short',
            day: 'numeric',
            hour: 'numeric',
            minute: '2-digit',
            hourCycle: twentyFourHour ? 'h23' : 'h12',
          }
        : {
            dateStyle: 'full',
            timeStyle: 'long',
            hourCycle: twentyFourHour ? 'h23' : 'h12',
          },
    );
    formats.set(key, f);
  }
  return f;
}

/**
 * Global times (`<time datetime>`, written by the sender in their own zone) shown in the reader's
 * zone and 12/24-hour format, the full date and zone on hover with the sender's original text.
 */
export function localizeTimes(html: string, twentyFourHour: boolean): string {
  if (!html.includes('<time ')) return html;
  return html.replace(TIME_ELEMENT, (whole, datetime: string, original: string) => {
    const date = new Date(datetime.replace(/&amp;/g, '&'));
    if (Number.isNaN(date.getTime())) return whole;
    const shown = format('short', twentyFourHour).format(date);
    const full = format('full', twentyFourHour).format(date);
    // `original` is serialized text already: only its quotes need escaping inside the attribute.
    const title = `${escapeHtml(full)} (in your time zone). Original text: ${original.replace(/"/g, '&quot;')}`;
    return `<time datetime="${datetime}" title="${title}">${escapeHtml(shown)}</time>`;
  });
}

/** A custom emoji image as the sanitizer writes it (its attributes escaped and quoted). */
const CUSTOM_EMOJI = /<img [^>]*\bclass="emoji"[^>]*>/g;
const ALT = /\balt="([^"]*)"/;

/**
 * With the "text" emojiset, custom emoji show as their `:name:` (the image's alt text), as the
 * public app shows them; unicode emoji already do, by the stylesheet.
 */
export function customEmojiAsText(html: string): string {
  if (!html.includes('<img ')) return html;
  return html.replace(CUSTOM_EMOJI, (img) => ALT.exec(img)?.[1] ?? '');
}

/** An animated preview as the sanitizer writes it, and the animated thumbnail's name in its src. */
const ANIMATED_IMAGE = /<img [^>]*\bdata-animated="true"[^>]*>/g;
const ANIMATED_SRC = /\bsrc="([^"]*)-anim\.webp"/;

/**
 * Animated previews as their still thumbnail (the server makes one of every format), keeping the
 * animated one in data-animated-src for hover (media/animated-previews.ts), as the public web app
 * does when web_animate_image_previews is not "always".
 */
export function stillAnimatedImages(html: string): string {
  if (!html.includes('data-animated="true"')) return html;
  return html.replace(ANIMATED_IMAGE, (img) =>
    img.replace(
      ANIMATED_SRC,
      (_whole, base: string) => `src="${base}.webp" data-animated-src="${base}-anim.webp"`,
    ),
  );
}

/** Text inside these is never highlighted: code, and text that is itself a link or a mention. */
const NO_ALERT_HIGHLIGHT = 'code, pre, a, .user-mention, .user-group-mention, .alert-word';

/**
 * The reader's alert words marked in a message that has them (`<span class="alert-word">`), as the
 * public web app shows them: whole words or phrases, any case, between the start or end of the text,
 * spaces and punctuation. Works on the parsed, already sanitized HTML, so only text is ever wrapped.
 */
export function highlightAlertWords(html: string, words: readonly string[]): string {
  const escaped = words
    .filter((w) => w.trim() !== '')
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (escaped.length === 0) return html;
  const pattern = new RegExp(`(^|[\\s\\p{P}])(${escaped.join('|')})(?=$|[\\s\\p{P}])`, 'giu');
  const template = document.createElement('template');
  template.innerHTML = html;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(NO_ALERT_HIGHLIGHT)) texts.push(node as Text);
  }
  let changed = false;
  for (const text of texts) {
    const value = text.data;
    pattern.lastIndex = 0;
    if (!pattern.test(value)) continue;
    pattern.lastIndex = 0;
    const parts = document.createDocumentFragment();
    let at = 0;
    for (const match of value.matchAll(pattern)) {
      const start = match.index + match[1].length;
      parts.append(value.slice(at, start));
      const span = document.createElement('span');
      span.className = 'alert-word';
      span.textContent = match[2];
      parts.append(span);
      at = start + match[2].length;
    }
    parts.append(value.slice(at));
    text.replaceWith(parts);
    changed = true;
  }
  return changed ? template.innerHTML : html;
}

/**
 * A message body as every view shows it (rows, compose's preview, scheduled messages, the idle
 * warm-up): the server's HTML sanitized and decorated (both cached by content), custom emoji as text
 * with the "text" emojiset, animated previews still unless they always play, and global times in
 * the reader's format.
 */
export function messageBodyHtml(
  serverHtml: string,
  accountId: string,
  display: { textEmoji?: boolean; twentyFourHour?: boolean; stillImages?: boolean } = {},
): string {
  let html = decorateMessageHtml(sanitizeMessageHtml(serverHtml, accountId));
  if (display.textEmoji) html = customEmojiAsText(html);
  if (display.stillImages) html = stillAnimatedImages(html);
  return localizeTimes(html, display.twentyFourHour ?? false);
}
