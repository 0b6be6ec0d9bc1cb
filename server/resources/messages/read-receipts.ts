// GET /messages/{message_id}/read_receipts (FL137): who has read a message, leaving out its sender,
// deactivated users and users whose send_read_receipts is off; refused when the realm disables
// read receipts (enable_read_receipts).
import type { ResourceModule } from '../module';
import { badRequest } from '../../http/errors';
import { MessageFlag } from '../../db/flags';
import { accessibleMessage } from './messages-store';
import { realmSetting } from '../realm/realm-settings';
import { userSettings } from '../../realm/accounts';

export const readReceiptsResource: ResourceModule = {
  name: 'read-receipts',
  routes(api, ctx) {
    api.get('/messages/:message_id/read_receipts', { ids: ['message_id'] }, ({ user, ids }) => {
      const message = accessibleMessage(ctx.db, user, ids.message_id);
      if (!message) throw badRequest('Invalid message(s)');
      if (realmSetting(ctx.db, 'enable_read_receipts', true) !== true) {
        throw badRequest('Read receipts are disabled in this Zulip organization.');
      }
      const readers = ctx.db
        .prepare<[number, number, number], { user_id: number }>(
          `SELECT um.user_id FROM user_messages um JOIN users u ON u.id = um.user_id
           WHERE um.message_id = ? AND (um.flags & ?) != 0 AND um.user_id != ? AND u.is_active = 1
           ORDER BY um.user_id`,
        )
        .all(message.id, MessageFlag.read, message.sender_id);
      const user_ids = readers
        .map((r) => r.user_id)
        .filter((id) => userSettings(ctx.db, id).send_read_receipts !== false);
      return { user_ids };
    });
  },
};
