// Drafts: GET/POST /drafts, PATCH/DELETE /drafts/{id} (4.13, api-notes §9) and drafts events.
// Users with enable_drafts_synchronization off store nothing.
import * as z from 'zod';
import type { Db } from '../../db';
import { parseJson } from '../../db';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest, notFound } from '../../http/errors';
import { userSettings } from '../../realm/accounts';
import { canReadChannelContent } from '../../realm/permissions';
import { LIMITS } from '../../config';
import { getChannel } from '../channels/channels-store';

const draftSchema = z.object({
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  timestamp: z.number().int().nonnegative().optional(),
});

type DraftInput = z.infer<typeof draftSchema>;

interface DraftRow {
  id: number;
  user_id: number;
  type: string;
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

export function draftObject(row: DraftRow): Record<string, unknown> {
  return {
    id: row.id,
    type: row.type,
    to: parseJson<number[]>(row.to_ids, []),
    topic: row.topic,
    content: row.content,
    timestamp: row.last_edit_time,
  };
}

function listDrafts(db: Db, userId: number, limit = -1): Record<string, unknown>[] {
  return db
    .prepare<[number, number], DraftRow>(
      'SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC LIMIT ?',
    )
    .all(userId, limit)
    .map(draftObject);
}

function syncEnabled(db: Db, userId: number): boolean {
  return userSettings(db, userId).enable_drafts_synchronization !== false;
}

/** Checks one draft and returns the values to store. */
function normalizeDraft(
  ctx: RealmContext,
  user: AuthUser,
  draft: DraftInput,
): Omit<DraftRow, 'id' | 'user_id'> {
  if (draft.content.includes('\u0000')) throw badRequest('Content must not contain null bytes');
  if (draft.topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  if ([...draft.content].length > LIMITS.maxMessageLength)
    throw badRequest('Draft content is too long');
  let to: number[] = [];
  let topic = '';
  if (draft.type === 'stream') {
    if (draft.to.length !== 1)
      throw badRequest('Must specify exactly 1 channel ID for channel messages');
    const channel = getChannel(ctx.db, draft.to[0]);
    if (!channel || !canReadChannelContent(ctx.db, user, channel))
      throw badRequest('Invalid channel ID');
    to = draft.to;
    topic = draft.topic;
    if ([...topic].length > LIMITS.maxTopicLength) throw badRequest('Topic too long');
  } else if (draft.type === 'private') {
    const exists = ctx.db.prepare('SELECT 1 FROM users WHERE id = ?');
    for (const id of draft.to) if (!exists.get(id)) throw badRequest('Invalid user ID ' + id);
    to = [...new Set(draft.to)].sort((a, b) => a - b);
  }
  return {
    type: draft.type,
    to_ids: JSON.stringify(to),
    topic,
    content: draft.content,
    last_edit_time: draft.timestamp ?? ctx.nowSeconds(),
  };
}

function getOwnDraft(db: Db, userId: number, id: number): DraftRow {
  const row = db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE id = ?').get(id);
  if (!row || row.user_id !== userId) throw notFound('Draft does not exist');
  return row;
}

/** Called when a user turns enable_drafts_synchronization off. */
export function deleteAllDrafts(ctx: RealmContext, userId: number): void {
  const ids = ctx.db
    .prepare<[number], { id: number }>('SELECT id FROM drafts WHERE user_id = ?')
    .all(userId)
    .map((r) => r.id);
  ctx.db.prepare('DELETE FROM drafts WHERE user_id = ?').run(userId);
  for (const id of ids) ctx.events.send([userId], { type: 'drafts', op: 'remove', draft_id: id });
}

export const draftsResource: ResourceModule = {
  name: 'drafts',
  routes(api, ctx) {
    api.get('/drafts', {}, ({ user }) => {
      const drafts = syncEnabled(ctx.db, user.id) ? listDrafts(ctx.db, user.id) : [];
      return { count: drafts.length, drafts };
    });

    api.post(
      '/drafts',
      { params: { drafts: p.json(z.array(draftSchema)).default([]) } },
      ({ user, params }) => {
        if (!syncEnabled(ctx.db, user.id))
          throw badRequest('User has disabled synchronizing drafts.');
        const rows = params.drafts.map((draft) => normalizeDraft(ctx, user, draft));
        const insert = ctx.db.prepare(
          `INSERT INTO drafts (user_id, type, to_ids, topic, content, last_edit_time)
         VALUES (?, ?, ?, ?, ?, ?)`,
        );
        const ids = ctx.db.transaction(() =>
          rows.map((row) =>
            Number(
              insert.run(user.id, row.type, row.to_ids, row.topic, row.content, row.last_edit_time)
                .lastInsertRowid,
            ),
          ),
        )();
        if (ids.length > 0) {
          const byId = ctx.db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE id = ?');
          ctx.events.send([user.id], {
            type: 'drafts',
            op: 'add',
            drafts: ids.map((id) => draftObject(byId.get(id)!)),
          });
        }
        return { ids };
      },
    );

    api.patch(
      '/drafts/:draft_id',
      { ids: ['draft_id'], params: { draft: p.json(draftSchema) } },
      ({ user, params, ids }) => {
        if (!syncEnabled(ctx.db, user.id))
          throw badRequest('User has disabled synchronizing drafts.');
        getOwnDraft(ctx.db, user.id, ids.draft_id);
        const row = normalizeDraft(ctx, user, params.draft);
        ctx.db
          .prepare(
            'UPDATE drafts SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ?',
          )
          .run(row.type, row.to_ids, row.topic, row.content, row.last_edit_time, ids.draft_id);
        ctx.events.send([user.id], {
          type: 'drafts',
          op: 'update',
          draft: draftObject(getOwnDraft(ctx.db, user.id, ids.draft_id)),
        });
      },
    );

    api.delete('/drafts/:draft_id', { ids: ['draft_id'] }, ({ user, ids }) => {
      getOwnDraft(ctx.db, user.id, ids.draft_id);
      ctx.db.prepare('DELETE FROM drafts WHERE id = ?').run(ids.draft_id);
      ctx.events.send([user.id], { type: 'drafts', op: 'remove', draft_id: ids.draft_id });
    });
  },

  initialState(ctx, user, request) {
    if (!request.wants('drafts')) return {};
    return {
      drafts: syncEnabled(ctx.db, user.id)
        ? listDrafts(ctx.db, user.id, LIMITS.maxDraftsInRegister)
        : [],
    };
  },
};
