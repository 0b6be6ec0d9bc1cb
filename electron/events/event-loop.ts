// One account's event loop: POST /register, then long-poll GET /events, acknowledging with
// last_event_id. Every poll response becomes one batch for the renderer; a lost queue
// (BAD_EVENT_QUEUE_ID, e.g. after a server restart) becomes a new registration and a fresh snapshot.
//
// Failures back off exponentially with jitter (about 0.1 s doubling to 10 s, reset on success) and the
// first poll after a failure uses dont_block so recovery is immediate. A 401 stops the loop in the
// signed-out state (no retry storm); a 429 waits as long as the server asks.
import { endpoints, type RegisterParams } from '../../shared/api/endpoints';
import { DEFAULT_REGISTER_PARAMS } from '../../shared/api/register-params';
import type { RegisterResponse } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';
import type { ConnectionState } from '../../shared/ipc/common';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { backoffDelay, sleep } from '../api/backoff';
import { retryAfterMs } from '../api/client';
import { logTiming } from '../timing';

/** Extra time over the server's long-poll timeout before the client gives up on a poll. */
const POLL_TIMEOUT_MARGIN_MS = 5_000;
const DEFAULT_LONGPOLL_SECONDS = 90;
/** A wall-clock jump this much larger than the tick means the machine slept. */
const SLEEP_CHECK_INTERVAL_MS = 5_000;
const SLEEP_GAP_MS = 15_000;
/** A register in flight for less than this is not interrupted by wake (a slow one is still live). */
const FRESH_REGISTER_MS = 10_000;
/**
 * A `restart` event goes to every queue at once, so clients re-register after a random delay in
 * [0, spread) rather than all together (api-notes §2 asks for at least 5 minutes on a real server).
 * The local realm server on loopback has one client per account: a short spread is enough there.
 */
export const RESTART_SPREAD_MS = 5 * 60_000;
export const LOOPBACK_RESTART_SPREAD_MS = 2_000;

/** The restart spread for a site: short on the local machine, the API's 5 minutes elsewhere. */
export function restartSpreadFor(site: string): number {
  try {
    const host = new URL(site).hostname;
    const loopback = host === 'localhost' || host === '[::1]' || /^127\./.test(host);
    return loopback ? LOOPBACK_RESTART_SPREAD_MS : RESTART_SPREAD_MS;
  } catch {
    return RESTART_SPREAD_MS;
  }
}

export interface EventLoopCallbacks {
  /** `json`: the register's text as the server sent it (main need not serialize it again). */
  onSnapshot(queueId: string, register: RegisterResponse, json?: string): void;
  onEvents(queueId: string, events: ServerEvent[]): void;
  onState(state: ConnectionState): void;
}

export interface EventLoopOptions extends EventLoopCallbacks {
  client: ApiClient;
  /** What each register asks (a function: asked anew for each one). */
  registerParams?: RegisterParams | (() => RegisterParams);
  /**
   * Waited for after a register's answer, before onSnapshot: what the session asked beside the
   * register (a first sign-in's own user) and puts into the snapshot the page gets.
   */
  beforeSnapshot?: () => Promise<unknown> | null;
  /** Overrides the poll timeout derived from event_queue_longpoll_timeout_seconds (tests). */
  pollTimeoutMs?: number;
  random?: () => number;
  /** Re-registration after a `restart` event waits a random time below this (default 5 min). */
  restartSpreadMs?: number;
  /** The wall clock, for the sleep check (tests move it). */
  now?: () => number;
}

