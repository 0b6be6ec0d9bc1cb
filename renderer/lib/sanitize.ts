// Message HTML comes from the chat server and is untrusted: it passes through DOMPurify before it
// reaches the DOM. Our hooks then make links safe to click (main opens them outside the app) and
// point realm images and uploads at main's authenticated media route, since the page itself never
// talks to the chat server and the CSP allows no remote images.
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { mediaUrl } from '../bridge/media';
import { uiStore } from '../store/ui-store';
import { katexClasses, katexStyle } from './sanitize-katex';

const EXTERNAL_SCHEMES = /^(https?:|mailto:)/i;
/** Links into the realm's own views (`/#narrow/…` as the server renders them, or `#narrow/…`). */
const NARROW_LINK = /^\/?#narrow\//;
/** Paths on the realm that need the account's credentials. */
const REALM_PATH = /^\/(user_uploads|user_avatars|thumbnail|external_content)\//;

/**
 * Class names message HTML may keep: those of the server's rendered markdown (code blocks and their
 * highlighting tokens, mentions, channel and message links, emoji, inline images, videos and
 * embeds, spoilers, math, time stamps) and a search's matched words (`highlight`). Any other class
 * is dropped, so that a hostile server cannot dress message content in the app's own classes (`overlay`, `menu`, `banner`, `app`, ...) and pass
 * it off as the app's controls.
 */
const MESSAGE_CLASS =
  /^(?:codehilite|user-mention|user-group-mention|channel-wildcard-mention|topic-mention|silent|stream|stream-topic|message-link|emoji(?:-[0-9a-f]+)*|message_inline_image|message_inline_video|message_inline_ref|image-loading-placeholder|message_embed(?:_[a-z]+)?|data-container|youtube-video|vimeo-video|embed-video|spoiler-(?:block|header|content)|katex(?:-[a-z]+)*|tex-error|timestamp(?:-error)?|rendered_markdown|highlight)$/;

/**
 * Pygments' token classes inside code blocks, listed rather than matched by shape: short names
 * such as `app`, `dm` or `nav` are also the app's own.
 */
const HIGHLIGHT_TOKENS = new Set(
  (
    'hll w esc err x k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm py nl nn nx nt nv vc vg ' +
    'vi vm l ld s sa sb sc dl sd s2 se sh si sx sr s1 ss m mb mf mh mi il mo o ow p pm c ch cm cp ' +
    'cpf c1 cs g gd ge gr gh gi go gp gs gu gt'
  ).split(' '),
);

/** The message classes of a class attribute's value (see MESSAGE_CLASS). */
function messageClasses(value: string): string {
  return value
    .split(/\s+/)
    .filter((c) => MESSAGE_CLASS.test(c) || HIGHLIGHT_TOKENS.has(c))
    .join(' ');
}

let purifier: DOMPurify | null = null;
/** The account whose message is being sanitized (hooks run synchronously inside sanitize()). */
let currentAccount = '';
/** Whether the HTML being sanitized is an edit history version, whose diff marks keep their class. */
let currentDiffMarks = false;

/**
 * The edit history's own marks of what an edit changed (shared/diff/word-diff.ts), told apart from an
 * author's `~~struck~~` text (a bare `<del>`); kept only on that path and only on those tags.
 */
