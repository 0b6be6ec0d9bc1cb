// Submessages: the widget submessage a /poll or /todo message gets when it is stored, POST
// /submessage (votes, options, tasks...) and submessage events to everyone who received the
// message, as the public server does (zerver/views/submessage.py, actions/submessage.py),
// including its topic follow/unmute for users whose policy is "topics I participate in".
import type { Db } from '../../db';
import { badRequest } from '../../http/errors';
import { p } from '../../http/params';
import type { RealmContext } from '../../realm/context';
import { widgetEventError } from '../../realm/widget-events';
import type { WidgetType } from '../../realm/widgets';
import type { ResourceModule } from '../module';
import { accessibleMessage } from './messages-store';
import { insertSubmessage } from './submessages-store';
import { announceTopicPolicyChanges, applyParticipationVisibility } from './messages-visibility';

/** The widget type of a message's first widget submessage, as the public server reads it. */
function widgetTypeOf(db: Db, messageId: number): WidgetType | null {
  const row = db
    .prepare<[number], { content: string }>(
      `SELECT content FROM submessages WHERE message_id = ? AND msg_type = 'widget'
        ORDER BY id LIMIT 1`,
    )
    .get(messageId);
  if (!row) return null;
  try {
    const type = (JSON.parse(row.content) as { widget_type?: unknown }).widget_type;
    return type === 'poll' || type === 'todo' ? type : null;
  } catch {
    return null;
  }
}

/** The first submessage must come from the message's sender; then any reader may add one. */
function senderMayAttach(db: Db, messageId: number, messageSenderId: number, userId: number) {
  if (userId === messageSenderId) return true;
  return (
    db
      .prepare('SELECT 1 FROM submessages WHERE message_id = ? AND sender_id = ? LIMIT 1')
      .get(messageId, messageSenderId) !== undefined
  );
}

/** Who hears of a submessage: those with the message among theirs (not public-history readers). */
function receiverIds(db: Db, messageId: number): number[] {
  return db
    .prepare<[number], { user_id: number }>(
      'SELECT user_id FROM user_messages WHERE message_id = ?',
    )
    .all(messageId)
    .map((r) => r.user_id);
}

export const submessagesResource: ResourceModule = {
  name: 'submessages',
  routes(api, ctx: RealmContext) {
    api.post(
      '/submessage',
      { params: { message_id: p.int(), msg_type: p.string(), content: p.string() } },
      ({ user, params }) => {
        const { db } = ctx;
        const message = accessibleMessage(db, user, params.message_id);
        if (!message) throw badRequest('Invalid message(s)');
        if (!senderMayAttach(db, message.id, message.sender_id, user.id)) {
          throw badRequest('You cannot attach a submessage to this message.');
        }
        let data: unknown;
        try {
          data = JSON.parse(params.content);
        } catch {
          throw badRequest('Invalid json for submessage');
        }
        const isAuthor = message.sender_id === user.id;
        const error = widgetEventError(widgetTypeOf(db, message.id), data, isAuthor);
        if (error) throw badRequest(error);
        const submessage = {
          message_id: message.id,
          sender_id: user.id,
          msg_type: params.msg_type,
          content: params.content,
        };
        const { id, policyChange } = db.transaction(() => ({
          id: insertSubmessage(db, submessage),
          policyChange:
            message.type === 'stream' && message.channel_id !== null
              ? applyParticipationVisibility(ctx, user, message.channel_id, message.topic)
              : undefined,
        }))();
        if (policyChange) announceTopicPolicyChanges(ctx, [policyChange]);
        ctx.events.send(receiverIds(db, message.id), {
          type: 'submessage',
          msg_type: submessage.msg_type,
          message_id: message.id,
          submessage_id: id,
          sender_id: user.id,
          content: submessage.content,
        });
      },
    );
  },
};
