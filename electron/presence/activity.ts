// Is the person at the machine? Electron asks the system how long since the last keyboard or mouse
// input (powerMonitor.getSystemIdleTime, injected so this module never loads Electron); browser mode
// has only the page's own reports (input and visibility, through reportActivity). As the public web
// app: active until five minutes without input, then idle.
export const IDLE_AFTER_MS = 5 * 60_000;

export interface ActivityOptions {
  /** Seconds since the last input anywhere on the machine (Electron's powerMonitor). */
  systemIdleSeconds?: () => number;
  now?: () => number;
  idleAfterMs?: number;
}

export class ActivityTracker {
  private lastPageInput: number;
  /**
   * When the page last reported input (not mere visibility): the server counts input as a person's
   * action, not a window's ping. A time, not a flag, since each account's reporter asks it since its
   * own last report.
   */
  private lastPageUserInput = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: ActivityOptions = {}) {
    this.now = options.now ?? Date.now;
    // Starting the app is itself the person's doing; where the system knows better, it decides.
    this.lastPageInput = options.systemIdleSeconds ? -Infinity : this.now();
  }

  /** The page saw input, or was shown. Returns true when this turned an idle person active. */
  notePageActivity(report: { visible: boolean; userInput: boolean }): boolean {
    if (!report.userInput && !report.visible) return false;
    const wasIdle = this.status() === 'idle';
    this.lastPageInput = this.now();
    if (report.userInput) this.lastPageUserInput = this.lastPageInput;
    return wasIdle;
  }

  private lastInputAt(): number {
    const system = this.options.systemIdleSeconds;
    if (!system) return this.lastPageInput;
    return Math.max(this.lastPageInput, this.now() - system() * 1000);
  }

  status(): 'active' | 'idle' {
    const idleAfter = this.options.idleAfterMs ?? IDLE_AFTER_MS;
    return this.now() - this.lastInputAt() < idleAfter ? 'active' : 'idle';
  }

  /** Whether there was input since `sinceMs` (a reporter's last report). */
  userInputSince(sinceMs: number): boolean {
    if (this.lastPageUserInput > sinceMs) return true;
    return this.options.systemIdleSeconds ? this.lastInputAt() > sinceMs : false;
  }
}
