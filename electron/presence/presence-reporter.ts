// One account's presence reports: POST /users/me/presence about once a minute (the server's
// server_presence_ping_interval_seconds), as the public clients do, with slim_presence and
// last_update_id so each answer carries only who changed. Every answer goes to the renderer; main also
// keeps the merged picture, so a page that reloads catches up with getPresence.
import { endpoints } from '../../shared/api/endpoints';
import type { ModernPresence, RegisterResponse } from '../../shared/api/types';
import type { PresenceUpdate } from '../../shared/ipc/people';
import type { ApiClient } from '../api/client';
import type { ActivityTracker } from './activity';

export const DEFAULT_PING_INTERVAL_MS = 60_000;

export interface PresenceReporterOptions {
  accountId: string;
  client: ApiClient;
  activity: ActivityTracker;
  onUpdate: (update: PresenceUpdate) => void;
  /** Overrides the server's ping interval (tests). */
  intervalMs?: number;
  now?: () => number;
  /** False while the account is signed out: a report would only collect another 401. */
  canReport?: () => boolean;
}

export class PresenceReporter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private intervalMs: number;
  /** -1 asks for everything (first report, or after a snapshot without presence state). */
  private lastUpdateId = -1;
  private lastReportAt: number;
  private readonly merged = new Map<string, ModernPresence>();
  private serverTimestamp = 0;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly options: PresenceReporterOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_PING_INTERVAL_MS;
    this.lastReportAt = (options.now ?? Date.now)();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A fresh register response: its presences are the new base, and deltas continue from there. */
  onSnapshot(register: RegisterResponse): void {
    if (!this.options.intervalMs && register.server_presence_ping_interval_seconds) {
      this.intervalMs = register.server_presence_ping_interval_seconds * 1000;
    }
    if (!register.presences || register.presence_last_update_id === undefined) return;
    this.merged.clear();
    for (const [id, presence] of Object.entries(register.presences)) this.merged.set(id, presence);
    this.serverTimestamp = register.server_timestamp ?? this.serverTimestamp;
    this.lastUpdateId = register.presence_last_update_id;
  }

  /** Everyone's presence as last heard, or null before any. */
  current(): PresenceUpdate | null {
    if (this.serverTimestamp === 0) return null;
    return {
      accountId: this.options.accountId,
      presences: Object.fromEntries(this.merged),
      serverTimestamp: this.serverTimestamp,
      complete: true,
    };
  }

  /**
   * Reports now (the person just came back) and restarts the interval from here; while a report is
   * in flight, right after it (two at once would ask with the same last_update_id).
   */
  reportNow(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.inFlight) return this.inFlight.then(() => this.reportNow());
    this.schedule(0);
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => this.inFlight ?? undefined);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inFlight = this.report().finally(() => {
        this.inFlight = null;
        if (this.running && !this.timer) this.schedule(this.intervalMs);
      });
    }, delayMs);
    this.timer.unref?.();
  }

  /** One report; failures wait for the next interval (presence is not worth a retry storm). */
  async report(): Promise<void> {
    if (this.options.canReport && !this.options.canReport()) return;
    const now = (this.options.now ?? Date.now)();
    const { activity } = this.options;
    const asked = this.lastUpdateId;
    try {
      const answer = await this.options.client.call(
        endpoints.updatePresence,
        {
          status: activity.status(),
          slim_presence: true,
          last_update_id: asked,
          new_user_input: activity.userInputSince(this.lastReportAt),
        },
        { retry: false, timeoutMs: 30_000 },
      );
      this.lastReportAt = now;
      if (!this.running) return;
      const presences = answer.presences ?? {};
      const complete = asked === -1;
      if (complete) this.merged.clear();
      for (const [id, presence] of Object.entries(presences)) this.merged.set(id, presence);
      if (typeof answer.presence_last_update_id === 'number') {
        this.lastUpdateId = Math.max(this.lastUpdateId, answer.presence_last_update_id);
      }
      this.serverTimestamp = answer.server_timestamp ?? now / 1000;
      this.options.onUpdate({
        accountId: this.options.accountId,
        presences,
        serverTimestamp: this.serverTimestamp,
        complete,
      });
    } catch {
      // Offline, a server error, a 401 (the client signs the account out): try at the next tick.
    }
  }
}
