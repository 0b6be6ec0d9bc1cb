// Runs narrows for one viewer: the visibility condition (received messages, plus the history of
// channels the viewer may read) ANDed with the compiled narrow, anchored range queries, and search
// highlighting. Used by GET /messages, POST /messages/flags/narrow and GET /messages/matches_narrow.
import type { Db } from '../../db';
import type { AuthUser } from '../../realm/context';
import { escapeHtml } from '../../markdown/render';
import { compileNarrow, type CompiledNarrow, type NarrowTerm } from './narrow';
import { historyChannelIds, type MessageRow } from './messages-store';
import type { LoopSlicer } from '../../realm/loop-slices';

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

/** Rows per statement of rangeInSlices (a few ms of work with a narrow of 100 terms). */
const RANGE_PAGE_ROWS = 500;

/** A NarrowedRow's columns. */
const ROW_COLUMNS = 'm.*, um.flags AS um_flags';

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

  private selectSql(
    extra: string,
    order: string,
    limit: number | null,
    columns = ROW_COLUMNS,
  ): string {
    return `SELECT ${columns}
              FROM messages m
              LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
             WHERE ${this.where} AND ${extra}
             ORDER BY m.id ${order}${limit === null ? '' : ` LIMIT ${limit}`}`;
  }

  private select<Row = NarrowedRow>(
    extra: string,
    extraParams: unknown[],
    order: string,
    limit: number | null,
    columns = ROW_COLUMNS,
  ): Row[] {
    return this.db
      .prepare<unknown[], Row>(this.selectSql(extra, order, limit, columns))
      .all(this.viewer.id, ...this.params, ...extraParams);
  }

  /**
   * Whether a range statement walks the matching rows in id order and stops at its LIMIT (SQLite's
   * plan), rather than sorting every match first. A statement that sorts costs the same for a page
   * of 500 rows as for 5,000, so such a range is read in one.
   */
  walksInIdOrder(op: '<' | '>' = '<', order: 'DESC' | 'ASC' = 'DESC'): boolean {
    const plan = this.db
      .prepare<unknown[], { detail: string }>(
        `EXPLAIN QUERY PLAN ${this.selectSql(`m.id ${op} ?`, order, RANGE_PAGE_ROWS)}`,
      )
      .all(this.viewer.id, ...this.params, 0);
    return !plan.some((step) => step.detail.includes('TEMP B-TREE FOR ORDER BY'));
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
    return this.rangeResult(anchor, numBefore, numAfter, includeAnchor, before, after);
  }

  /**
   * range(), read in pages of `pageRows` with `slicer` between them: 5,000 rows matched against a
   * narrow of 100 terms were one statement of 70-150 ms, which every other client waited for
   * (bench/hostile-load). A page starts below (above) the last row of the one before, so rows are
   * neither skipped nor repeated; a message sent or deleted meanwhile is as in any later fetch.
   * Pages only where the plan walks the rows in id order (walksInIdOrder).
   */
  async rangeInSlices(
    anchor: number,
    numBefore: number,
    numAfter: number,
    includeAnchor: boolean,
    slicer: LoopSlicer,
    pageRows = RANGE_PAGE_ROWS,
  ): Promise<RangeResult> {
    const pages = async (op: '<' | '>', order: 'DESC' | 'ASC', wanted: number) => {
      const rows: NarrowedRow[] = [];
      let from = anchor;
      const perPage = wanted > pageRows && !this.walksInIdOrder(op, order) ? wanted : pageRows;
      while (rows.length < wanted) {
        if (rows.length > 0) await slicer.slice();
        const limit = Math.min(perPage, wanted - rows.length);
        const page = this.select(`m.id ${op} ?`, [from], order, limit);
        rows.push(...page);
        if (page.length < limit) break;
        from = page[page.length - 1].id;
      }
      return rows;
    };
    const before = await pages('<', 'DESC', numBefore + 1);
    await slicer.slice();
    const after = await pages('>', 'ASC', numAfter + 1);
    return this.rangeResult(anchor, numBefore, numAfter, includeAnchor, before, after);
  }

  private rangeResult(
    anchor: number,
    numBefore: number,
    numAfter: number,
    includeAnchor: boolean,
    before: NarrowedRow[],
    after: NarrowedRow[],
  ): RangeResult {
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

  /** The given messages the viewer may read; `columns` (of `m` and `um`) for fewer than all. */
  byIds<Row extends { id: number } = NarrowedRow>(
    ids: readonly number[],
    columns = ROW_COLUMNS,
  ): Row[] {
    if (ids.length === 0) return [];
    const out: Row[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const inList = `m.id IN (${chunk.map(() => '?').join(',')})`;
      out.push(...this.select<Row>(inList, chunk, 'ASC', null, columns));
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
