// Default channels (new users are subscribed to them): POST and DELETE /default_streams with a
// stream_id, administrators only, as the public server has them. Each change sends the
// default_streams event (ids) to every active non-guest (announceDefaultChannels).
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { canSeeChannelMetadata, requireAdmin } from '../../realm/permissions';
import { getChannel, type ChannelRow } from './channels-store';
import { announceDefaultChannels } from './channels';

function adminChannel(ctx: RealmContext, user: AuthUser, channelId: number): ChannelRow {
  requireAdmin(user);
  const channel = getChannel(ctx.db, channelId);
  if (!channel || !canSeeChannelMetadata(ctx.db, user, channel))
    throw badRequest('Invalid channel ID');
  return channel;
}

export const defaultChannelsResource: ResourceModule = {
  name: 'default-channels',
  routes(api, ctx) {
    api.post('/default_streams', { params: { stream_id: p.int() } }, ({ user, params }) => {
      const channel = adminChannel(ctx, user, params.stream_id);
      if (channel.invite_only === 1) throw badRequest('Private channels cannot be made default.');
      if (channel.is_archived === 1) throw badRequest('Archived channels cannot be made default.');
      if (channel.is_default_stream === 1)
        throw badRequest('Channel is already a default channel.');
      ctx.db.prepare('UPDATE channels SET is_default_stream = 1 WHERE id = ?').run(channel.id);
      announceDefaultChannels(ctx);
    });

    api.delete('/default_streams', { params: { stream_id: p.int() } }, ({ user, params }) => {
      const channel = adminChannel(ctx, user, params.stream_id);
      if (channel.is_default_stream !== 1) throw badRequest('Channel is not a default channel.');
      ctx.db.prepare('UPDATE channels SET is_default_stream = 0 WHERE id = ?').run(channel.id);
      announceDefaultChannels(ctx);
    });
  },
};
