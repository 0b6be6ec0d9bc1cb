// Narrow links as the web app writes them into message HTML and message links: `#narrow/` then
// operator/operand pairs, each operand encoded with the web app's hash encoding (percent-encoding
// with "." in place of "%"): `/#narrow/channel/12-design/topic/release.20plan/near/345`,
// `#narrow/dm/5,7-group`. Channel, user and DM operands lead with ids ("12-design"); the name after
// the dash is decoration that goes stale on a rename, so only the id is read.
import { canonicalOperator, canonicalNarrow, type Narrow, type NarrowTerm } from './narrow';

/** The web app's hash encoding of one operand. */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/\./g, '.2E')
    .replace(/%/g, '.')
    .replace(/\(/g, '.28')
    .replace(/\)/g, '.29');
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return text;
  }
}

export interface NarrowLink {
  narrow: Narrow;
  /** The message the link points at (`near/ID` or `with/ID`), to open the narrow around. */
  anchor?: number;
}

const LEADING_ID = /^(\d+)(?:-|$)/;

function operandOf(operator: string, raw: string): NarrowTerm['operand'] | null {
  const text = decodeHashComponent(raw);
  switch (operator) {
    case 'channel':
    case 'sender': {
      const id = LEADING_ID.exec(text);
      return id ? Number(id[1]) : text;
    }
    case 'dm':
    case 'dm-including': {
      const ids = /^(\d+(?:,\d+)*)(?:-|$)/.exec(text);
      if (!ids) return text; // an email list, as old links have
      const list = ids[1]!.split(',').map(Number);
      return operator === 'dm' ? list : list[0]!;
    }
    case 'near':
    case 'with':
    case 'id': {
      const n = Number(text);
      return Number.isSafeInteger(n) && n > 0 ? n : null;
    }
    default:
      return text;
  }
}

/**
 * The narrow of a link whose fragment starts with `#narrow/` (relative, or absolute on the realm),
 * or null when the href is not a narrow link or names nothing.
 */
export function parseNarrowLink(href: string): NarrowLink | null {
  const at = href.indexOf('#narrow/');
  if (at < 0) return null;
  const parts = href
    .slice(at + '#narrow/'.length)
    .split('/')
    .filter((p) => p !== '');
  const terms: NarrowTerm[] = [];
  let anchor: number | undefined;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const rawOperator = decodeHashComponent(parts[i]!);
    const negated = rawOperator.startsWith('-');
    const operator = canonicalOperator(negated ? rawOperator.slice(1) : rawOperator);
    const operand = operandOf(operator, parts[i + 1]!);
    if (operand === null) continue;
    if ((operator === 'near' || operator === 'with') && !negated) {
      // Not a filter: the place in the narrow to open at.
      anchor = operand as number;
      continue;
    }
    terms.push(negated ? { operator, operand, negated } : { operator, operand });
  }
  if (terms.length === 0 && anchor === undefined) return null;
  return anchor === undefined
    ? { narrow: canonicalNarrow(terms) }
    : { narrow: canonicalNarrow(terms), anchor };
}

/** The `#narrow/…/near/ID` fragment of one message in its conversation, as the web app links it. */
export function messageNearFragment(
  message:
    | { type: 'stream'; id: number; stream_id: number; display_recipient: string; subject: string }
    | { type: 'private'; id: number; display_recipient: ReadonlyArray<{ id: number }> },
  selfUserId: number,
): string {
  if (message.type === 'stream') {
    const channel = `${message.stream_id}-${encodeHashComponent(message.display_recipient)}`;
    return `#narrow/channel/${channel}/topic/${encodeHashComponent(message.subject)}/near/${message.id}`;
  }
  const others = message.display_recipient.map((r) => r.id).filter((id) => id !== selfUserId);
  const ids = (others.length ? others : [selfUserId]).sort((a, b) => a - b);
  return `#narrow/dm/${ids.join(',')}-${ids.length > 1 ? 'group' : 'dm'}/near/${message.id}`;
}

/**
 * A channel's id and name as the web app writes them in links: `12-release-planning` (spaces as
 * dashes, only to read nicely), then hash-encoded.
 */
export function channelSlug(streamId: number, name: string): string {
  return encodeHashComponent(`${streamId}-${name.replace(/ /g, '-')}`);
}

/** The `#narrow/channel/…/topic/…` fragment of a topic, as the web app's "Copy link to topic". */
export function topicFragment(streamId: number, channelName: string, topic: string): string {
  return `#narrow/channel/${channelSlug(streamId, channelName)}/topic/${encodeHashComponent(topic)}`;
}
