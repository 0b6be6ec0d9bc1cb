// POST /register: creates the caller's event queue and returns the initial state. Each resource
// module contributes its own keys through initialState (resources/module.ts); this file only owns
// the queue, the versioning keys and the fetch_event_types filter.
import * as z from 'zod';
import { p } from '../../http/params';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../../config';
import type { ResourceModule, StateRequest } from '../module';
import { clientOptionsFrom, clientOptionsParams } from './register-params';
import { clientNameFrom } from '../messages/client-name';

/** Set by resources/index.ts to the full module list (avoids an import cycle). */
let stateProviders: readonly ResourceModule[] = [];
export function setStateProviders(modules: readonly ResourceModule[]): void {
  stateProviders = modules;
}

export const registerResource: ResourceModule = {
  name: 'register',
  routes(api, ctx) {
    api.post(
      '/register',
      {
        params: {
          ...clientOptionsParams,
          fetch_event_types: p.json(z.array(z.string())).optional(),
          presence_history_limit_days: p.int().optional(),
          client: p.string().optional(),
        },
      },
      ({ user, params, request }) => {
        const clientName = clientNameFrom(params.client, request.headers['user-agent']);
        const options = clientOptionsFrom(params, clientName);
        const fetchTypes = params.fetch_event_types ?? params.event_types ?? null;
        const fetchSet = fetchTypes ? new Set(fetchTypes) : null;
        const state: StateRequest = {
          wants: (type) => fetchSet === null || fetchSet.has(type),
          fetchesEverything: fetchSet === null,
          capabilities: options.capabilities,
          applyMarkdown: options.applyMarkdown,
          clientExtavatar: options.clientExtavatar,
          includeSubscribers: params.include_subscribers,
          slimPresence: options.slimPresence === true,
          presenceHistoryLimitDays: params.presence_history_limit_days,
        };
        // Register the queue before computing state so no event between the two is lost; a
        // client may then see an event already reflected in the state, which the API allows.
        const queue = ctx.events.register(user.id, options);
        const body: Record<string, unknown> = {
          queue_id: queue.id,
          last_event_id: queue.lastEventId,
          zulip_feature_level: ZULIP_FEATURE_LEVEL,
          zulip_version: ZULIP_VERSION,
          zulip_merge_base: ZULIP_MERGE_BASE,
        };
        for (const module of stateProviders) {
          if (module.initialState) Object.assign(body, module.initialState(ctx, user, state));
        }
        return body;
      },
    );
  },
};
