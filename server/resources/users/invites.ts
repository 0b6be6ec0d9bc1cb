// Invitations: reusable invitation links (POST /invites/multiuse, with create_multiuse_invite_group),
// their list (GET /invites) and revoking one (DELETE /invites/multiuse/{invite_id}). Each change is
// announced as the public server does, with an invites_changed event to administrators and the
// inviter. This server sends no e-mail, so POST /invites (e-mail invitations) is refused with a
// pointer to links; the links have the public server's /join/<key>/ form, but no sign-up page
// answers them here.
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { Role, isAdmin, isOwner } from '../../realm/roles';
import { realmGroupSettingAllows } from '../../realm/permissions';
import { getChannel } from '../channels/channels-store';
import { allUserRows } from './users-store';

interface InviteRow {
  id: number;
  key: string;
  invited_by: number;
  invited_as: number;
  invited: number;
  expiry: number | null;
  stream_ids: string;
}

/** The public server's default: links last ten days. */
const DEFAULT_EXPIRY_MINUTES = 10 * 24 * 60;

function linkUrl(ctx: RealmContext, key: string): string {
  return `${ctx.realmUrl}/join/${key}/`;
}

function inviteObject(ctx: RealmContext, row: InviteRow): Record<string, unknown> {
  return {
    id: row.id,
    invited_by_user_id: row.invited_by,
    invited: row.invited,
    expiry_date: row.expiry,
    invited_as: row.invited_as,
    is_multiuse: true,
    link_url: linkUrl(ctx, row.key),
    stream_ids: JSON.parse(row.stream_ids) as number[],
  };
}

function notifyInvitesChanged(ctx: RealmContext, inviterId: number): void {
  // One query: asking activeUserIds per candidate cost a query each.
  const recipients = allUserRows(ctx.db)
    .filter((u) => u.is_active === 1 && (u.id === inviterId || isAdmin(u.role)))
    .map((u) => u.id);
  ctx.events.send(recipients, { type: 'invites_changed' });
}

/** Inviting someone as an administrator or owner needs that role oneself. */
function checkInviteAs(user: AuthUser, invitedAs: number): void {
  if (!(Object.values(Role) as number[]).includes(invitedAs)) throw badRequest('Invalid role');
  if (invitedAs === Role.owner && !isOwner(user.role)) {
    throw badRequest('Must be an organization owner');
  }
  if (invitedAs === Role.administrator && !isAdmin(user.role)) {
    throw badRequest('Must be an organization administrator');
  }
}

export const invitesResource: ResourceModule = {
  name: 'invites',
  routes(api, ctx) {
    api.post('/invites', {}, () => {
      throw badRequest(
        'This server cannot send e-mail invitations. Create an invitation link instead.',
      );
    });

    api.post(
      '/invites/multiuse',
      {
        params: {
          invite_expires_in_minutes: p
            .json(z.number().int().positive().nullable())
            .default(DEFAULT_EXPIRY_MINUTES),
          invite_as: p.json(z.number().int()).default(Role.member),
          stream_ids: p.json(z.array(z.number().int())).default([]),
        },
      },
      ({ user, params }) => {
        if (!realmGroupSettingAllows(ctx.db, user, 'create_multiuse_invite_group')) {
          throw badRequest('Insufficient permission');
        }
        checkInviteAs(user, params.invite_as);
        for (const id of params.stream_ids) {
          if (!getChannel(ctx.db, id)) throw badRequest(`Invalid channel ID ${id}`);
        }
        const now = ctx.nowSeconds();
        const key = randomBytes(12).toString('hex');
        const expiry =
          params.invite_expires_in_minutes === null
            ? null
            : now + params.invite_expires_in_minutes * 60;
        ctx.db
          .prepare(
            `INSERT INTO multiuse_invites (key, invited_by, invited_as, invited, expiry, stream_ids)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(key, user.id, params.invite_as, now, expiry, JSON.stringify(params.stream_ids));
        notifyInvitesChanged(ctx, user.id);
        return { invite_link: linkUrl(ctx, key) };
      },
    );

    api.get('/invites', {}, ({ user }) => {
      const now = ctx.nowSeconds();
      const rows = ctx.db
        .prepare<[number], InviteRow>(
          'SELECT * FROM multiuse_invites WHERE expiry IS NULL OR expiry > ? ORDER BY id',
        )
        .all(now)
        .filter((row) => isAdmin(user.role) || row.invited_by === user.id);
      return { invites: rows.map((row) => inviteObject(ctx, row)) };
    });

    api.delete('/invites/multiuse/:invite_id', { ids: ['invite_id'] }, ({ user, ids }) => {
      const row = ctx.db
        .prepare<[number], InviteRow>('SELECT * FROM multiuse_invites WHERE id = ?')
        .get(ids.invite_id);
      if (!row) throw badRequest('No such invitation');
      if (!isAdmin(user.role) && row.invited_by !== user.id) {
        throw badRequest('Must be an organization administrator');
      }
      ctx.db.prepare('DELETE FROM multiuse_invites WHERE id = ?').run(row.id);
      notifyInvitesChanged(ctx, row.invited_by);
    });
  },
};
