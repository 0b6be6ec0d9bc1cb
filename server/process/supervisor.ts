// The local realm server's process, as the app runs it: the browser-mode launcher (scripts/start.ts)
// and the desktop app's main process (electron/main.ts) each fork it (entry.ts) and supervise it.
// Their own event loops then never run server work. It keeps the port it first listened on (the
// stored account's URL names it), is started again with growing delays if it dies, and after
// too many deaths in a row, or when it cannot start at all, it waits in `failed` with the reason
// until retry(). stop() ends it with the app. Tests and benches may still start the server
// in-process (server/app.ts).
import type { ChildProcess } from 'node:child_process';
import type { LocalRealmStatus } from '../../shared/ipc/system';
import {
  describeStartFailure,
  type RealmProcessConfig,
  type RealmProcessMessage,
} from './messages';
import { adoptEarlyRealm, forkRealmProcess } from './fork-realm.mjs';
import { logRealmTiming } from './timing';

export {
  DEMO_TEMPLATE_DIR,
  REALM_NICENESS,
  REALM_PROCESS_BUNDLE,
  REALM_PROCESS_INPUTS,
  SERVER_ENV,
  realmProcessEntry,
} from './fork-realm.mjs';

export interface RealmProcessOptions extends RealmProcessConfig {
  /** The app's root (the repository, or the packaged app's folder holding dist/). */
  root: string;
  /** The Node binary to run it with (default: this process's; Electron runs itself as Node). */
  nodePath?: string;
  /** Delays before each restart after a death; one more death in a row and it stays failed. */
  restartDelaysMs?: number[];
  /** A process that ran this long starts the count of deaths in a row afresh. */
  stableAfterMs?: number;
  /** A child that has not reported listening this long after it was forked is killed (failed). */
  startTimeoutMs?: number;
  /** On the first start only: if the wanted port is taken, listen on any free one instead. */
  anyPortIfTaken?: boolean;
  /**
   * A first launch's demo owner key (fork-realm.mjs, planFirstRealm), handed to every child
   * that copies the template (a Retry's too) in its environment, so the account main already
   * signed in with is the copy's owner.
   */
  demoOwnerKey?: string;
  onStatus?: (status: LocalRealmStatus) => void;
}

type Attempt =
  { ok: true; url: string; port: number } | { ok: false; reason: string; code?: string };

