// The local realm server as the app runs it (browser-mode launcher and desktop main alike): its own
// process (server/process/supervisor.ts) on the port it had last time (DIR/local-realm/port.json,
// so the stored account's URL stays valid), moved to a free port only when that one is taken at
// launch (the account is repointed). The window hears of every change (`localRealm` pushes): an
// outage while it restarts, or why it could not start with a Retry. Once it runs, a launch with no
// account yet signs in as the demo owner (bootstrap.ts); remote accounts never wait for it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalRealmStatus } from '../shared/ipc/system';
import { RealmProcess } from '../server/process/supervisor';
import type { SeedKind } from '../server/config';
import { AccountStore } from './accounts/account-store';
import { readJsonFile, writeJsonFile } from './storage/json-file';
import { signInToLocalRealm } from './bootstrap';
import type { MainServices } from './services';

/** What MainServices needs of it: the status for the window, Retry, and changes. */
export interface LocalRealmControl {
  status(): LocalRealmStatus;
  retry(): Promise<LocalRealmStatus>;
  /** Calls back on every change; returns the unsubscribe function. */
  subscribe(listener: (status: LocalRealmStatus) => void): () => void;
}

export interface LocalRealmOptions {
  /** The app's data folder; the realm's is DIR/local-realm. */
  dataDir: string;
  /** The app's root (holding dist/). */
  root: string;
  seed: SeedKind;
  largeScale?: number;
  /** The Node binary for the server's process (default: this process's own). */
  nodePath?: string;
  restartDelaysMs?: number[];
}

export class LocalRealm implements LocalRealmControl {
  readonly realmDir: string;
  readonly credentialsFile: string;
  private readonly process: RealmProcess;
  private readonly listeners = new Set<(status: LocalRealmStatus) => void>();
  private readonly portFile: string;
  private readonly remembered: number | undefined;

  constructor(private readonly options: LocalRealmOptions) {
    this.realmDir = join(options.dataDir, 'local-realm');
    mkdirSync(this.realmDir, { recursive: true, mode: 0o700 });
    this.credentialsFile = join(this.realmDir, 'demo-credentials.json');
    this.portFile = join(this.realmDir, 'port.json');
    this.remembered = readJsonFile<{ port?: number }>(this.portFile, {}).port;
    this.process = new RealmProcess({
      root: options.root,
      dataDir: this.realmDir,
      seed: options.seed,
      largeScale: options.largeScale,
      port: this.remembered ?? 0,
      anyPortIfTaken: true,
      nodePath: options.nodePath,
      restartDelaysMs: options.restartDelaysMs,
      onStatus: (status) => this.changed(status),
    });
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get url(): string | null {
    return this.process.url;
  }

  status(): LocalRealmStatus {
    return this.process.status;
  }

  /** Starts its process; resolves once it listens or could not start (never rejects). */
  start(): Promise<LocalRealmStatus> {
    return this.process.start();
  }

  retry(): Promise<LocalRealmStatus> {
    return this.process.retry();
  }

  stop(): Promise<void> {
    return this.process.stop();
  }

  subscribe(listener: (status: LocalRealmStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Waits for the first start, and repoints an account on the port it had to leave, in the store
   * the services read: call it before their sessions start.
   */
  async settle(accounts: AccountStore): Promise<LocalRealmStatus> {
    const status = await this.start();
    if (status.state !== 'running' || this.remembered === undefined) return status;
    const old = `http://127.0.0.1:${this.remembered}`;
    for (const account of accounts.list()) {
      if (account.site === old && old !== status.url)
        accounts.upsert({ ...account, site: status.url });
    }
    return status;
  }

  /**
   * Signs in as the demo owner whenever it runs and there is no account yet (a first launch, or
   * one whose server could not start until Retry). Resolves after the attempt for the current
   * status. Call it once the services' sessions have started.
   */
  signInWhenRunning(services: MainServices): Promise<void> {
    const signIn = async (status: LocalRealmStatus) => {
      if (status.state !== 'running' || services.accounts.list().length > 0) return;
      await signInToLocalRealm(services, status.url, this.credentialsFile).catch((error: unknown) =>
        console.error('Tributary: signing in to the local realm failed', error),
      );
    };
    this.subscribe((status) => void signIn(status));
    return signIn(this.status());
  }

  private changed(status: LocalRealmStatus): void {
    // Its port is kept for the next launch.
    if (status.state === 'running' && Number(new URL(status.url).port) !== this.remembered) {
      writeJsonFile(this.portFile, { port: Number(new URL(status.url).port) });
    }
    for (const listener of this.listeners) listener(status);
  }
}
