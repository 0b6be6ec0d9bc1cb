// @vitest-environment node
// The presence slice: register's presences, main's reports (deltas and complete), presence events in
// the legacy and modern shapes, and the offline threshold by feature level; the muted users slice.
import { describe, expect, it } from 'vitest';
import { presenceStatus } from '../../../renderer/store';
import { eventId, register, setupStore, EMMA, FARID, GUS, SELF } from './fixtures';

const T = 1_700_000_000;

const at = (active: number, idle: number) => ({ active_timestamp: active, idle_timestamp: idle });

function presenceStore(featureLevel = 372, threshold?: number) {
  return setupStore({
    zulip_feature_level: featureLevel,
    ...(threshold ? { server_presence_offline_threshold_seconds: threshold } : {}),
    presences: {
      [EMMA]: at(T - 10, T - 10),
      [FARID]: at(T - 500, T - 30),
      [GUS]: at(T - 5000, T - 5000),
    },
    presence_last_update_id: 7,
    server_timestamp: T,
  });
}

const statusOf = (t: ReturnType<typeof setupStore>, id: number) =>
  presenceStatus(t.account().presence, id);

describe('presence slice', () => {
  it('reads register: active, idle, offline, and unknown people are offline', () => {
    const t = presenceStore();
    expect(statusOf(t, EMMA)).toBe('active');
    expect(statusOf(t, FARID)).toBe('idle');
    expect(statusOf(t, GUS)).toBe('offline');
    expect(statusOf(t, SELF)).toBe('offline');
  });

  it('uses the server threshold from FL164 (200 s by default) and 140 s below', () => {
    const times = { [EMMA]: at(T - 170, T - 170) };
    const modern = setupStore({ zulip_feature_level: 372, presences: times, server_timestamp: T });
    expect(modern.account().presence.offlineThresholdSeconds).toBe(200);
    expect(presenceStatus(modern.account().presence, EMMA)).toBe('active');
    const old = setupStore({ zulip_feature_level: 100, presences: times, server_timestamp: T });
    expect(old.account().presence.offlineThresholdSeconds).toBe(140);
    expect(presenceStatus(old.account().presence, EMMA)).toBe('offline');
    const told = presenceStore(372, 90);
    expect(told.account().presence.offlineThresholdSeconds).toBe(90);
  });

  it("counts age from the newest server timestamp: everyone ages with main's reports", () => {
    const t = presenceStore();
    t.store.getState().applyPresenceUpdate({
      accountId: 'a',
      presences: { [GUS]: at(T + 290, T + 290) },
      serverTimestamp: T + 300,
      complete: false,
    });
    expect(statusOf(t, GUS)).toBe('active');
    // Emma was active 310 s before the newest time: past the 200 s threshold.
    expect(statusOf(t, EMMA)).toBe('offline');
  });

  it('a complete report replaces everyone; a report never moves a time backwards', () => {
    const t = presenceStore();
    t.store.getState().applyPresenceUpdate({
      accountId: 'a',
      presences: { [EMMA]: at(T - 100, T - 100) },
      serverTimestamp: T,
      complete: true,
    });
    expect(t.account().presence.byUser.get(EMMA)).toEqual({ active: T - 10, idle: T - 10 });
    expect(t.account().presence.byUser.has(FARID)).toBe(false);
    expect(statusOf(t, FARID)).toBe('offline');
  });

  it('applies legacy presence events (one website client)', () => {
    const t = presenceStore();
    t.apply({
      id: eventId(),
      type: 'presence',
      user_id: GUS,
      server_timestamp: T + 5,
      presence: { website: { client: 'website', status: 'active', timestamp: T + 5 } },
    });
    expect(statusOf(t, GUS)).toBe('active');
    t.apply({
      id: eventId(),
      type: 'presence',
      user_id: SELF,
      email: 'me@example.com',
      server_timestamp: T + 6,
      presence: { website: { client: 'website', status: 'idle', timestamp: T + 6 } },
    });
    expect(statusOf(t, SELF)).toBe('idle');
  });

  it('applies modern presence events (simplified_presence_events, several users)', () => {
    const t = presenceStore();
    t.apply({
      id: eventId(),
      type: 'presence',
      server_timestamp: T + 5,
      presences: { [GUS]: at(T + 4, T + 4), [SELF]: at(0, T + 3) },
    });
    expect(statusOf(t, GUS)).toBe('active');
    expect(statusOf(t, SELF)).toBe('idle');
  });

  it('re-renders nothing when a report changes nobody', () => {
    const t = presenceStore();
    const before = t.account();
    t.store.getState().applyPresenceUpdate({
      accountId: 'a',
      presences: { [EMMA]: at(T - 10, T - 10) },
      serverTimestamp: T,
      complete: false,
    });
    expect(t.account()).toBe(before);
  });
});

describe('muted users slice', () => {
  it('loads from register and replaces the list with each event', () => {
    const t = setupStore({ ...register(), muted_users: [{ id: EMMA, timestamp: T }] });
    expect([...t.account().mutedUsers.byUser.keys()]).toEqual([EMMA]);
    t.apply({
      id: eventId(),
      type: 'muted_users',
      muted_users: [
        { id: FARID, timestamp: T + 1 },
        { id: GUS, timestamp: T + 2 },
      ],
    });
    expect([...t.account().mutedUsers.byUser.keys()]).toEqual([FARID, GUS]);
  });
});
