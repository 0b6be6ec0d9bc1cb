// The messages domain, split by concern: sending (messages-send.ts), reading
// (messages-fetch.ts), editing (messages-edit.ts, with moves in messages-move.ts) and deleting
// (messages-delete.ts). Shared pieces: rows, access and the API shape (messages-store.ts),
// validation rules (messages-rules.ts), events (messages-events.ts), topic visibility
// (messages-visibility.ts) and the group commit of sends (messages-write-batch.ts); upload links
// belong to the attachment model in server/uploads/attachments.ts.
// Flags, reactions and narrows have their own modules.
import type { ResourceModule } from '../module';
import { registerSendRoute } from './messages-send';
import { registerFetchRoutes } from './messages-fetch';
import { registerEditRoute } from './messages-edit';
import { registerDeleteRoute } from './messages-delete';

export const messagesResource: ResourceModule = {
  name: 'messages',
  routes(api, ctx) {
    registerSendRoute(api, ctx);
    registerFetchRoutes(api, ctx);
    registerEditRoute(api, ctx);
    registerDeleteRoute(api, ctx);
  },
};