const DIFF_MARK_CLASS: Record<string, string> = { INS: 'diff-inserted', DEL: 'diff-deleted' };

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  const p = createDOMPurify(window);
  // Before the element hook below, which sets them on an image's or video's link.
  p.addHook('uponSanitizeElement', (node) => {
    if (node.nodeType === 1) dropRemoteMediaAttributes(node as Element);
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    // Math keeps KaTeX's own classes and inline sizes (sanitize-katex.ts); nothing else has style.
    const inMath = el.closest('.katex') !== null;
    const classes = el.getAttribute('class');
    if (classes !== null) {
      let kept = messageClasses(classes);
      if (inMath)
        kept = [...new Set([...kept.split(' '), ...katexClasses(classes)])].join(' ').trim();
      const diffMark = DIFF_MARK_CLASS[el.tagName];
      if (currentDiffMarks && diffMark && classes.split(/\s+/).includes(diffMark))
        kept = `${kept} ${diffMark}`.trim();
      if (kept) el.setAttribute('class', kept);
      else el.removeAttribute('class');
    }
    const style = el.getAttribute('style');
    if (style !== null) {
      const kept = inMath ? katexStyle(style) : '';
      if (kept) el.setAttribute('style', kept);
      else el.removeAttribute('style');
    }
    // Nor may it pose as the app's dialogs and menus to assistive technology and to the app's own
    // lookups (`[aria-modal="true"]`, `[role=menuitem]`): only an image role (emoji) stays.
    el.removeAttribute('aria-modal');
    const role = el.getAttribute('role');
    if (role !== null && role !== 'img') el.removeAttribute('role');
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      // Ours to set, never the server's: they tell the click handler how to open the link.
      for (const ours of ['data-narrow-link', 'data-realm-href', 'data-internal-href'])
        el.removeAttribute(ours);
      if (REALM_PATH.test(href)) {
        const local = currentAccount ? mediaUrl(currentAccount, href) : null;
        el.setAttribute('data-realm-href', href);
        if (local) el.setAttribute('href', local);
        else el.removeAttribute('href');
      } else if (NARROW_LINK.test(href)) {
        // Channel, topic and message links: kept focusable, opened in the app by the message's
        // click handler (features/messages/narrow-links.ts), never by the page.
        el.setAttribute('href', href.slice(href.indexOf('#')));
        el.setAttribute('data-narrow-link', '');
      } else if (href && !EXTERNAL_SCHEMES.test(href) && !href.startsWith('#')) {
        // Anything else (relative narrow links, unknown schemes) is not followed by the page.
        el.setAttribute('data-internal-href', href);
        el.removeAttribute('href');
      }
      if (el.hasAttribute('href') && !el.hasAttribute('data-narrow-link')) {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      }
    } else if (el.tagName === 'IMG') {
      const src = el.getAttribute('src') ?? '';
      const local = realmMediaSource(src);
      // A srcset may name any host, whatever src says.
      el.removeAttribute('srcset');
      if (local) el.setAttribute('src', local);
      else if (!src.startsWith('data:image/')) {
        // Remote images would leak reads to third parties and are blocked by the CSP anyway.
        el.removeAttribute('src');
        markRemoteMedia(el, src, 'image');
      }
      el.setAttribute('loading', 'lazy');
      reserveImageBox(el);
    } else if (el.tagName === 'VIDEO') {
      sanitizeVideo(el);
    } else if (['AUDIO', 'SOURCE', 'TRACK'].includes(el.tagName) || el.localName === 'image') {
      sanitizeLoadingElement(el);
    }
  });
  // Set once: options passed to each sanitize() call are parsed again on every call.
  p.setConfig(OPTIONS);
  purifier = p;
  return p;
}

// --- Images and videos in messages (features/messages/media/ shows and opens them) ------------
// A remote image or video is never loaded unasked: its src is kept in data-remote-src and its link
// (the public server wraps every preview in one) shows a placeholder naming the host until the
// person clicks it. Realm videos play through the media route, fetching metadata only. An image
// with data-original-dimensions gets its box before it loads, as the public web app sizes it.

/** Ours to set, never the server's: the remote media placeholders' state. */
const REMOTE_MEDIA_ATTRIBUTES = ['data-remote-src', 'data-remote-host', 'data-remote-kind'];
/** Preview height, in em of the message font, and how many pixels of a small image fit in it. */
const IMAGE_BOX_EM = 10;
const IMAGE_BOX_PX = 160;

function markRemoteMedia(el: Element, src: string, kind: 'image' | 'video'): void {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  el.setAttribute('data-remote-src', url.href);
  const link = el.parentElement;
  if (link?.tagName !== 'A') return;
  link.setAttribute('data-remote-host', url.host);
  link.setAttribute('data-remote-kind', kind);
  link.setAttribute(
    'aria-label',
    `${kind === 'image' ? 'Image' : 'Video'} from ${url.host}: click to load`,
  );
}

function reserveImageBox(el: Element): void {
  const found = /^(\d{1,6})x(\d{1,6})$/.exec(el.getAttribute('data-original-dimensions') ?? '');
  const width = Number(found?.[1]);
  const height = Number(found?.[2]);
  if (!width || !height || !el.closest('.message_inline_image')) return;
  el.setAttribute('width', String(width));
  el.setAttribute('height', String(height));
  // Small images at their own size; others IMAGE_BOX_EM tall, as wide as their shape makes them.
  const boxWidth =
    height <= IMAGE_BOX_PX ? `${width}px` : `${((IMAGE_BOX_EM * width) / height).toFixed(3)}em`;
  el.setAttribute('style', `width: ${boxWidth}; aspect-ratio: ${width} / ${height}`);
}

