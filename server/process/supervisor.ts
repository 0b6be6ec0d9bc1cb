import { setPriority } from 'node:os';
// The local realm server's process, as the app runs it: the browser-mode launcher (scripts/start.ts)
// and the desktop app's main process (electron/main.ts) each fork it (entry.ts) and supervise it.
// Their own event loops then never run server work. It keeps the port it first listened on (the
// stored account's URL names it), is started again with growing delays if it dies, and after
// too many deaths in a row, or when it cannot start at all, it waits in `failed` with the reason
// until retry(). stop() ends it with the app. Tests and benches may still start the server
// in-process (server/app.ts).
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalRealmStatus } from '../../shared/ipc/system';
import {
  describeStartFailure,
  type RealmProcessConfig,
  type RealmProcessMessage,
} from './messages';

/** The built child (scripts/build.ts), relative to the repository or app root. */
export const REALM_PROCESS_BUNDLE = 'dist/server/realm-process.cjs';

/**
 * How to run the child: the built bundle when there is one (through its loader, which keeps V8's
 * compiled code for the next start), else the source through tsx.
 */
export function realmProcessEntry(root: string): { script: string; execArgv: string[] } {
  const bundle = join(root, REALM_PROCESS_BUNDLE);
  const loader = join(root, 'scripts/launch-realm-process.mjs');
  if (existsSync(bundle) && existsSync(loader)) return { script: loader, execArgv: [] };
  return { script: join(root, 'server/process/entry.ts'), execArgv: ['--import', 'tsx'] };
}

/**
 * The realm process's scheduling priority (niceness; the app's own processes keep 0). On a
 * two-core machine a returning launch boots the server (about 0.7 s of CPU) while the browser runs
 * the page's script and main opens the cache: at equal priority the page's first message waited
 * behind the server's boot, which nothing on the first screen needs (docs/benchmarks.md, start-up,
 * fifth pass). Lower, the server still gets every core the window leaves idle.
 */
export const REALM_NICENESS = 10;

function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, REALM_NICENESS);
  } catch {
    // Not permitted or not supported here: the server runs at the app's priority.
  }
}

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
  onStatus?: (status: LocalRealmStatus) => void;
}

type Attempt =
  { ok: true; url: string; port: number } | { ok: false; reason: string; code?: string };

const DEFAULT_RESTART_DELAYS_MS = [500, 1000, 2000, 4000, 8000];
const STOP_GRACE_MS = 5000;
/** Generous: the first start of a large seed builds its whole database before it listens. */
const DEFAULT_START_TIMEOUT_MS = 60_000;
// The npm `server` script's flags: a larger young generation cut garbage collection from about 12%
// to 4% of the server's time under load (server/cli.ts); --expose-gc lets the server run one full
// collection once a burst of requests is over (server/memory/idle-release.ts), which brought its
// RSS back from 364 to 233 MB (baseline 201) where it otherwise stayed at 315 (docs/benchmarks.md).
const NODE_FLAGS = ['--max-semi-space-size=32', '--expose-gc'];
/**
 * Two malloc arenas instead of glibc's eight per core: with one per thread the freed memory of a
 * load stayed spread over arenas and was never returned (bench:server RSS 250 -> 418 MB a minute
 * after the load, heap flat; with two: 252 -> 200 MB, docs/benchmarks.md). Other C libraries
 * ignore it.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

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
    const { root, nodePath, dataDir, seed, largeScale, host } = this.options;
    const config: RealmProcessConfig = { dataDir, seed, largeScale, host, port };
    const entry = realmProcessEntry(root);
    const child = fork(entry.script, [JSON.stringify(config)], {
      cwd: root,
      execPath: nodePath ?? process.execPath,
      // Set explicitly: a parent run through tsx or a test runner would hand down its loaders.
      execArgv: [...NODE_FLAGS, ...entry.execArgv],
      // Electron's binary runs as plain Node for the child; Node ignores it. SERVER_ENV: see there.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ...SERVER_ENV },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    lowerPriority(child.pid);
    return new Promise<Attempt>((resolve) => {
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
