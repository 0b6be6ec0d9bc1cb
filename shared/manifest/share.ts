// Sharing a meeting in a conversation (issue 21, part 3): the message that carries it, and the
// `--to` destination of the command line. The message is one summary line (title, duration) and one
// Markdown link per uploaded file, named by its file name: a receiving client resolves the manifest's
// `path` references against the files linked in the same message, by file name.
import { formatDuration } from './duration';

export interface SharedFile {
  /** The file name the manifest refers to it by (its last path segment). */
  name: string;
  /** The realm-relative URL the upload answered with (/user_uploads/…). */
  url: string;
}

export interface ShareSummary {
  title?: string;
  durationMs?: number;
}

/** The summary line: "Meeting recording: Weekly planning (20.5 s)". */
export function meetingSummaryLine(meeting: ShareSummary): string {
  const title = oneLine(meeting.title ?? '') || 'Untitled meeting';
  const duration =
    typeof meeting.durationMs === 'number' &&
    Number.isFinite(meeting.durationMs) &&
    meeting.durationMs >= 0
      ? ` (${formatDuration(meeting.durationMs)})`
      : '';
  return `Meeting recording: ${withoutMentions(title)}${duration}`;
}

/** The whole message: the summary line, then one link per file (manifest first). */
export function meetingShareContent(meeting: ShareSummary, files: readonly SharedFile[]): string {
  const links = files.map((f) => `[${f.name}](${linkTarget(f.url)})`);
  return [meetingSummaryLine(meeting), ...links].join('\n');
}

/** Where a meeting is shared: a channel's topic, or a direct message to people by email. */
export type ShareTarget =
  { type: 'channel'; channel: string; topic: string } | { type: 'direct'; emails: string[] };

/**
 * Parses the command line's `--to`: `channel:NAME topic:TOPIC` (the channel name may contain spaces;
 * the topic is everything after " topic:") or `dm:EMAIL[,EMAIL…]`. Throws with a usage message.
 */
export function parseShareTarget(text: string): ShareTarget {
  const input = text.trim();
  const channel = /^channel:(.+?)\s+topic:(.*)$/s.exec(input);
  if (channel) {
    const name = channel[1].trim();
    const topic = channel[2].trim();
    if (!name) throw new Error('the channel name is empty');
    if (!topic) throw new Error('the topic is empty');
    return { type: 'channel', channel: name, topic };
  }
  if (input.startsWith('channel:'))
    throw new Error('a channel needs a topic: channel:NAME topic:TOPIC');
  const dm = /^dm:(.+)$/s.exec(input);
  if (dm) {
    const emails = dm[1]
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = emails.find((e) => !/^[^\s@]+@[^\s@]+$/.test(e));
    if (emails.length === 0 || bad !== undefined)
      throw new Error(`not an email address: "${bad ?? dm[1]}"`);
    return { type: 'direct', emails };
  }
  throw new Error(`"${text}" is neither channel:NAME topic:TOPIC nor dm:EMAIL`);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The chat server's Markdown has no backslash escapes, so a title is written as it is, except that
 * an "@" cannot start a mention: "@**all** review" must not notify everyone (a zero-width space
 * follows each "@").
 */
function withoutMentions(text: string): string {
  return text.replace(/@/g, '@\u200b');
}

/** Whether a file name can be a Markdown link's text as it is (the name a receiver resolves by). */
export function linkableFileName(name: string): boolean {
  return name.length > 0 && !/[[\]\\\p{Cc}]/u.test(name);
}

/** A link target Markdown cannot end early: spaces and parentheses are percent-encoded. */
function linkTarget(url: string): string {
  // encodeURIComponent leaves "(" and ")" as they are, so each is written out.
  return url.replace(/[\s()<>]/g, (c) =>
    encodeURIComponent(c) === c
      ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
      : encodeURIComponent(c),
  );
}