/**
 * The media route's URL for a realm image or video: a realm path (`/user_uploads/…`, camo's
 * `/external_content/…`), or the same path as an absolute URL on the account's own server.
 */
function realmMediaSource(src: string): string | null {
  if (!currentAccount) return null;
  if (REALM_PATH.test(src)) return mediaUrl(currentAccount, src);
  const site = uiStore.getState().accounts.find((a) => a.id === currentAccount)?.site;
  if (!site || !/^https?:\/\//i.test(src)) return null;
  try {
    const url = new URL(src);
    const base = new URL(site.endsWith('/') ? site : `${site}/`);
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
    const path = `/${url.pathname.slice(base.pathname.length)}${url.search}`;
    return REALM_PATH.test(path) ? mediaUrl(currentAccount, path) : null;
  } catch {
    return null;
  }
}

/**
 * Every other element that can load a URL by itself: `<audio>`, `<source>` (in a video, audio or
 * picture) and `<track>` keep only a realm source, through the media route; an SVG `<image>`
 * keeps none. `srcset` could name any host, so it never stays.
 */
function sanitizeLoadingElement(el: Element): void {
  el.removeAttribute('srcset');
  if (el.tagName === 'AUDIO') {
    el.removeAttribute('autoplay');
    el.setAttribute('preload', 'metadata');
    el.setAttribute('controls', '');
  }
  if (el.tagName === 'IMAGE' || el.localName === 'image') {
    el.removeAttribute('href');
    el.removeAttribute('xlink:href');
    return;
  }
  const src = el.getAttribute('src');
  if (src === null) return;
  const local = realmMediaSource(src);
  if (local) el.setAttribute('src', local);
  else el.removeAttribute('src');
}

function sanitizeVideo(el: Element): void {
  const src = el.getAttribute('src') ?? '';
  const local = realmMediaSource(src);
  if (local) el.setAttribute('src', local);
  else {
    el.removeAttribute('src');
    markRemoteMedia(el, src, 'video');
  }
  el.removeAttribute('poster');
  el.removeAttribute('autoplay');
  el.setAttribute('preload', 'metadata');
  el.setAttribute('controls', '');
}

function dropRemoteMediaAttributes(node: Element): void {
  for (const name of REMOTE_MEDIA_ATTRIBUTES) node.removeAttribute(name);
}
// --- end of images and videos ----------------------------------------------------------------

const OPTIONS = {
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'iframe',
    'object',
    'embed',
    // Inert until a script clones it, but its content escapes every hook above (DOMPurify walks
    // it as a fragment): nothing of the server's needs one.
    'template',
  ],
  // KaTeX's MathML copy wraps the formula in <semantics> with its TeX source as an <annotation>
  // (text only; never annotation-xml, an HTML integration point).
  ADD_TAGS: ['semantics', 'annotation'],
  ADD_ATTR: ['encoding'],
  // `style` is filtered by the hook: kept only inside math, and only as KaTeX writes it.
  FORBID_ATTR: ['srcdoc', 'formaction'],
  ALLOW_DATA_ATTR: true,
  // Message ids and names become `user-content-…`: they can neither clash with the app's elements
  // nor shadow document properties.
  SANITIZE_NAMED_PROPS: true,
};

/**
 * HTML made only of these tags, none with any attribute, plus text and character references,
 * cannot run anything or load anything: it needs no DOMPurify pass (which parses a whole document
 * per call, the largest cost of showing a screen of short messages). Anything else, any attribute
 * included, goes through DOMPurify.
 */
