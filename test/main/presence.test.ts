// Presence reports from main against the real local realm server, with faults injected by a proxy in
// front of it: deltas by last_update_id, idle from the system's idle time, a failed or lost answer
// losing nothing, and browser mode's page-fed activity through the reportActivity method.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PresenceUpdate } from '../../shared/ipc/people';
import { ApiClient } from '../../electron/api/client';
import { ActivityTracker, IDLE_AFTER_MS } from '../../electron/presence/activity';
import { PresenceReporter } from '../../electron/presence/presence-reporter';
import { startTestServer, type TestServer } from '../support/server';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { eventually, startMain } from './support/harness';

let realm: TestServer;
let proxy: FaultProxy;

beforeAll(async () => {
  realm = await startTestServer();
  proxy = await startFaultProxy(() => realm.url);
});
afterAll(async () => {
  await proxy?.close();
  await realm?.close();
});

/** The real client, noting the parameters of each call (the proxy sees only paths). */
class NotingClient extends ApiClient {
  readonly sent: unknown[] = [];
  override call: ApiClient['call'] = (endpoint, params, options) => {
    this.sent.push(params);
    return super.call(endpoint, params, options);
  };
}

/** A reporter for a seeded user through the proxy; its updates are recorded, never on a timer. */
function reporterFor(who: string, activity: ActivityTracker) {
  const user = realm.users[who];
  const updates: PresenceUpdate[] = [];
  const client = new NotingClient({
    site: proxy.url,
    credentials: { email: user.email, apiKey: user.api_key },
  });
  const reporter = new PresenceReporter({
    accountId: 'test',
    client,
    activity,
    onUpdate: (update) => updates.push(update),
    intervalMs: 3_600_000,
  });
  return { reporter, updates, sent: client.sent };
}

const reportsAsActive = (who: string) =>
  realm.client(who).post('/users/me/presence', { status: 'active', slim_presence: true });

describe('presence reporter', () => {
  it('asks for everything first, then only who changed, and survives failed answers', async () => {
    const { reporter, updates, sent } = reporterFor('dev', new ActivityTracker());
    // start() would report on a timer; the test drives each report itself.
    (reporter as unknown as { running: boolean }).running = true;
    const dev = String(realm.userIds.dev);

    await reporter.report();
    expect(updates).toHaveLength(1);
    expect(updates[0].complete).toBe(true);
    expect(updates[0].presences[dev].active_timestamp).toBeGreaterThan(0);
    expect(sent[0]).toMatchObject({ status: 'active', slim_presence: true, last_update_id: -1 });

    await reportsAsActive('emma');
    await reporter.report();
    expect(updates[1].complete).toBe(false);
    expect(Object.keys(updates[1].presences)).toEqual([String(realm.userIds.emma)]);
    expect((sent[1] as { last_update_id: number }).last_update_id).toBeGreaterThan(0);

    // A server error: no update, and the change is still reported by the next answer.
    proxy.inject({
      path: '/api/v1/users/me/presence',
      method: 'POST',
      action: { status: 500, body: { result: 'error', msg: 'boom', code: 'BAD_REQUEST' } },
    });
    await reportsAsActive('farid');
    await reporter.report();
    expect(updates).toHaveLength(2);
    // The answer lost on the way back: the server recorded the report, the client never saw it.
    proxy.inject({ path: '/api/v1/users/me/presence', method: 'POST', action: 'drop-response' });
    await reportsAsActive('guest');
    await reporter.report();
    expect(updates).toHaveLength(2);

    await reporter.report();
    expect(updates[2].complete).toBe(false);
    expect(Object.keys(updates[2].presences).sort()).toEqual(
      [String(realm.userIds.farid), String(realm.userIds.guest)].sort(),
    );
    // The merged picture has everyone heard of so far.
    const current = reporter.current()!;
    expect(current.complete).toBe(true);
    for (const who of ['dev', 'emma', 'farid', 'guest']) {
      expect(current.presences[String(realm.userIds[who])]).toBeDefined();
    }
    reporter.stop();
  });

  it('reports idle when the system has seen no input for five minutes', async () => {
    const { reporter, sent } = reporterFor(
      'moderator',
      new ActivityTracker({ systemIdleSeconds: () => IDLE_AFTER_MS / 1000 + 60 }),
    );
    (reporter as unknown as { running: boolean }).running = true;
    await reporter.report();
    const seen = await realm
      .client('emma')
      .get(`/users/${realm.userIds.moderator}/presence`, { slim_presence: true });
    expect(seen.status).toBe(200);
    const { active_timestamp, idle_timestamp } = seen.body.presence;
    expect(idle_timestamp).toBeGreaterThan(0);
    // Never active: the server reads the join time, which is no later than the report.
    expect(active_timestamp).toBeLessThanOrEqual(idle_timestamp);
    expect(sent[0]).toMatchObject({ status: 'idle', new_user_input: false });
    reporter.stop();
  });
});

describe('activity in browser mode (the page reports)', () => {
  it('goes idle after five minutes without page input and back at the next input', () => {
    let now = 1_000_000;
    const activity = new ActivityTracker({ now: () => now });
    expect(activity.status()).toBe('active');
    now += IDLE_AFTER_MS + 1;
    expect(activity.status()).toBe('idle');
    expect(activity.userInputSince(now - 60_000)).toBe(false);
    expect(activity.notePageActivity({ visible: true, userInput: true })).toBe(true);
    expect(activity.status()).toBe('active');
    expect(activity.userInputSince(now - 60_000)).toBe(true);
    expect(activity.userInputSince(now)).toBe(false);
    // Each account's reporter asks since its own last report: one asking does not hide it from another.
    expect(activity.userInputSince(now - 60_000)).toBe(true);
    // A hidden page with no input says nothing about the person.
    now += IDLE_AFTER_MS + 1;
    expect(activity.notePageActivity({ visible: false, userInput: false })).toBe(false);
    expect(activity.status()).toBe('idle');
  });

  it('main reports for the account, pushes the answers, and the page can catch up', async () => {
    const main = await startMain({ site: realm.url, user: realm.users.admin });
    try {
      await main.live();
      await main.waitForPush('presence', (u) => u.accountId === main.accountId);
      const handlers = main.services.handlers;
      expect(await handlers.reportActivity({ visible: true, userInput: true })).toBeNull();
      const current = await eventually(
        async () => (await handlers.getPresence({ accountId: main.accountId })) ?? undefined,
      );
      expect(current.complete).toBe(true);
      expect(current.presences[String(realm.userIds.admin)].active_timestamp).toBeGreaterThan(0);

      // Muting goes through main with the account's credentials.
      await handlers.muteUser({ accountId: main.accountId, userId: realm.userIds.emma });
      const muted = await realm
        .client('admin')
        .post('/register', { fetch_event_types: ['muted_users'] });
      expect(muted.body.muted_users.map((m: { id: number }) => m.id)).toEqual([realm.userIds.emma]);
      await handlers.unmuteUser({ accountId: main.accountId, userId: realm.userIds.emma });
    } finally {
      await main.close();
    }
  });
});
