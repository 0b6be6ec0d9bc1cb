// Channel administration: PATCH /streams/{stream_id} (name, description, privacy, settings and
// group settings) and DELETE /streams/{stream_id} (archive). Events: stream update to everyone
// who can see the channel; when a privacy change moves the audience, stream create / delete to
// the users who gain / lose sight of it. Archiving sends stream update is_archived to clients with
// archived_channels and stream delete to the others.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p, schemas } from '../../http/params';
import { badRequest } from '../../http/errors';
import { LIMITS } from '../../config';
import { checkChannelName } from '../../realm/text-rules';
import { isOwner } from '../../realm/roles';
import {
  canAdministerChannel,
  canSeeChannelMetadata,
  type GroupSettingValue,
  requireAdmin,
} from '../../realm/permissions';
import { renderShortMarkdown } from '../../realm/render-text';
import {
  channelGroupSettings,
  getChannel,
  getChannelByName,
  type ChannelRow,
} from './channels-store';
import { announceDefaultChannels, channelMetadataAudience, channelObject } from './channels';
import { emptyTopicDisplayName } from '../messages/messages-rules';

const GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;

/** PATCH sends group settings as {new, old?} (the public API's form) or as a bare value. */
const groupSettingChange = z.union([
  z.object({ new: schemas.groupSettingValue, old: schemas.groupSettingValue.optional() }),
  schemas.groupSettingValue,
]);

function requireChannel(ctx: RealmContext, user: AuthUser, id: number): ChannelRow {
  const channel = getChannel(ctx.db, id);
  if (!channel || !canSeeChannelMetadata(ctx.db, user, channel))
    throw badRequest('Invalid channel ID');
  if (!canAdministerChannel(ctx.db, user, channel))
    throw badRequest('You do not have permission to administer this channel.');
  return channel;
}

function sendUpdate(
  ctx: RealmContext,
  channel: ChannelRow,
  audience: number[],
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): void {
  ctx.events.send(audience, {
    type: 'stream',
    op: 'update',
    stream_id: channel.id,
    name: channel.name,
    property,
    value,
    ...extra,
  });
}

/** Whether any message of the channel has a topic other than the empty one. */
function hasNamedTopic(ctx: RealmContext, channelId: number): boolean {
  return (
    ctx.db
      .prepare(
        "SELECT 1 FROM messages WHERE channel_id = ? AND type = 'stream' AND topic <> '' LIMIT 1",
      )
      .get(channelId) !== undefined
  );
}

/** What a client with the archived_channels capability is told when a channel (un)archives. */
function archivedUpdate(channel: ChannelRow, archived: boolean) {
  return {
    type: 'stream',
    op: 'update',
    stream_id: channel.id,
    name: channel.name,
    property: 'is_archived',
    value: archived,
  };
}

/** PATCH is_archived=false (the public server's unarchiving); archiving is DELETE. */
/** PATCH may only unarchive (archiving is DELETE), and only an archived channel. */
function checkUnarchive(channel: ChannelRow, archived: boolean): void {
  if (archived) throw badRequest('Use DELETE /streams/{stream_id} to archive a channel.');
  if (channel.is_archived !== 1) throw badRequest('Channel is not archived');
}

function unarchive(ctx: RealmContext, channel: ChannelRow): void {
  ctx.db.prepare('UPDATE channels SET is_archived = 0 WHERE id = ?').run(channel.id);
  const after = getChannel(ctx.db, channel.id)!;
  ctx.events.send(channelMetadataAudience(ctx, after), (queue) =>
    queue.hasCapability('archived_channels')
      ? archivedUpdate(channel, false)
      : { type: 'stream', op: 'create', streams: [channelObject(ctx, after)] },
  );
}

