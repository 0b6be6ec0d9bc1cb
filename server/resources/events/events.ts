// GET /events (long-poll with acknowledgement) and DELETE /events. Queues are created by
// POST /register (resources/events/register.ts) or by GET /events without queue_id and with dont_block.
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { missingParam } from '../../http/errors';
import { eventsAnswer } from '../../events/queue';
import { clientOptionsParams, clientOptionsFrom } from './register-params';

export const eventsResource: ResourceModule = {
  name: 'events',
  routes(api, ctx) {
    api.get(
      '/events',
      {
        longPoll: true,
        params: {
          queue_id: p.string().optional(),
          last_event_id: p.int().optional(),
          dont_block: p.bool().default(false),
          ...clientOptionsParams,
        },
      },
      async ({ user, params, reply }) => {
        if (params.queue_id === undefined) {
          if (!params.dont_block) throw missingParam('queue_id');
          const queue = ctx.events.register(user.id, clientOptionsFrom(params));
          return { events: [], queue_id: queue.id };
        }
        const queue = ctx.events.get(params.queue_id, user.id);
        if (params.last_event_id === undefined) throw missingParam('last_event_id');
        const pending = queue.fetch(params.last_event_id, params.dont_block, Date.now());
        if (Array.isArray(pending)) return { events: eventsAnswer(pending), queue_id: queue.id };
        // The response closing before we answered means the client went away: end the wait so the
        // queue counts as idle from now on (it expires after queueIdleTimeoutMs).
        const onClose = () => {
          if (!reply.raw.writableFinished) queue.abandonPoll(Date.now());
        };
        reply.raw.on('close', onClose);
        const events = await pending;
        reply.raw.off('close', onClose);
        return { events: eventsAnswer(events), queue_id: queue.id };
      },
    );

    api.delete('/events', { params: { queue_id: p.string() } }, ({ user, params }) => {
      ctx.events.delete(params.queue_id, user.id);
    });
  },
};
