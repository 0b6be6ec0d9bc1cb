// Realm linkifiers (spec 4.18) applied to messages: a markdown-it core rule turns matches in plain
// text (never inside code or existing links) into links, and linkifierMatches gives the topic_links
// of a topic. Matches must stand alone, as on the public server: preceded by the start, whitespace
// or one of ' " ( , : < and not followed by a word character. URLs that are not http(s) or mailto
// are dropped, so an administrator's template cannot inject script links either.
import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import type { MentionEnv } from './mentions';
import { replaceTextOutsideLinks } from './text-tokens';

export interface Linkifier {
  /** The linkifier's pattern, compiled. */
  regex: RegExp;
  /** Expands the named groups of a match into the link URL. */
  url(groups: Record<string, string>): string;
}

export interface LinkMatch {
  index: number;
  text: string;
  url: string;
}

const SAFE_URL = /^(https?:|mailto:)/i;

function boundedPattern(linkifier: Linkifier): RegExp {
  return new RegExp(`(?<![^\\s'"(,:<])(?:${linkifier.regex.source})(?![\\p{L}\\p{N}_])`, 'gu');
}

/** Non-overlapping matches of all linkifiers in text, earliest first (earlier linkifiers win ties). */
export function linkifierMatches(text: string, linkifiers: readonly Linkifier[]): LinkMatch[] {
  const found: LinkMatch[] = [];
  for (const linkifier of linkifiers) {
    for (const match of text.matchAll(boundedPattern(linkifier))) {
      if (match[0] === '') continue;
      const url = linkifier.url(match.groups ?? {});
      if (!SAFE_URL.test(url)) continue;
      const index = match.index ?? 0;
      const overlaps = found.some(
        (f) => index < f.index + f.text.length && f.index < index + match[0].length,
      );
      if (!overlaps) found.push({ index, text: match[0], url });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

function linkTokens(state: StateCore, text: string, matches: LinkMatch[]): Token[] {
  const out: Token[] = [];
  let pos = 0;
  const pushText = (content: string) => {
    if (content === '') return;
    const token = new state.Token('text', '', 0);
    token.content = content;
    out.push(token);
  };
  for (const match of matches) {
    pushText(text.slice(pos, match.index));
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', match.url]];
    open.markup = 'linkifier';
    out.push(open);
    pushText(match.text);
    out.push(new state.Token('link_close', 'a', -1));
    pos = match.index + match.text.length;
  }
  pushText(text.slice(pos));
  return out;
}

function linkifierRule(state: StateCore): void {
  const env = state.env as unknown as MentionEnv;
  const linkifiers = env?.lookup?.linkifiers?.() ?? [];
  if (linkifiers.length === 0) return;
  replaceTextOutsideLinks(state, (token) => {
    const matches = linkifierMatches(token.content, linkifiers);
    return matches.length === 0 ? null : linkTokens(state, token.content, matches);
  });
}

export const linkifiersPlugin = (md: MarkdownIt): void => {
  // After text_join, so text split at special characters (e.g. '#') is whole again, and after
  // bare URLs are linked, as on the public server.
  // (links.ts must be in use first.)
  md.core.ruler.after('chat_autolink', 'chat_linkifiers', linkifierRule);
};
