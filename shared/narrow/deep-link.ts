// Deep links into Tributary from outside the app (a browser, a chat in another program, a script):
// `tributary://` and, for links written for the public desktop app, `zulip://`. A link names a server
// and, optionally, a place on it in the web app's own `#narrow/…` encoding (see link.ts):
//
//   tributary://chat.example.com/#narrow/channel/12-general/topic/release.20plan/near/345
//   zulip://chat.example.com:8443/team/#narrow/dm/5,7-group
//   tributary://open?url=https%3A%2F%2Fchat.example.com%2F%23narrow%2Fchannel%2F12-general
//
// The third form carries a whole realm URL, for links whose fragment a shell or OS might drop. The
// scheme of the server is not part of the first two forms, so a server is named by host, port and
// path only, and the renderer matches it against its accounts' sites the same way.
import { parseNarrowLink } from './link';
import type { Narrow } from './narrow';

export const DEEP_LINK_SCHEMES = ['tributary', 'zulip'] as const;

export interface DeepLink {
  /** `host[:port][/path]`, lower-case host, no trailing slash: compare with `serverKey(site)`. */
  server: string;
  /** Absent when the link only opens the server (its account). */
  narrow?: Narrow;
  /** The message to open the narrow at (`near/ID`, `with/ID`). */
  anchor?: number;
}

const MAX_LINK_LENGTH = 8192;
const SCHEME = /^(tributary|zulip):\/\/(.*)$/is;
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
const WEB_URL = /^https?:\/\/([^/?#]*)([^?#]*)(?:\?[^#]*)?(#.*)?$/i;

/** Whether a command-line argument or OS-delivered URL is one of our deep links (before parsing). */
export function isDeepLinkUrl(text: string): boolean {
  return SCHEME.test(text.trim());
}

/**
 * The key of a server for matching a deep link to an account: `https://Chat.example.com/team/`
 * becomes `chat.example.com/team`. Null when the text is not an http(s) URL.
 */
export function serverKey(site: string): string | null {
  const match = WEB_URL.exec(site.trim());
  if (!match) return null;
  return hostAndPath(match[1]!, match[2]!);
}

function hostAndPath(host: string, path: string): string | null {
  if (!HOST.test(host)) return null; // userinfo, empty or odd hosts
  const cleanPath = path.replace(/\/+$/, '');
  if (/[\s\\]/.test(cleanPath) || /(^|\/)\.\.?(\/|$)/.test(cleanPath)) return null;
  return `${host.toLowerCase()}${cleanPath}`;
}

function withFragment(server: string, fragment: string | undefined): DeepLink {
  const link = fragment ? parseNarrowLink(fragment) : null;
  if (!link) return { server };
  return link.anchor === undefined
    ? { server, narrow: link.narrow }
    : { server, narrow: link.narrow, anchor: link.anchor };
}

function queryParam(query: string, name: string): string | null {
  for (const part of query.split('&')) {
    const at = part.indexOf('=');
    const key = at < 0 ? part : part.slice(0, at);
    if (key !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).replace(/\+/g, ' '));
    } catch {
      return null;
    }
  }
  return null;
}

/** The server and place a deep link names, or null for anything that is not a well-formed one. */
export function parseDeepLink(text: string): DeepLink | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_LINK_LENGTH) return null;
  const scheme = SCHEME.exec(trimmed);
  if (!scheme) return null;
  const rest = scheme[2]!;
  const hashAt = rest.indexOf('#');
  const beforeHash = hashAt < 0 ? rest : rest.slice(0, hashAt);
  const fragment = hashAt < 0 ? undefined : rest.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const authorityAndPath = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  const slash = authorityAndPath.indexOf('/');
  const host = slash < 0 ? authorityAndPath : authorityAndPath.slice(0, slash);
  const path = slash < 0 ? '' : authorityAndPath.slice(slash);

  if (host.toLowerCase() === 'open' && path.replace(/\/+$/, '') === '') {
    const url = queryParam(query, 'url');
    const web = url ? WEB_URL.exec(url) : null;
    if (!web) return null;
    const server = hostAndPath(web[1]!, web[2]!);
    return server ? withFragment(server, web[3]) : null;
  }
  const server = hostAndPath(host, path);
  return server ? withFragment(server, fragment) : null;
}
