// Links as the public server makes them. URLs pass an allow-list of schemes (anything else is left
// as text); a URL without a scheme gets http:// (or mailto: when it holds an @); links into this
// realm's narrows and uploads become relative. Bare addresses in text are linked by the public
// server's pattern (scheme URLs, domains on a known top-level domain, e-mail addresses), with
// balanced parentheses up to six deep and trailing punctuation left out. Stored links carry no
// target or rel: the client decides how to open them.
import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import tlds from 'tlds';
import type { MentionEnv } from './mentions';
import { replaceTextOutsideLinks, textToken } from './text-tokens';

const ALLOWED_SCHEMES = new Set([
  'http',
  'https',
  'ftp',
  'file',
  'bitcoin',
  'geo',
  'im',
  'irc',
  'ircs',
  'magnet',
  'mailto',
  'matrix',
  'mms',
  'news',
  'nntp',
  'openpgp4fpr',
  'sip',
  'sms',
  'smsto',
  'ssh',
  'tel',
  'urn',
  'webcal',
  'wtai',
  'xmpp',
]);
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/** The href for a URL, or null when its scheme is not allowed. */
export function sanitizeUrl(url: string): string | null {
  const scheme = SCHEME.exec(url);
  if (scheme) return ALLOWED_SCHEMES.has(scheme[1].toLowerCase()) ? url : null;
  if (!url.startsWith('//')) {
    const path = url.split(/[?#]/, 1)[0];
    if (path.includes('@')) return `mailto:${url}`;
    if (url.startsWith('/')) return url;
    if (url.startsWith('#') && url.length > 1) return url;
  }
  return sanitizeUrl(`http://${url}`);
}

/** Links to this realm's narrows and uploads, made relative. */
export function relativeToRealm(href: string, realmUrl: string | undefined): string {
  if (!realmUrl) return href;
  const prefix = `${realmUrl.replace(/\/$/, '')}/`;
  if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) {
    return href.slice(prefix.length);
  }
  return href;
}

// The public server excludes a few TLDs that are mostly file extensions.
const FALSE_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);
const WORD = String.raw`[\p{L}\p{N}_]`;

function webLinkPattern(): RegExp {
  const names = tlds
    .filter((tld) => !FALSE_TLDS.has(tld))
    .sort((a, b) => b.length - a.length)
    .map((tld) => tld.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
  const group = String.raw`[^\s()"]*?(?:\(%s\)[^\s()"]*?)*`;
  let nested = group;
  for (let i = 0; i < 6; i++) nested = nested.replace('%s', group);
  nested = nested.replace('%s', String.raw`[^\s()"]*`);
  const domain = String.raw`(?:https?://[\p{L}\p{N}_.:@-]+?|(?:[\p{L}\p{N}_-]+\.)+(?:${names}))`;
  const email = String.raw`[\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+\.${WORD}+`;
  const bitcoin = 'bitcoin:[13][a-km-zA-HJ-NP-Z1-9]{25,34}';
  return new RegExp(
    String.raw`(?<![^\s'"(,:<])(${domain}(?:/${nested})?|${email}|${bitcoin})(?=[!:;?),.'">]*(?:$|\s))`,
    'gu',
  );
}

let webLink: RegExp | undefined;

interface LinkEnv extends MentionEnv {
  realmUrl?: string;
}

function linkTokens(state: StateCore, text: string, before: string, after: string): Token[] | null {
  webLink ??= webLinkPattern();
  // Context characters stand for what surrounds this text in the message: a space where a
  // boundary is allowed, a control character where another element touches it.
  const subject = `${before}${text}${after}`;
  let out: Token[] | null = null;
  let last = 0;
  const env = state.env as unknown as LinkEnv;
  for (const match of linkMatches(subject, webLink)) {
    const start = match.index - before.length;
    const end = start + match[0].length;
    if (start < 0 || end > text.length) continue;
    const url = match[1];
    const href = sanitizeUrl(url);
    if (href === null) continue;
    out ??= [];
    if (start > last) out.push(textToken(state, text.slice(last, start)));
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', relativeToRealm(href, env.realmUrl)]];
    open.markup = 'autolink';
    out.push(open, textToken(state, url), new state.Token('link_close', 'a', -1));
    last = end;
  }
  if (out && last < text.length) out.push(textToken(state, text.slice(last)));
  return out;
}

/** A run of characters other than whitespace. */
const RUN = /\S+/g;

/**
 * The pattern's matches in `subject`, looked for only around the runs of non-space characters that
 * hold a '.', ':' or '@': every link the pattern finds has one (a domain's dot, a scheme's colon,
 * an address's at sign) and none spans whitespace. Each run is matched with the character before
 * it (the pattern looks behind one) and after it (its end is whitespace or the end). Running the
 * pattern over every word of a 10,000-character message took 25-40 ms (bench/hostile-load).
 */
function* linkMatches(
  subject: string,
  pattern: RegExp,
): Generator<{ index: number; 0: string; 1: string }> {
  for (const run of subject.matchAll(RUN)) {
    const word = run[0];
    if (!word.includes('.') && !word.includes(':') && !word.includes('@')) continue;
    const from = Math.max(0, run.index - 1);
    const window = subject.slice(from, run.index + word.length + 1);
    for (const match of window.matchAll(pattern)) {
      const index = from + match.index;
      // A match in the character before the run belongs to no run (it is whitespace).
      if (index < run.index) continue;
      yield { index, 0: match[0], 1: match[1] };
    }
  }
}

function boundary(token: Token | undefined): string {
  if (!token) return ' ';
  return token.type === 'softbreak' || token.type === 'hardbreak' ? '\n' : '\u0003';
}

function autolinkRule(state: StateCore): void {
  replaceTextOutsideLinks(state, (token, before, after) =>
    linkTokens(state, token.content, boundary(before), boundary(after)),
  );
}

// A link whose text is empty or blank shows its URL; links into the realm become relative.
function linkFixupRule(state: StateCore): void {
  const env = state.env as unknown as LinkEnv;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    for (let i = 0; i < children.length; i++) {
      const token = children[i];
      if (token.type !== 'link_open' || token.markup === 'autolink') continue;
      const href = relativeToRealm(String(token.attrGet('href') ?? ''), env.realmUrl);
      token.attrSet('href', href);
      let close = i + 1;
      while (close < children.length && children[close].type !== 'link_close') close++;
      const inner = children.slice(i + 1, close);
      if (inner.every((t) => t.type === 'text' && t.content.trim() === '')) {
        children.splice(i + 1, close - i - 1, textToken(state, href));
      }
    }
  }
}

const INVALID = '\u0000';

export const linksPlugin = (md: MarkdownIt): void => {
  md.normalizeLink = (url) => sanitizeUrl(url.trim()) ?? INVALID;
  md.normalizeLinkText = (text) => text;
  md.validateLink = (url) => url !== INVALID;
  md.core.ruler.after('inline', 'chat_link_fixup', linkFixupRule);
  md.core.ruler.after('text_join', 'chat_autolink', autolinkRule);
};
