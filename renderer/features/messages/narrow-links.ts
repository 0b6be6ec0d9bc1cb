// Links into the realm inside message HTML (channel, topic and message links: `#narrow/…`) open in
// the app instead of a browser. The sanitizer (lib/sanitize.ts) keeps relative ones as
// `href="#narrow/…"` marked `data-narrow-link`; absolute ones to the account's own server
// (`https://realm/#narrow/…`, as message links and quotes carry them) are recognised here.
import { parseNarrowLink, type NarrowLink } from '../../../shared/narrow/link';
import { navigate, uiStore } from '../../store/ui-store';

function sameServer(href: string, site: string): boolean {
  try {
    const link = new URL(href);
    const server = new URL(site);
    const base = server.pathname.replace(/\/$/, '');
    return link.origin === server.origin && link.pathname.replace(/\/$/, '') === base;
  } catch {
    return false;
  }
}

/** The narrow a link in a message of this account opens in the app, or null for other links. */
export function inAppNarrowLink(anchor: Element, accountId: string | undefined): NarrowLink | null {
  const href = anchor.getAttribute('href') ?? '';
  if (anchor.hasAttribute('data-narrow-link')) return parseNarrowLink(href);
  if (!/^https?:/i.test(href) || !href.includes('#narrow/') || !accountId) return null;
  const site = uiStore.getState().accounts.find((a) => a.id === accountId)?.site;
  return site && sameServer(href, site) ? parseNarrowLink(href) : null;
}

/** Opens a link in the app when it is a narrow link of this account; false for other links. */
export function openNarrowLink(anchor: Element, accountId: string | undefined): boolean {
  const link = inAppNarrowLink(anchor, accountId);
  if (!link) return false;
  navigate(
    link.anchor === undefined
      ? { kind: 'narrow', narrow: link.narrow }
      : { kind: 'narrow', narrow: link.narrow, anchor: link.anchor },
  );
  return true;
}
