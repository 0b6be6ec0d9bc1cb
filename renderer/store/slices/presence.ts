// Presence by user id: when each person was last active and last connected (seconds), and the newest
// server timestamp heard. A person's dot (active, idle, offline) is computed from these as the public
// web app does: active if last active within the offline threshold of the newest server time, idle
// if connected within it, else offline. Fed by register's `presences`, `presence` events and main's
// minute-by-minute reports (applyPresenceUpdate).
import type { ModernPresence, RegisterResponse } from '../../../shared/api/types';
import type {
  LegacyClientPresence,
  ServerEvent,
  ServerEventType,
} from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export type PresenceStatus = 'active' | 'idle' | 'offline';

export interface PresenceRecord {
  /** 0 when never heard of. */
  readonly active: number;
  readonly idle: number;
}

export interface PresenceState {
  readonly version: number;
  readonly byUser: Map<number, PresenceRecord>;
  /** The newest server_timestamp heard (seconds): "now" for every dot. */
  readonly serverTimestamp: number;
  /** Seconds without a report after which a person is offline. */
  readonly offlineThresholdSeconds: number;
}

/** The public server's default; servers below FL164 do not say and use 140 s. */
const OLD_SERVER_OFFLINE_THRESHOLD_SECONDS = 140;
const DEFAULT_OFFLINE_THRESHOLD_SECONDS = 200;

export function offlineThresholdFor(reg: RegisterResponse): number {
  if ((reg.zulip_feature_level ?? 0) < 164) return OLD_SERVER_OFFLINE_THRESHOLD_SECONDS;
  return reg.server_presence_offline_threshold_seconds ?? DEFAULT_OFFLINE_THRESHOLD_SECONDS;
}

export function presenceFromRegister(reg: RegisterResponse): PresenceState {
  const byUser = new Map<number, PresenceRecord>();
  for (const [id, p] of Object.entries(reg.presences ?? {})) {
    byUser.set(Number(id), { active: p.active_timestamp ?? 0, idle: p.idle_timestamp ?? 0 });
  }
  return {
    version: 0,
    byUser,
    serverTimestamp: reg.server_timestamp ?? 0,
    offlineThresholdSeconds: offlineThresholdFor(reg),
  };
}

export function presenceStatus(state: PresenceState, userId: number): PresenceStatus {
  const record = state.byUser.get(userId);
  if (!record) return 'offline';
  const threshold = state.offlineThresholdSeconds;
  if (state.serverTimestamp - record.active < threshold) return 'active';
  if (state.serverTimestamp - record.idle < threshold) return 'idle';
  return 'offline';
}

/** Never moves a time backwards: a late or repeated report cannot make someone look older. */
function merge(d: SliceDraft<PresenceState>, userId: number, active: number, idle: number): void {
  const old = d.read.byUser.get(userId);
  const next = { active: Math.max(old?.active ?? 0, active), idle: Math.max(old?.idle ?? 0, idle) };
  if (old && old.active === next.active && old.idle === next.idle) return;
  d.write.byUser.set(userId, next);
}

function advanceClock(d: SliceDraft<PresenceState>, serverTimestamp: number): void {
  if (serverTimestamp > d.read.serverTimestamp) d.write.serverTimestamp = serverTimestamp;
}

/** A report main got from POST /users/me/presence: a delta, or (complete) everyone. */
export function applyPresenceReport(
  d: SliceDraft<PresenceState>,
  presences: Record<string, ModernPresence>,
  serverTimestamp: number,
  complete: boolean,
): void {
  if (complete) {
    for (const id of d.read.byUser.keys()) {
      if (!(String(id) in presences)) d.write.byUser.delete(id);
    }
  }
  for (const [id, p] of Object.entries(presences)) {
    merge(d, Number(id), p.active_timestamp ?? 0, p.idle_timestamp ?? 0);
  }
  advanceClock(d, serverTimestamp);
}

/** The legacy event shape, as the public web app reads it: each client's status moves one time. */
function applyLegacy(
  d: SliceDraft<PresenceState>,
  userId: number,
  clients: Record<string, LegacyClientPresence>,
): void {
  for (const record of Object.values(clients)) {
    if (record.status === 'active') merge(d, userId, record.timestamp, 0);
    else if (record.status === 'idle') merge(d, userId, 0, record.timestamp);
  }
}

export const presenceEventTypes: readonly ServerEventType[] = ['presence'];

export function handlePresenceEvent(
  d: SliceDraft<PresenceState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'presence') return;
  // Modern shape (simplified_presence_events, FL419): several users at once.
  if (ev.presences) {
    for (const [id, p] of Object.entries(ev.presences)) {
      merge(d, Number(id), p.active_timestamp ?? 0, p.idle_timestamp ?? 0);
    }
  } else if (ev.presence && ev.user_id !== undefined) {
    applyLegacy(d, ev.user_id, ev.presence);
  }
  advanceClock(d, ev.server_timestamp);
}