const DEFAULT_RESTART_DELAYS_MS = [500, 1000, 2000, 4000, 8000];
const STOP_GRACE_MS = 5000;
/** Generous: the first start of a large seed builds its whole database before it listens. */
const DEFAULT_START_TIMEOUT_MS = 60_000;
export class RealmProcess {
  private child: ChildProcess | null = null;
  private current: LocalRealmStatus = { state: 'starting' };
  private port: number;
  private deathsInARow = 0;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** The first start (or the last Retry's). */
  private starting: Promise<LocalRealmStatus> | null = null;

  constructor(private readonly options: RealmProcessOptions) {
    this.port = options.port;
  }

  get status(): LocalRealmStatus {
    return this.current;
  }

  /** The running child's process id (tests kill it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Where it listens once running (the port stays across restarts). */
  get url(): string | null {
    return this.current.state === 'running' ? this.current.url : null;
  }

  /**
   * First start: resolves once it listens (`running`) or could not start (`failed`). Called again,
   * it answers the same start (or the status since): only retry() starts it anew.
   */
  start(): Promise<LocalRealmStatus> {
    this.starting ??= this.firstStart();
    return this.starting;
  }

  /** After `failed`: start again now (the person's Retry). Otherwise the status as it is. */
  async retry(): Promise<LocalRealmStatus> {
    await this.starting;
    if (this.current.state !== 'failed' || this.stopping) return this.current;
    this.deathsInARow = 0;
    this.starting = this.firstStart();
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(killer);
  }

  private async firstStart(): Promise<LocalRealmStatus> {
    this.setStatus({ state: 'starting' });
    let attempt = await this.spawn(this.port);
    if (
      !attempt.ok &&
      !this.stopping &&
      attempt.code === 'EADDRINUSE' &&
      this.options.anyPortIfTaken &&
      this.port !== 0
    ) {
      attempt = await this.spawn(0);
    }
    // stop() during the start: the child went because it was told to, not a failure.
    if (this.stopping) return this.setStatus({ state: 'stopped' });
    if (!attempt.ok) return this.setStatus({ state: 'failed', reason: attempt.reason });
    this.port = attempt.port;
    return this.setStatus({ state: 'running', url: attempt.url });
  }

  /** One child: resolves when it listens, or with why it could not. */
  private spawn(port: number): Promise<Attempt> {
    if (this.stopping) return Promise.resolve({ ok: false, reason: 'it was stopped' });
    const { root, nodePath, dataDir, seed, largeScale, host, copyAt } = this.options;
    const config: RealmProcessConfig = { dataDir, seed, largeScale, host, port, copyAt };
    // A first launch's child may have been forked before this process loaded (fork-realm.mjs).
    const early = adoptEarlyRealm(config);
    if (!early) logRealmTiming('realm-fork');
    const child: ChildProcess =
      early?.child ??
      forkRealmProcess({ root, nodePath, config, ownerKey: this.options.demoOwnerKey });
    this.child = child;
    const attempt = new Promise<Attempt>((resolve) => {
      let settled = false;
      let timedOut = false;
      let failure: { code?: string; message: string } | null = null;
      const startTimeoutMs = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
      const timeout = setTimeout(() => {
        // Hung before listening: killed, and this start fails (its exit is not a later death).
        timedOut = true;
        child.kill('SIGKILL');
        settle({
          ok: false,
          reason: `it did not start within ${startTimeoutMs / 1000} seconds`,
        });
      }, startTimeoutMs);
      const settle = (attempt: Attempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        resolve(attempt);
      };
      child.on('message', (message: RealmProcessMessage) => {
        if (message.type === 'failed') failure = message;
        else if (message.type === 'listening') {
          logRealmTiming('realm-running');
          this.startedAt = Date.now();
          settle({ ok: true, url: message.url, port: message.port });
        }
      });
      child.once('error', (error: Error & { code?: string }) => {
        failure ??= error;
        if (child.exitCode !== null || child.pid === undefined) {
          settle({ ok: false, reason: describeStartFailure(failure, port), code: failure.code });
        }
      });
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        clearTimeout(timeout);
        if (timedOut) return;
        if (!settled) {
          settle({
            ok: false,
            code: failure?.code,
            reason: failure
              ? describeStartFailure(failure, port)
              : `it stopped while starting (${signal ?? `exit code ${code}`})`,
          });
          return;
        }
        if (!this.stopping) this.died(`stopped unexpectedly (${signal ?? `exit code ${code}`})`);
      });
    });
    // What an early child said before it was adopted, now heard by the listeners above.
    early?.release();
    return attempt;
  }

  /**
   * The running child went away on its own (`reason` reads after "The local server"): start it
   * again after a delay, up to a bound.
   */
  private died(reason: string): void {
    const delays = this.options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS_MS;
    if (Date.now() - this.startedAt >= (this.options.stableAfterMs ?? 60_000)) {
      this.deathsInARow = 0;
    }
    const delay = delays[this.deathsInARow];
    this.deathsInARow += 1;
    if (delay === undefined) {
      this.setStatus({
        state: 'failed',
        reason: `it ${reason}, ${this.deathsInARow} times in a row`,
      });
      return;
    }
    this.setStatus({ state: 'restarting', reason, retryAt: Date.now() + delay });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.spawn(this.port).then((attempt) => {
        if (this.stopping) return;
        if (attempt.ok) this.setStatus({ state: 'running', url: attempt.url });
        else this.died(`could not start again: ${attempt.reason}`);
      });
    }, delay);
  }

  private setStatus(status: LocalRealmStatus): LocalRealmStatus {
    this.current = status;
    this.options.onStatus?.(status);
    return status;
  }
}
