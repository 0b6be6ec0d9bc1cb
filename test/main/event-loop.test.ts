// The event loop against the real local realm server, with faults injected by a proxy in front of it:
// the server restarted mid-poll, the queue expired, connection refused, a slow response, 429 with
// Retry-After, and 401. Afterwards the renderer-facing stream has no gaps and no duplicates, and the
// state was resynced where the queue was lost.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import type { RegisterResponse } from '../../shared/api/types';
import type { ConnectionState } from '../../shared/ipc/common';
import { ApiClient } from '../../electron/api/client';
import {
  EventLoop,
  LOOPBACK_RESTART_SPREAD_MS,
  RESTART_SPREAD_MS,
  restartSpreadFor,
} from '../../electron/events/event-loop';
import { startTestServer, type TestServer } from '../support/server';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { eventually } from './support/harness';

interface Recorder {
  snapshots: Array<{ queueId: string; register: RegisterResponse }>;
  batches: Array<{ queueId: string; events: ServerEvent[] }>;
  states: ConnectionState[];
}

describe('event loop with faults injected', () => {
  let realm: TestServer;
  let proxy: FaultProxy;
  let loop: EventLoop;
  let seen: Recorder;
  let statusCounter = 0;
  let clock = Date.now();

  /** The owner changes their status; every change is one user_status event carrying its text. */
  const makeEvent = async () => {
    const text = `status ${++statusCounter}`;
    const res = await realm.client('owner').post('/users/me/status', { status_text: text });
    expect(res.status).toBe(200);
    return text;
  };
  const statusTexts = () =>
    seen.batches.flatMap((b) =>
      b.events
        .filter((e) => e.type === 'user_status')
        .map((e) => (e as { status_text: string }).status_text),
    );
  const waitForStatus = (text: string) =>
    eventually(() => (statusTexts().includes(text) ? true : undefined));
  const polls = () => proxy.log.filter((line) => line === 'GET /api/v1/events').length;
  const live = () => eventually(() => (loop.connection.status === 'live' ? true : undefined));

  /** Within one queue, event ids strictly increase across batches: no duplicates, nothing re-sent. */
  const expectNoDuplicates = () => {
    const byQueue = new Map<string, number[]>();
    for (const batch of seen.batches) {
      const ids = byQueue.get(batch.queueId) ?? [];
      ids.push(...batch.events.map((e) => e.id));
      byQueue.set(batch.queueId, ids);
    }
    for (const ids of byQueue.values()) {
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    }
  };

  beforeAll(async () => {
    realm = await startTestServer({ heartbeatMs: 300 });
    proxy = await startFaultProxy(() => realm.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await realm?.close();
  });

  beforeEach(async () => {
    seen = { snapshots: [], batches: [], states: [] };
    const owner = realm.users.owner;
    loop = new EventLoop({
      client: new ApiClient({
        site: proxy.url,
        credentials: { email: owner.email, apiKey: owner.api_key },
      }),
      pollTimeoutMs: 2_000,
      now: () => clock,
      onSnapshot: (queueId, register) => seen.snapshots.push({ queueId, register }),
      onEvents: (queueId, events) => seen.batches.push({ queueId, events }),
      onState: (state) => seen.states.push(state),
    });
    const pollsBefore = polls();
    loop.start();
    await live();
    // The first poll has reached the proxy, so a rule injected now meets the next request, not that one.
    await eventually(() => (polls() > pollsBefore ? true : undefined));
  });
  afterEach(async () => {
    await loop.close();
  });

  it('delivers events in batches, heartbeats left out, with increasing ids', async () => {
    const a = await makeEvent();
    const b = await makeEvent();
    await waitForStatus(b);
    expect(statusTexts()).toEqual([a, b]);
    expect(seen.batches.every((batch) => batch.events.every((e) => e.type !== 'heartbeat'))).toBe(
      true,
    );
    expectNoDuplicates();
  });

  it('re-registers and sends a fresh snapshot after the server restarted mid-poll', async () => {
    const before = await makeEvent();
    await waitForStatus(before);
    await realm.restart(); // in-memory queues are gone; the proxy now forwards to the new port
    const after = await makeEvent();
    await eventually(() => (seen.snapshots.length >= 2 ? true : undefined));
    expect(seen.snapshots[1].queueId).not.toBe(seen.snapshots[0].queueId);
    // The new snapshot already holds the status set while the queue was lost: state is resynced.
    const statuses = seen.snapshots[1].register.user_status;
    expect(statuses[String(realm.users.owner.user_id)]?.status_text).toBe(after);
    const next = await makeEvent();
    await waitForStatus(next);
    expectNoDuplicates();
  });

  it('re-registers after a restart event, after a random share of the configured spread', async () => {
    await loop.close();
    const owner = realm.users.owner;
    const spreadDraws: number[] = [];
    loop = new EventLoop({
      client: new ApiClient({
        site: proxy.url,
        credentials: { email: owner.email, apiKey: owner.api_key },
      }),
      pollTimeoutMs: 2_000,
      restartSpreadMs: 400,
      random: () => {
        spreadDraws.push(0.5);
        return 0.5;
      },
      onSnapshot: (queueId, register) => seen.snapshots.push({ queueId, register }),
      onEvents: (queueId, events) => seen.batches.push({ queueId, events }),
      onState: (state) => seen.states.push(state),
    });
    seen = { snapshots: [], batches: [], states: [] };
    loop.start();
    await live();
    const before = await makeEvent();
    await waitForStatus(before);
    // The restart event arrives on the live queue (the queue itself survived the restart). Its id
    // follows the poll's last_event_id: heartbeats (every 300 ms here) also take ids, unseen above.
    proxy.inject({
      path: '/api/v1/events',
      action: {
        status: 200,
        bodyFor: (query) => ({
          result: 'success',
          msg: '',
          events: [
            {
              type: 'restart',
              id: Number(query.get('last_event_id')) + 1,
              zulip_version: '11.0',
              zulip_feature_level: 400,
              server_generation: 2,
            },
          ],
        }),
      },
    });
    loop.wake();
    await eventually(() => (seen.snapshots.length >= 2 ? true : undefined));
    expect(seen.batches.some((b) => b.events.some((e) => e.type === 'restart'))).toBe(true);
    expect(seen.snapshots[1].queueId).not.toBe(seen.snapshots[0].queueId);
    expect(spreadDraws.length).toBeGreaterThan(0);
    const after = await makeEvent();
    await waitForStatus(after);
    expectNoDuplicates();
  });

  it('spreads restart re-registration over 5 minutes except on the local machine', () => {
    expect(restartSpreadFor('http://127.0.0.1:9991')).toBe(LOOPBACK_RESTART_SPREAD_MS);
    expect(restartSpreadFor('http://localhost:9991')).toBe(LOOPBACK_RESTART_SPREAD_MS);
    expect(restartSpreadFor('https://chat.example.com')).toBe(RESTART_SPREAD_MS);
    expect(RESTART_SPREAD_MS).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('re-registers when the queue expired (BAD_EVENT_QUEUE_ID)', async () => {
    const queueId = loop.currentQueueId!;
    const res = await realm.client('owner').delete('/events', { queue_id: queueId });
    expect(res.status).toBe(200);
    loop.wake(); // the blocked poll on the deleted queue would otherwise wait for its timeout
    await eventually(() => (seen.snapshots.length >= 2 ? true : undefined));
    const text = await makeEvent();
    await waitForStatus(text);
    expect(loop.currentQueueId).not.toBe(queueId);
  });

  it('lets a register under way finish when woken, rather than sending a second one', async () => {
    // The local realm's status is told again as a first launch signs in, waking the new session
    // just after its first register left; the server would build that answer twice.
    const queueId = loop.currentQueueId!;
    const registers = () => proxy.log.filter((line) => line === 'POST /api/v1/register').length;
    const before = registers();
    proxy.inject({ path: '/api/v1/register', method: 'POST', action: { delayMs: 400 } });
    loop.resync();
    await eventually(() => (registers() > before ? true : undefined));
    loop.wake();
    await eventually(() => (seen.snapshots.length >= 2 ? true : undefined));
    expect(registers()).toBe(before + 1);
    expect(loop.currentQueueId).not.toBe(queueId);
    // Woken once registered, a poll is interrupted as before: the loop stays live.
    loop.wake();
    const text = await makeEvent();
    await waitForStatus(text);
    expect(registers()).toBe(before + 1);
  });

  it('sends a register again when woken long after it left (the machine slept meanwhile)', async () => {
    const registers = () => proxy.log.filter((line) => line === 'POST /api/v1/register').length;
    const before = registers();
    // The first one hangs past the wake; the one sent after it answers at once.
    proxy.inject({ path: '/api/v1/register', method: 'POST', action: { delayMs: 20_000 } });
    loop.resync();
    await eventually(() => (registers() > before ? true : undefined));
    clock += 60_000;
    loop.wake();
    await eventually(() => (seen.snapshots.length >= 2 ? true : undefined));
    expect(registers()).toBe(before + 2);
    const text = await makeEvent();
    await waitForStatus(text);
  });

  it('backs off while connections are refused, then catches up without gaps', async () => {
    await proxy.refuseConnections();
    loop.wake();
    const missed = [await makeEvent(), await makeEvent()];
    await eventually(() => (loop.connection.status === 'backoff' ? true : undefined));
    const backoff = loop.connection as Extract<ConnectionState, { status: 'backoff' }>;
    expect(backoff.retryAt).toBeGreaterThan(0);
    await proxy.acceptConnections();
    loop.wake();
    await waitForStatus(missed[1]);
    expect(statusTexts()).toEqual(missed);
    expect(seen.snapshots).toHaveLength(1); // same queue: nothing was lost
    expectNoDuplicates();
  });

  it('survives a response slower than its poll timeout without losing or repeating events', async () => {
    proxy.inject({ path: '/api/v1/events', action: { delayMs: 3_000 } });
    loop.wake();
    const text = await makeEvent();
    await waitForStatus(text);
    const more = await makeEvent();
    await waitForStatus(more);
    expect(statusTexts()).toEqual([text, more]);
    expect(seen.states.some((s) => s.status === 'backoff')).toBe(true);
    expectNoDuplicates();
  });

  it('waits as long as a 429 Retry-After asks, showing the wait', async () => {
    proxy.inject({
      path: '/api/v1/events',
      action: {
        status: 429,
        headers: { 'retry-after': '0.5' },
        body: {
          result: 'error',
          code: 'RATE_LIMIT_HIT',
          msg: 'API usage exceeded rate limit',
          'retry-after': 0.5,
        },
      },
    });
    loop.wake();
    const text = await makeEvent();
    await waitForStatus(text);
    const wait = seen.states.find((s) => s.status === 'backoff') as Extract<
      ConnectionState,
      { status: 'backoff' }
    >;
    expect(wait.reason).toMatch(/rate limit/i);
    expectNoDuplicates();
  });

  it('notices a sleep (a jump of the wall clock) and polls again at once with dont_block', async () => {
    const nonBlocking = () =>
      proxy.fullLog.filter(
        (l) => l.startsWith('GET /api/v1/events?') && l.includes('dont_block=true'),
      ).length;
    const before = nonBlocking();
    expect(loop.checkForSleep()).toBe(false); // an ordinary tick
    expect(nonBlocking()).toBe(before);
    clock += 10 * 60_000; // the machine slept ten minutes
    expect(loop.checkForSleep()).toBe(true);
    // The blocked poll was given up and a non-blocking one sent at once.
    await eventually(() => (nonBlocking() > before ? true : undefined));
    const text = await makeEvent();
    await waitForStatus(text);
    expectNoDuplicates();
  });

  it('signs the account out on 401 and stops polling (no retry storm)', async () => {
    proxy.inject({
      path: '/api/v1/events',
      action: {
        status: 401,
        body: { result: 'error', code: 'UNAUTHORIZED', msg: 'Invalid API key' },
      },
    });
    loop.wake();
    await eventually(() => (loop.connection.status === 'signed_out' ? true : undefined));
    const pollsAfter = proxy.log.length;
    await makeEvent();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(proxy.log.length).toBe(pollsAfter);
  });
});
