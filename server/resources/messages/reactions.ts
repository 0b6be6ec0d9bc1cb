// Emoji reactions: POST and DELETE /messages/{id}/reactions and reaction events to everyone who
// can see the message (api-notes §4.4). Emoji are validated by realm/emoji.ts (the public server's
// name table for unicode_emoji, the realm's active custom emoji for realm_emoji, svc_extra_emoji names).
import type { Db } from '../../db';
import { ApiError, badRequest } from '../../http/errors';
import { p } from '../../http/params';
import { MessageFlag } from '../../db/flags';
import type { AuthUser, RealmContext } from '../../realm/context';
import { checkEmoji, unicodeEmojiCodeForName, EXTRA_EMOJI } from '../../realm/emoji';
import { customEmojiTable } from '../realm/realm-emoji';
import type { ResourceModule } from '../module';
import {
  accessibleMessage,
  messageAudience,
  userMessageFlags,
  type MessageRow,
} from './messages-store';
import { neutralName, publicName } from '../../../shared/api/public-names';

const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'svc_extra_emoji'] as const;

function reactionType(raw: string | undefined): string {
  if (raw === undefined) return 'unicode_emoji';
  // Stored under the spec's neutral name; the public one (zulip_extra_emoji) is accepted too.
  const type = neutralName(raw);
  if (!(REACTION_TYPES as readonly string[]).includes(type)) {
    throw badRequest(`Invalid reaction type '${raw}'`);
  }
  return type;
}

// Reactions are listed in the order they were added; created_at is a strictly increasing stamp.
let lastStamp = 0;
function nextStamp(): number {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

function reactionExists(
  db: Db,
  messageId: number,
  userId: number,
  type: string,
  code: string,
): { emoji_name: string } | undefined {
  return db
    .prepare<[number, number, string, string], { emoji_name: string }>(
      `SELECT emoji_name FROM reactions
        WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?`,
    )
    .get(messageId, userId, type, code);
}

function sendReactionEvent(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  op: 'add' | 'remove',
  emoji: { emoji_name: string; emoji_code: string; reaction_type: string },
): void {
  ctx.events.send(messageAudience(ctx.db, message), {
    type: 'reaction',
    op,
    message_id: message.id,
    ...emoji,
    reaction_type: publicName(emoji.reaction_type),
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.full_name },
  });
}

/** A name's code within one reaction type (a custom emoji by its active name is resolved above). */
function codeForName(type: string, name: string): string | undefined {
  if (type === 'unicode_emoji') return unicodeEmojiCodeForName(name);
  if (type === 'svc_extra_emoji' && EXTRA_EMOJI.has(name)) return name;
  return undefined;
}

export const reactionsResource: ResourceModule = {
  name: 'reactions',
  routes(api, ctx) {
    api.post(
      '/messages/:message_id/reactions',
      {
        ids: ['message_id'],
        params: {
          emoji_name: p.string(),
          emoji_code: p.string().optional(),
          reaction_type: p.string().optional(),
        },
      },
      ({ user, ids, params }) => {
        const message = accessibleMessage(ctx.db, user, ids.message_id);
        if (!message) throw badRequest('Invalid message(s)');
        // Without a reaction_type the name (or the code's default type) decides it.
        const check = checkEmoji(
          params.emoji_name,
          params.emoji_code,
          params.reaction_type === undefined ? undefined : reactionType(params.reaction_type),
          customEmojiTable(ctx.db),
        );
        if (!check.ok) throw badRequest(check.msg);
        const type = check.reaction_type;
        if (reactionExists(ctx.db, message.id, user.id, type, check.emoji_code)) {
          throw new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.', 400);
        }
        ctx.db.transaction(() => {
          // Reacting to public history the user never received makes it part of their history.
          if (userMessageFlags(ctx.db, user.id, message.id) === undefined) {
            ctx.db
              .prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)')
              .run(user.id, message.id, MessageFlag.read | MessageFlag.historical);
          }
          ctx.db
            .prepare(
              `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type, created_at)
               VALUES (?, ?, ?, ?, ?, ?)`,
            )
            .run(message.id, user.id, check.emoji_name, check.emoji_code, type, nextStamp());
        })();
        sendReactionEvent(ctx, user, message, 'add', {
          emoji_name: check.emoji_name,
          emoji_code: check.emoji_code,
          reaction_type: type,
        });
      },
    );

    api.delete(
      '/messages/:message_id/reactions',
      {
        ids: ['message_id'],
        params: {
          emoji_name: p.string().optional(),
          emoji_code: p.string().optional(),
          reaction_type: p.string().optional(),
        },
      },
      ({ user, ids, params }) => {
        const message = accessibleMessage(ctx.db, user, ids.message_id);
        if (!message) throw badRequest('Invalid message(s)');
        let type = reactionType(params.reaction_type);
        let code = params.emoji_code;
        if (code === undefined) {
          if (params.emoji_name === undefined) {
            throw badRequest('At least one of emoji_name and emoji_code must be specified');
          }
          const byName = checkEmoji(
            params.emoji_name,
            undefined,
            undefined,
            customEmojiTable(ctx.db),
          );
          if (byName.ok && (params.reaction_type === undefined || byName.reaction_type === type)) {
            type = byName.reaction_type;
            code = byName.emoji_code;
          } else {
            code = codeForName(type, params.emoji_name);
          }
        }
        const existing =
          code === undefined ? undefined : reactionExists(ctx.db, message.id, user.id, type, code);
        if (!existing || code === undefined) {
          throw new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.", 400);
        }
        ctx.db
          .prepare(
            `DELETE FROM reactions
              WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?`,
          )
          .run(message.id, user.id, type, code);
        sendReactionEvent(ctx, user, message, 'remove', {
          emoji_name: existing.emoji_name,
          emoji_code: code,
          reaction_type: type,
        });
      },
    );
  },
};
