// Reading messages: GET /messages (api-notes §3: anchors, ranges, message_ids, narrows, search
// highlights), GET /messages/{id} and GET /messages/matches_narrow (spec 4.6).
import * as z from 'zod';
import { ApiError, badRequest, invalidParam, missingParam } from '../../http/errors';
import { p } from '../../http/params';
import { JsonBytes, type ApiRouter } from '../../http/router';
import type { RealmContext } from '../../realm/context';
import { loopSlicer } from '../../realm/loop-slices';
import { narrowSchema, normalizeNarrow } from './narrow';
import { LARGER_THAN_MAX_MESSAGE_ID, NarrowQuery, type NarrowedRow } from './narrow-query';
import {
  MessageViewBuilder,
  accessibleMessage,
  apiFlags,
  userMessageFlags,
} from './messages-store';

export const MAX_MESSAGES_PER_FETCH = 5000;

/** Parses an anchor value; first_unread is resolved by the caller. */
export function parseAnchor(raw: string): number | 'first_unread' {
  // Some clients JSON-encode every parameter, strings included.
  const value = raw.trim().replace(/^"(.*)"$/, '$1');
  if (value === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (value === 'oldest') return 0;
  if (value === 'first_unread') return 'first_unread';
  if (/^-?\d+$/.test(value)) return Math.max(0, Number(value));
  throw invalidParam('anchor', `Invalid anchor '${raw}'`);
}

function incompatible(names: string[]): ApiError {
  return new ApiError(
    'BAD_REQUEST',
    `Unsupported parameter combination: ${names.join(', ')}`,
    400,
    { parameters: names.join(', ') },
  );
}

/** Messages built between two chances for other requests to run (a few milliseconds' work). */
const MESSAGES_PER_CHUNK = 250;

export function registerFetchRoutes(api: ApiRouter, ctx: RealmContext): void {
  api.get(
    '/messages',
    {
      params: {
        anchor: p.string().optional(),
        include_anchor: p.bool().optional(),
        num_before: p.int().optional(),
        num_after: p.int().optional(),
        narrow: p.json(narrowSchema).default([]),
        client_gravatar: p.bool().default(true).alias('client_extavatar'),
        apply_markdown: p.bool().default(true),
        use_first_unread_anchor: p.bool().default(false),
        message_ids: p.json(z.array(z.number().int())).optional(),
        allow_empty_topic_name: p.bool().default(false),
      },
    },
    async ({ user, params, meter }) => {
      const query = new NarrowQuery(ctx.db, user, normalizeNarrow(params.narrow));
      const options = {
        applyMarkdown: params.apply_markdown,
        clientExtavatar: params.client_gravatar,
        allowEmptyTopicName: params.allow_empty_topic_name,
      };
      const builder = new MessageViewBuilder(ctx);
      const slicer = loopSlicer(meter);
      // Up to 5,000 messages: built and encoded as UTF-8 JSON in chunks, other requests running
      // between them once this one has held the loop for a slice (realm/loop-slices.ts); the
      // answer serialized and encoded in one piece held it 30-70 ms (bench/hostile-load). A message edited or deleted meanwhile
      // is sent as it is then, and its event follows on the client's queue, as after any fetch.
      const toApi = async (rows: NarrowedRow[]) => {
        const chunks: Buffer[] = [];
        for (let first = 0; first < rows.length; first += MESSAGES_PER_CHUNK) {
          await slicer.slice();
          const chunk = rows.slice(first, first + MESSAGES_PER_CHUNK);
          const built = builder.build(user, chunk, options);
          built.forEach((message, i) => {
            const row = chunk[i];
            message.flags = apiFlags(row.um_flags);
            if (query.hasSearch) {
              Object.assign(message, query.highlight(row, message.subject as string));
            }
          });
          if (built.length > 0) chunks.push(Buffer.from(JSON.stringify(built).slice(1, -1)));
        }
        return JsonBytes.array(chunks);
      };

      if (params.message_ids !== undefined) {
        const conflicting = ['anchor', 'num_before', 'num_after', 'include_anchor'].filter(
          (name) => params[name as 'anchor'] !== undefined,
        );
        if (params.use_first_unread_anchor) conflicting.push('use_first_unread_anchor');
        if (conflicting.length > 0) throw incompatible([...conflicting, 'message_ids']);
        if (params.message_ids.length > MAX_MESSAGES_PER_FETCH) {
          throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
        }
        return {
          messages: await toApi(query.byIds([...new Set(params.message_ids)])),
          found_anchor: false,
          found_oldest: false,
          found_newest: false,
          history_limited: false,
        };
      }

      const numBefore = params.num_before ?? 0;
      const numAfter = params.num_after ?? 0;
      if (numBefore < 0) throw invalidParam('num_before', 'must not be negative');
      if (numAfter < 0) throw invalidParam('num_after', 'must not be negative');
      if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) {
        throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
      }
      const includeAnchor = params.include_anchor ?? true;
      if (!includeAnchor && numBefore > 0 && numAfter > 0) {
        throw badRequest('The anchor can only be excluded at an end of the range');
      }
      let parsed: number | 'first_unread';
      // use_first_unread_anchor wins over anchor, as on the public server (older clients send both).
      if (params.use_first_unread_anchor) parsed = 'first_unread';
      else if (params.anchor !== undefined) parsed = parseAnchor(params.anchor);
      else throw missingParam('anchor');
      const anchor =
        parsed === 'first_unread' ? (query.firstUnreadId() ?? LARGER_THAN_MAX_MESSAGE_ID) : parsed;
      const range = await query.rangeInSlices(anchor, numBefore, numAfter, includeAnchor, slicer);
      return {
        messages: await toApi(range.rows),
        anchor,
        found_anchor: range.foundAnchor,
        found_oldest: range.foundOldest,
        found_newest: range.foundNewest,
        history_limited: false,
      };
    },
  );

  api.get(
    '/messages/matches_narrow',
    {
      params: {
        msg_ids: p.json(z.array(z.number().int())),
        narrow: p.json(narrowSchema),
      },
    },
    ({ user, params }) => {
      if (params.msg_ids.length > MAX_MESSAGES_PER_FETCH) {
        throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
      }
      const query = new NarrowQuery(ctx.db, user, normalizeNarrow(params.narrow));
      const builder = new MessageViewBuilder(ctx);
      const messages: Record<string, unknown> = {};
      for (const row of query.byIds([...new Set(params.msg_ids)])) {
        messages[String(row.id)] = query.highlight(row, builder.topicFor(row, false));
      }
      return { messages };
    },
  );

  api.get(
    '/messages/:message_id',
    {
      ids: ['message_id'],
      params: {
        apply_markdown: p.bool().default(true),
        allow_empty_topic_name: p.bool().default(false),
      },
    },
    ({ user, ids, params }) => {
      const row = accessibleMessage(ctx.db, user, ids.message_id);
      if (!row) throw badRequest('Invalid message(s)');
      const message = new MessageViewBuilder(ctx).one(user, row, {
        applyMarkdown: params.apply_markdown,
        clientExtavatar: true,
        allowEmptyTopicName: params.allow_empty_topic_name,
      });
      message.flags = apiFlags(userMessageFlags(ctx.db, user.id, row.id));
      return { message, raw_content: row.content };
    },
  );
}
