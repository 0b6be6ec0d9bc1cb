// Drafts: the server-synchronized ones (by id, kept current by drafts events) and local ones the
// user is typing that have no server id (keyed by conversation). Local drafts survive a snapshot
// replacement; the main process owns their persistence.
import type { Draft, StoredDraft } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface DraftsState {
  readonly version: number;
  readonly byId: Map<number, StoredDraft>;
  /** Drafts not (yet) stored on the server, by a client-chosen key (e.g. a narrow key). */
  readonly local: Map<string, Draft>;
}

export function draftsFrom(
  drafts: readonly StoredDraft[] | undefined,
  local?: Map<string, Draft>,
): DraftsState {
  return {
    version: 0,
    byId: new Map((drafts ?? []).map((dr) => [dr.id, dr])),
    local: local ?? new Map(),
  };
}

/** The event types handleDraftsEvent reacts to (the dispatcher calls it for these only). */
export const draftsEventTypes: readonly ServerEventType[] = ['drafts'];

export function handleDraftsEvent(
  d: SliceDraft<DraftsState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'drafts') return;
  switch (ev.op) {
    case 'add':
      for (const dr of ev.drafts) d.write.byId.set(dr.id, dr);
      return;
    case 'update':
      d.write.byId.set(ev.draft.id, ev.draft);
      return;
    case 'remove':
      if (d.read.byId.has(ev.draft_id)) d.write.byId.delete(ev.draft_id);
      return;
  }
}