export const channelAdminResource: ResourceModule = {
  name: 'channel-admin',
  routes(api, ctx) {
    api.patch(
      '/streams/:stream_id',
      {
        ids: ['stream_id'],
        params: {
          description: p.string().optional(),
          new_name: p.string().optional(),
          is_private: p.bool().optional(),
          is_web_public: p.bool().optional(),
          history_public_to_subscribers: p.bool().optional(),
          message_retention_days: p.json(z.union([z.string(), z.number().int()])).optional(),
          topics_policy: p
            .enumOf(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'])
            .optional(),
          is_default_stream: p.bool().optional(),
          is_archived: p.bool().optional(),
          ...Object.fromEntries(
            GROUP_SETTINGS.map((name) => [name, p.json(groupSettingChange).optional()]),
          ),
        },
      },
      ({ user, params, ids }) => {
        const before = requireChannel(ctx, user, ids.stream_id);
        const unarchiving = params.is_archived !== undefined;
        if (unarchiving) checkUnarchive(before, params.is_archived!);
        const all = params as Record<string, unknown>;
        const updates: Array<{
          column: string;
          value: unknown;
          property: string;
          eventValue: unknown;
        }> = [];
        if (params.new_name !== undefined) {
          const name = checkChannelName(params.new_name);
          const other = getChannelByName(ctx.db, name);
          if (other && other.id !== before.id) throw badRequest(`Channel '${name}' already exists`);
          updates.push({ column: 'name', value: name, property: 'name', eventValue: name });
        }
        if (params.description !== undefined) {
          if ([...params.description].length > LIMITS.maxStreamDescriptionLength) {
            throw badRequest('Channel description too long');
          }
          updates.push({
            column: 'description',
            value: params.description,
            property: 'description',
            eventValue: params.description,
          });
        }
        if (params.is_web_public) throw badRequest('Web-public channels are not enabled.');
        if (params.is_private !== undefined) {
          if (params.is_private && before.is_default_stream === 1)
            throw badRequest('A default channel cannot be private.');
          updates.push({
            column: 'invite_only',
            value: params.is_private ? 1 : 0,
            property: 'invite_only',
            eventValue: params.is_private,
          });
        }
        const willBePrivate = params.is_private ?? before.invite_only === 1;
        if (params.history_public_to_subscribers !== undefined || params.is_private !== undefined) {
          const history = willBePrivate
            ? (params.history_public_to_subscribers ?? before.history_public_to_subscribers === 1)
            : true;
          updates.push({
            column: 'history_public_to_subscribers',
            value: history ? 1 : 0,
            property: 'history_public_to_subscribers',
            eventValue: history,
          });
        }
        if (params.message_retention_days !== undefined) {
          if (!isOwner(user.role)) throw badRequest('Must be an organization owner');
          const raw = params.message_retention_days;
          const days = raw === 'realm_default' ? null : raw === 'unlimited' ? -1 : Number(raw);
          if (days !== null && days !== -1 && (!Number.isInteger(days) || days < 1)) {
            throw badRequest("Bad value for 'message_retention_days'");
          }
          updates.push({
            column: 'message_retention_days',
            value: days,
            property: 'message_retention_days',
            eventValue: days,
          });
        }
        if (params.topics_policy !== undefined) {
          if (params.topics_policy === 'empty_topic_only' && hasNamedTopic(ctx, before.id)) {
            // Spec §3: only a channel whose every message is already in the empty topic.
            throw badRequest(
              `To enable this configuration, all messages in this channel must be in the "${emptyTopicDisplayName(ctx.db)}" topic. Consider renaming or deleting other topics.`,
            );
          }
          updates.push({
            column: 'topics_policy',
            value: params.topics_policy,
            property: 'topics_policy',
            eventValue: params.topics_policy,
          });
        }
        if (params.is_default_stream !== undefined) {
          requireAdmin(user);
          if (params.is_default_stream && willBePrivate)
            throw badRequest('A default channel cannot be private.');
          updates.push({
            column: 'is_default_stream',
            value: params.is_default_stream ? 1 : 0,
            property: 'is_default_stream',
            eventValue: params.is_default_stream,
          });
        }
        const groups = channelGroupSettings(before);
        const groupChanges: Array<[string, GroupSettingValue]> = [];
        for (const name of GROUP_SETTINGS) {
          const change = all[name] as z.infer<typeof groupSettingChange> | undefined;
          if (change === undefined) continue;
          const value = typeof change === 'object' && 'new' in change ? change.new : change;
          if (
            typeof value === 'number' &&
            !ctx.db.prepare('SELECT 1 FROM user_groups WHERE id = ?').get(value)
          ) {
            throw badRequest(`Invalid user group ID: ${value}`);
          }
          groups[name] = value;
          groupChanges.push([name, value]);
        }
        // Everything is checked by now: a refused change must not leave the channel unarchived.
        if (unarchiving) unarchive(ctx, before);
        if (updates.length === 0 && groupChanges.length === 0) {
          if (unarchiving) return;
          throw badRequest('No new values passed.');
        }

        const audienceBefore = new Set(channelMetadataAudience(ctx, before));
        ctx.db.transaction(() => {
          for (const update of updates) {
            ctx.db
              .prepare(`UPDATE channels SET ${update.column} = ? WHERE id = ?`)
              .run(update.value, before.id);
            if (update.column === 'description') {
              ctx.db
                .prepare('UPDATE channels SET rendered_description = ? WHERE id = ?')
                .run(renderShortMarkdown(update.value as string), before.id);
            }
          }
          if (groupChanges.length > 0) {
            ctx.db
              .prepare('UPDATE channels SET group_settings = ? WHERE id = ?')
              .run(JSON.stringify(groups), before.id);
          }
        })();
        const after = getChannel(ctx.db, before.id)!;
        const audienceAfter = channelMetadataAudience(ctx, after);
        const lost = [...audienceBefore].filter((id) => !audienceAfter.includes(id));
        const gained = audienceAfter.filter((id) => !audienceBefore.has(id));
        const stayed = audienceAfter.filter((id) => audienceBefore.has(id));
        if (lost.length > 0) {
          ctx.events.send(lost, {
            type: 'stream',
            op: 'delete',
            stream_ids: [after.id],
            streams: [{ stream_id: after.id }],
          });
        }
        if (gained.length > 0) {
          ctx.events.send(gained, {
            type: 'stream',
            op: 'create',
            streams: [channelObject(ctx, after)],
          });
        }
        for (const update of updates) {
          const extra: Record<string, unknown> = {};
          if (update.property === 'description')
            extra.rendered_description = after.rendered_description;
          if (update.property === 'invite_only') {
            extra.history_public_to_subscribers = after.history_public_to_subscribers === 1;
            extra.is_web_public = after.is_web_public === 1;
          }
          sendUpdate(ctx, after, stayed, update.property, update.eventValue, extra);
        }
        for (const [name, value] of groupChanges) sendUpdate(ctx, after, stayed, name, value);
        if (after.is_default_stream !== before.is_default_stream) announceDefaultChannels(ctx);
      },
    );

    api.delete('/streams/:stream_id', { ids: ['stream_id'] }, ({ user, ids }) => {
      const channel = requireChannel(ctx, user, ids.stream_id);
      if (channel.is_archived === 1) throw badRequest('Channel is already archived');
      const audience = channelMetadataAudience(ctx, channel);
      ctx.db
        .prepare('UPDATE channels SET is_archived = 1, is_default_stream = 0 WHERE id = ?')
        .run(channel.id);
      ctx.events.send(audience, (queue) =>
        queue.hasCapability('archived_channels')
          ? archivedUpdate(channel, true)
          : {
              type: 'stream',
              op: 'delete',
              stream_ids: [channel.id],
              streams: [{ stream_id: channel.id }],
            },
      );
      if (channel.is_default_stream === 1) announceDefaultChannels(ctx);
    });
  },
};
