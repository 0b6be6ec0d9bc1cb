// The contract every resource module (one per domain) fulfils. A module owns its routes, its SQL and
// the events it emits; if it holds client state, it also contributes its part of POST /register.
import type { ApiRouter } from '../http/router';
import type { AuthUser, RealmContext } from '../realm/context';

/** What POST /register asked for, passed to each module's initialState. */
export interface StateRequest {
  /** True when the key's event type is in fetch_event_types (or no filter was given). */
  wants(eventType: string): boolean;
  /** True when neither fetch_event_types nor event_types was given (every key is wanted). */
  fetchesEverything: boolean;
  capabilities: Readonly<Record<string, boolean>>;
  applyMarkdown: boolean;
  clientExtavatar: boolean;
  includeSubscribers: boolean;
  slimPresence: boolean;
  presenceHistoryLimitDays: number | undefined;
}

export interface ResourceModule {
  name: string;
  routes(api: ApiRouter, ctx: RealmContext): void;
  /** Keys this module adds to the POST /register response. */
  initialState?(ctx: RealmContext, user: AuthUser, request: StateRequest): Record<string, unknown>;
  /** Background work (timers) started once the server listens; returns its stop function. */
  start?(ctx: RealmContext): () => void;
}