const PLAIN_HTML =
  /^(?:[^<>&]|&(?:[a-zA-Z]{2,31}|#\d{1,7}|#x[0-9a-fA-F]{1,6});|<\/?(?:p|br|strong|em|b|i|del|s|code|pre|blockquote|ul|ol|li|hr|h[1-6])>)*$/;

/**
 * The next most common shapes of server-rendered messages, also without DOMPurify: the plain tags
 * plus div and span, a class attribute of word characters on a block or code tag (code blocks are
 * `<div class="codehilite"><pre><span></span><code>`), and external links written exactly as
 * `<a href="http(s)://…">` with an address of URL characters only (no quote, no `&`, no `<` or
 * `>`, no space). The only rewrite our DOMPurify hook would make there is the one done below:
 * such a link opens outside the app (target and rel), nothing else about it changes. Anything
 * else, any other attribute or another quoting included, goes through DOMPurify.
 */
const EXTERNAL_LINK_OPEN = /<a href="(https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$'()*+,;=%]+)">/g;
const SIMPLE_HTML = new RegExp(
  '^(?:[^<>&]|&(?:[a-zA-Z]{2,31}|#\\d{1,7}|#x[0-9a-fA-F]{1,6});' +
    '|</?(?:p|br|strong|em|b|i|del|s|code|pre|blockquote|ul|ol|li|hr|h[1-6]|div|span|a)>' +
    '|<(?:p|div|span|pre|code) class="[A-Za-z0-9_ -]*">' +
    `|${EXTERNAL_LINK_OPEN.source})*$`,
);

/**
 * Longer HTML skips both patterns above and goes through DOMPurify: V8 runs out of stack matching a
 * repeated group over a few million characters (RangeError), and a hostile server could send that.
 * Server-rendered messages are far shorter; the fast paths are for screens of short ones.
 */
const FAST_PATH_MAX_CHARS = 100_000;

/** A class attribute on one of the start tags SIMPLE_HTML allows (never text that looks like one). */
const CLASS_ATTRIBUTE = /<(p|div|span|pre|code) class="([A-Za-z0-9_ -]*)">/g;

/** `html` as DOMPurify and our hook would leave it, if it is of the simple shapes above. */
function simpleHtml(html: string): string | null {
  // Math keeps classes by context (inside `.katex`), which only the DOMPurify hook sees.
  if (html.length > FAST_PATH_MAX_CHARS || html.includes('katex') || !SIMPLE_HTML.test(html))
    return null;
  return html
    .replace(
      EXTERNAL_LINK_OPEN,
      (_, href: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">`,
    )
    .replace(CLASS_ATTRIBUTE, (_, tag: string, value: string) => {
      const kept = messageClasses(value);
      return kept ? `<${tag} class="${kept}">` : `<${tag}>`;
    });
}

function purify(html: string, accountId: string, diffMarks = false): string {
  currentAccount = accountId;
  currentDiffMarks = diffMarks;
  try {
    return getPurifier().sanitize(html) as string;
  } finally {
    currentAccount = '';
    currentDiffMarks = false;
  }
}

/**
 * Results by account and HTML. A message record is replaced whenever its flags or reactions change
 * (marking a screen read replaces every row's record), while its HTML rarely does: keyed by content,
 * those rows are not sanitized again. Bounded, oldest entry out first (a Map keeps insertion order).
 */
const CACHE_ENTRIES = 2000;
const sanitized = new Map<string, string>();

/**
 * Sanitized HTML for a message body (or any server-rendered HTML) of one account. `diffMarks`: the
 * HTML is an edit history version marked by shared/diff/word-diff.ts, whose `<ins class="diff-inserted">`
 * and `<del class="diff-deleted">` keep their class (everywhere else it is dropped).
 */
export function sanitizeMessageHtml(
  html: string,
  accountId: string,
  options: { diffMarks?: boolean } = {},
): string {
  if (html.length <= FAST_PATH_MAX_CHARS && PLAIN_HTML.test(html)) return html;
  const diffMarks = options.diffMarks === true;
  const key = `${accountId}\u0000${diffMarks ? 'diff' : ''}\u0000${html}`;
  let out = sanitized.get(key);
  if (out === undefined) {
    out = simpleHtml(html) ?? purify(html, accountId, diffMarks);
    if (sanitized.size >= CACHE_ENTRIES) sanitized.delete(sanitized.keys().next().value!);
    sanitized.set(key, out);
  }
  return out;
}

/** HTML that takes every path of the hooks (links of each kind, a realm image). */
const WARM_UP_SAMPLE =
  '<p><a href="https://example.com/">a</a> <a href="/#narrow/channel/1">b</a> ' +
  '<a href="/user_uploads/1/ab/f.png">c</a></p><div class="codehilite"><pre><code>x</code></pre></div>';

/**
 * Builds DOMPurify and sanitizes a sample once while the page is idle (the app calls this after its
 * first render): its first use creates its own document and compiles its code paths, several
 * milliseconds that would otherwise fall on the first message list's first paint. Resolves once
 * done; calling it again does nothing more.
 */
let warmed: Promise<void> | null = null;
export function warmSanitizerWhenIdle(): Promise<void> {
  warmed ??= new Promise<void>((resolve) => {
    const run = () => {
      purify(WARM_UP_SAMPLE, '');
      resolve();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 0);
  });
  return warmed;
}

/** Plain text of server HTML (for previews, quoting and editing), never parsed as live DOM. */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(getPurifier().sanitize(html) as string, 'text/html');
  return doc.body.textContent ?? '';
}
