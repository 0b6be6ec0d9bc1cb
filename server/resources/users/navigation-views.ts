// Navigation views (4.19): per-user pinned views of the left sidebar. GET/POST /navigation_views,
// PATCH/DELETE /navigation_views/{fragment}, the navigation_views register state and
// navigation_view add/update/remove events.
import type { Db } from '../../db';
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { checkDisplayName, checkStoredText } from '../../realm/text-rules';
import { badRequest, notFound } from '../../http/errors';

interface ViewRow {
  fragment: string;
  is_pinned: number;
  name: string | null;
}

const viewObject = (row: ViewRow) => ({
  fragment: row.fragment,
  is_pinned: row.is_pinned === 1,
  name: row.name,
});

function listViews(db: Db, userId: number) {
  return db
    .prepare<[number], ViewRow>(
      'SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = ? ORDER BY fragment',
    )
    .all(userId)
    .map(viewObject);
}

function checkName(name: string | undefined): string | null {
  if (name === undefined || name === 'null') return null;
  return checkDisplayName(name, { label: 'Navigation view name', maxLength: 100 });
}

/** A view's fragment is a URL hash the client built; bounded like a URL and free of controls. */
const MAX_FRAGMENT_LENGTH = 2048;

function checkFragment(raw: string): string {
  const fragment = checkStoredText(raw.trim(), 'Fragment', MAX_FRAGMENT_LENGTH);
  if (fragment === '') throw badRequest('fragment cannot be blank');
  return fragment;
}

export const navigationViewsResource: ResourceModule = {
  name: 'navigation-views',
  routes(api, ctx) {
    api.get('/navigation_views', {}, ({ user }) => ({
      navigation_views: listViews(ctx.db, user.id),
    }));

    api.post(
      '/navigation_views',
      { params: { fragment: p.string(), is_pinned: p.bool(), name: p.string().optional() } },
      ({ user, params }) => {
        const fragment = checkFragment(params.fragment);
        const name = checkName(params.name);
        const exists = ctx.db
          .prepare('SELECT 1 FROM navigation_views WHERE user_id = ? AND fragment = ?')
          .get(user.id, fragment);
        if (exists) throw badRequest('Navigation view already exists.');
        ctx.db
          .prepare(
            'INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES (?, ?, ?, ?)',
          )
          .run(user.id, fragment, params.is_pinned ? 1 : 0, name);
        ctx.events.send([user.id], {
          type: 'navigation_view',
          op: 'add',
          navigation_view: { fragment, is_pinned: params.is_pinned, name },
        });
      },
    );

    api.patch(
      '/navigation_views/:fragment',
      { params: { is_pinned: p.bool().optional(), name: p.string().optional() } },
      ({ user, params, path }) => {
        const fragment = decodeURIComponent(path.fragment ?? '');
        const row = ctx.db
          .prepare<[number, string], ViewRow>(
            'SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = ? AND fragment = ?',
          )
          .get(user.id, fragment);
        if (!row) throw notFound('Navigation view does not exist.');
        if (params.is_pinned === undefined && params.name === undefined) {
          throw badRequest('At least one of name or is_pinned must be provided.');
        }
        const data: Record<string, unknown> = {};
        if (params.is_pinned !== undefined) data.is_pinned = params.is_pinned;
        if (params.name !== undefined) data.name = checkName(params.name);
        ctx.db
          .prepare(
            'UPDATE navigation_views SET is_pinned = ?, name = ? WHERE user_id = ? AND fragment = ?',
          )
          .run(
            (data.is_pinned ?? row.is_pinned === 1) ? 1 : 0,
            'name' in data ? (data.name as string | null) : row.name,
            user.id,
            fragment,
          );
        ctx.events.send([user.id], { type: 'navigation_view', op: 'update', fragment, data });
      },
    );

    api.delete('/navigation_views/:fragment', {}, ({ user, path }) => {
      const fragment = decodeURIComponent(path.fragment ?? '');
      const removed = ctx.db
        .prepare('DELETE FROM navigation_views WHERE user_id = ? AND fragment = ?')
        .run(user.id, fragment);
      if (removed.changes === 0) throw notFound('Navigation view does not exist.');
      ctx.events.send([user.id], { type: 'navigation_view', op: 'remove', fragment });
    });
  },

  initialState(ctx, user, request) {
    return request.wants('navigation_views')
      ? { navigation_views: listViews(ctx.db, user.id) }
      : {};
  },
};
