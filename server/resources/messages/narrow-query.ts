// Runs narrows for one viewer: the visibility condition (received messages, plus the history of
// channels the viewer may read) ANDed with the compiled narrow, anchored range queries, and search
// highlighting. Used by GET /messages, POST /messages/flags/narrow and GET /messages/matches_narrow.
import type { Db } from '../../db';
import type { AuthUser } from '../../realm/context';
import { escapeHtml } from '../../markdown/render';
import { compileNarrow, type CompiledNarrow, type NarrowTerm } from './narrow';
import { historyChannelIds, type MessageRow } from './messages-store';

export interface NarrowedRow extends MessageRow {
  /** The viewer's flag bits, or null when the viewer never received the message. */
  um_flags: number | null;
}

export interface RangeResult {
  rows: NarrowedRow[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** Larger than any message id: the anchor for "newest" (as the public server reports it). */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

export class NarrowQuery {
  readonly compiled: CompiledNarrow;
  private readonly where: string;
  private readonly params: unknown[];

  constructor(
    private readonly db: Db,
    private readonly viewer: AuthUser,
    terms: readonly NarrowTerm[],
  ) {
    this.compiled = compileNarrow(db, viewer, terms);
    const history = [...historyChannelIds(db, viewer)];
    // Channel ids are integers from our own table, safe to inline.
    const visible =
      history.length > 0
        ? `(um.user_id IS NOT NULL OR (m.type = 'stream' AND m.channel_id IN (${history.join(',')})))`
        : 'um.user_id IS NOT NULL';
    const parts = [visible, ...this.compiled.conditions.map((c) => `(${c.sql})`)];
    this.where = parts.join(' AND ');
    this.params = this.compiled.conditions.flatMap((c) => c.params);
  }

  private select(extra: string, extraParams: unknown[], order: string, limit: number | null) {
    const sql = `SELECT m.*, um.flags AS um_flags
                   FROM messages m
                   LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
                  WHERE ${this.where} AND ${extra}
                  ORDER BY m.id ${order}${limit === null ? '' : ` LIMIT ${limit}`}`;
    return this.db
      .prepare<unknown[], NarrowedRow>(sql)
      .all(this.viewer.id, ...this.params, ...extraParams);
  }

  /** How many messages match the narrow (and `extra`), without loading them. */
  count(extra = '1', extraParams: readonly unknown[] = []): number {
    const sql = `SELECT COUNT(*) AS n FROM messages m
                   LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
                  WHERE ${this.where} AND ${extra}`;
    return this.db
      .prepare<unknown[], { n: number }>(sql)
      .get(this.viewer.id, ...this.params, ...extraParams)!.n;
  }

  /** Whether any message matches the narrow (and `extra`): stops at the first. */
  exists(extra = '1', extraParams: readonly unknown[] = []): boolean {
    const sql = `SELECT 1 FROM messages m
                   LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
                  WHERE ${this.where} AND ${extra} LIMIT 1`;
    return (
      this.db
        .prepare<unknown[], unknown>(sql)
        .get(this.viewer.id, ...this.params, ...extraParams) !== undefined
    );
  }

  /** The oldest unread message matching the narrow. */
  firstUnreadId(): number | undefined {
    // Driven from the viewer's unread index rather than a scan of all messages from the oldest.
    const sql = `SELECT m.id FROM user_messages um INDEXED BY user_messages_unread
                   JOIN messages m ON m.id = um.message_id
                  WHERE um.user_id = ? AND (um.flags & 1) = 0 AND ${this.where}
                  ORDER BY um.message_id LIMIT 1`;
    return this.db.prepare<unknown[], { id: number }>(sql).get(this.viewer.id, ...this.params)?.id;
  }

  range(anchor: number, numBefore: number, numAfter: number, includeAnchor: boolean): RangeResult {
    // One extra row each way tells whether the range reached the oldest/newest match.
    const before = this.select('m.id < ?', [anchor], 'DESC', numBefore + 1);
    const after = this.select('m.id > ?', [anchor], 'ASC', numAfter + 1);
    const anchorRow = this.select('m.id = ?', [anchor], 'ASC', 1)[0];
    const foundOldest = before.length <= numBefore;
    const foundNewest = after.length <= numAfter;
    const rows = [
      ...before.slice(0, numBefore).reverse(),
      ...(anchorRow && includeAnchor ? [anchorRow] : []),
      ...after.slice(0, numAfter),
    ];
    return {
      rows,
      foundAnchor: anchorRow !== undefined && includeAnchor,
      foundOldest,
      foundNewest,
    };
  }

  byIds(ids: readonly number[]): NarrowedRow[] {
    if (ids.length === 0) return [];
    const out: NarrowedRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      out.push(...this.select(`m.id IN (${chunk.map(() => '?').join(',')})`, chunk, 'ASC', null));
    }
    return out.sort((a, b) => a.id - b.id);
  }

  get hasSearch(): boolean {
    return this.compiled.searchTerms.length > 0;
  }

  /** match_content / match_subject with the search keywords wrapped in highlight spans. */
  highlight(row: MessageRow, topicShown: string): { match_content: string; match_subject: string } {
    const terms = this.compiled.searchTerms;
    return {
      match_content: highlightHtml(row.rendered_content, terms),
      match_subject: highlightText(escapeHtml(topicShown), terms),
    };
  }
}

function termPattern(terms: readonly string[]): RegExp | null {
  if (terms.length === 0) return null;
  const escaped = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Prefix match at a word start, as the FTS query matches.
  return new RegExp(`(?<![\\p{L}\\p{N}_])((?:${escaped.join('|')})[\\p{L}\\p{N}_]*)`, 'giu');
}

function highlightText(escapedText: string, terms: readonly string[]): string {
  const pattern = termPattern(terms);
  if (!pattern) return escapedText;
  return escapedText.replace(pattern, '<span class="highlight">$1</span>');
}

/** Highlights inside text nodes only, never inside tags or attribute values. */
export function highlightHtml(html: string, terms: readonly string[]): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : highlightText(part, terms)))
    .join('');
}