export class EventLoop {
  private queueId: string | null = null;
  private lastEventId = -1;
  private register: RegisterResponse | null = null;
  private state: ConnectionState = { status: 'stopped' };
  private running = false;
  private attempt = 0;
  private recovering = false;
  /** A POST /register is in flight, sent at registerSentAt (wall clock): see wake. */
  private registering = false;
  private registerSentAt = 0;
  /** Aborts the poll or backoff wait in progress (stop, wake, resync). */
  private interrupt = new AbortController();
  private loopDone: Promise<void> | null = null;
  private sleepTimer: ReturnType<typeof setInterval> | null = null;
  private lastTick = Date.now();
  private restartTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: EventLoopOptions) {}

  get connection(): ConnectionState {
    return this.state;
  }

  get currentQueueId(): string | null {
    return this.queueId;
  }

  get snapshot(): RegisterResponse | null {
    return this.register;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.interrupt = new AbortController();
    this.setState({ status: 'connecting' });
    this.startSleepDetection();
    this.loopDone = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopSleepDetection();
    this.cancelRestartResync();
    this.interrupt.abort();
    await this.loopDone;
    this.loopDone = null;
    if (this.state.status !== 'signed_out') this.setState({ status: 'stopped' });
  }

  /** After sleep, a network change or the user asking: stop waiting and poll at once (dont_block). */
  wake(): void {
    if (!this.running) return;
    this.attempt = 0;
    // A register that left moments ago is left to finish: the server builds its answer whether or
    // not the client still waits, so a second one would cost it twice. The local realm's status is
    // told again when a first launch has signed in, which woke the session just after its first
    // register left: a large organization's register was built twice, the first one cold, on a
    // first sign-in's path. An older one (the machine slept, the network changed) may hang on a
    // dead connection until its timeout, and is sent again.
    const now = (this.options.now ?? Date.now)();
    if (this.registering && now - this.registerSentAt < FRESH_REGISTER_MS) return;
    this.recovering = true;
    this.interruptCurrent();
  }

  /** Any call of this account got a 401: stop polling and show the account as signed out. */
  signOut(reason: string): void {
    if (this.state.status === 'signed_out') return;
    this.running = false;
    this.stopSleepDetection();
    this.cancelRestartResync();
    this.interrupt.abort();
    this.setState({ status: 'signed_out', reason });
  }

  /** Drops the queue and registers again; the renderer gets a fresh snapshot. */
  resync(): void {
    this.cancelRestartResync();
    this.queueId = null;
    if (this.running) this.interruptCurrent();
  }

  /** Deletes the server-side queue (best effort) and stops. */
  async close(): Promise<void> {
    const queueId = this.queueId;
    await this.stop();
    if (queueId) {
      await this.options.client
        .call(endpoints.deleteQueue, { queue_id: queueId }, { timeoutMs: 2_000, retry: false })
        .catch(() => undefined);
    }
  }

  private interruptCurrent(): void {
    const previous = this.interrupt;
    this.interrupt = new AbortController();
    previous.abort();
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.options.onState(state);
  }

  private pollTimeoutMs(): number {
    if (this.options.pollTimeoutMs) return this.options.pollTimeoutMs;
    const seconds = this.register?.event_queue_longpoll_timeout_seconds ?? DEFAULT_LONGPOLL_SECONDS;
    return seconds * 1000 + POLL_TIMEOUT_MARGIN_MS;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const signal = this.interrupt.signal;
      try {
        if (!this.queueId) await this.registerQueue(signal);
        else await this.pollOnce(signal);
      } catch (error) {
        if (!this.running) break;
        await this.handleFailure(error, signal);
      }
    }
  }

  private async registerQueue(signal: AbortSignal): Promise<void> {
    if (this.state.status !== 'backoff') this.setState({ status: 'connecting' });
    logTiming('register-sent');
    this.registering = true;
    this.registerSentAt = (this.options.now ?? Date.now)();
    let json: string | undefined;
    const asked = this.options.registerParams;
    const params = typeof asked === 'function' ? asked() : (asked ?? DEFAULT_REGISTER_PARAMS);
    const register = await this.options.client
      .call(endpoints.register, params, {
        signal,
        retry: false,
        waitOnRateLimit: false,
        onText: (text) => (json = text),
      })
      .finally(() => (this.registering = false));
    logTiming('register-received');
    if (!this.running) return;
    const beside = this.options.beforeSnapshot?.();
    if (beside) {
      await beside;
      if (!this.running) return;
    }
    if (!register.queue_id) {
      throw new ApiError('server', 'BAD_REQUEST', 'The server registered no event queue');
    }
    this.queueId = register.queue_id;
    this.lastEventId = register.last_event_id;
    this.register = register;
    this.attempt = 0;
    this.options.onSnapshot(register.queue_id, register, json);
    // A fresh queue has nothing buffered; the first poll can block.
    this.recovering = false;
    this.setState({ status: 'live', queueId: register.queue_id });
  }

  private async pollOnce(signal: AbortSignal): Promise<void> {
    const queueId = this.queueId!;
    const response = await this.options.client.call(
      endpoints.getEvents,
      {
        queue_id: queueId,
        last_event_id: this.lastEventId,
        ...(this.recovering ? { dont_block: true } : {}),
      },
      { signal, timeoutMs: this.pollTimeoutMs(), retry: false, waitOnRateLimit: false },
    );
    if (!this.running || queueId !== this.queueId) return;
    this.attempt = 0;
    if (this.recovering || this.state.status !== 'live') {
      this.recovering = false;
      this.setState({ status: 'live', queueId });
    }
    // Ids increase but skip; an event at or below last_event_id was already delivered (a retried
    // poll whose first answer was lost on the way), so it is dropped here, never passed on twice.
    const fresh = response.events.filter((event) => event.id > this.lastEventId);
    if (fresh.length === 0) return;
    this.lastEventId = fresh[fresh.length - 1].id;
    const visible = fresh.filter((event) => event.type !== 'heartbeat');
    if (visible.length > 0) this.options.onEvents(queueId, visible);
    if (visible.some((event) => event.type === 'restart')) this.scheduleRestartResync();
  }

  /**
   * The server restarted (new version, feature level or settings): register again, after a random
   * share of the spread. The old queue keeps being polled until then, so nothing is missed meanwhile.
   */
  private scheduleRestartResync(): void {
    if (this.restartTimer) return;
    const spread = this.options.restartSpreadMs ?? RESTART_SPREAD_MS;
    const delay = Math.floor((this.options.random ?? Math.random)() * spread);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.resync();
    }, delay);
    this.restartTimer.unref?.();
  }

  private cancelRestartResync(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  private async handleFailure(error: unknown, signal: AbortSignal): Promise<void> {
    if (error instanceof ApiError && error.kind === 'aborted') return; // wake, resync or stop
    if (signal.aborted) return;
    if (error instanceof ApiError && error.kind === 'auth') {
      this.signOut(error.message);
      return;
    }
    if (error instanceof ApiError && error.code === 'BAD_EVENT_QUEUE_ID') {
      // The queue expired or the server restarted: register again straight away.
      this.queueId = null;
      return;
    }
    const delay =
      error instanceof ApiError && error.kind === 'rate_limited'
        ? retryAfterMs(error)
        : backoffDelay(this.attempt, this.options.random);
    this.attempt += 1;
    this.recovering = true;
    this.setState({
      status: 'backoff',
      retryAt: Date.now() + delay,
      attempt: this.attempt,
      reason: error instanceof Error ? error.message : String(error),
    });
    await sleep(delay, signal).catch(() => undefined);
  }

  /**
   * Called every few seconds: when the wall clock jumped much further than the interval, timers were
   * frozen (the machine slept), so the poll in flight is probably dead; poll again at once.
   * Electron's powerMonitor 'resume' calls wake() directly; this check covers browser mode too.
   */
  checkForSleep(): boolean {
    const now = (this.options.now ?? Date.now)();
    const slept = now - this.lastTick > SLEEP_CHECK_INTERVAL_MS + SLEEP_GAP_MS;
    this.lastTick = now;
    if (slept) this.wake();
    return slept;
  }

  private startSleepDetection(): void {
    this.lastTick = (this.options.now ?? Date.now)();
    this.sleepTimer = setInterval(() => this.checkForSleep(), SLEEP_CHECK_INTERVAL_MS);
    this.sleepTimer.unref?.();
  }

  private stopSleepDetection(): void {
    if (this.sleepTimer) clearInterval(this.sleepTimer);
    this.sleepTimer = null;
  }
}
