// The local realm server as the app runs it (browser-mode launcher and desktop main alike): its own
// process (server/process/supervisor.ts) on the port it had last time (DIR/local-realm/port.json,
// so the stored account's URL stays valid), moved to a free port only when that one is taken at
// launch (the account is repointed). The window hears of every change (`localRealm` pushes): an
// outage while it restarts, or why it could not start with a Retry. Once it runs, a launch with no
// account yet signs in as the demo owner (bootstrap.ts); remote accounts never wait for it, and
// neither does a returning launch whose port is still free (settle).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { LocalRealmStatus } from '../shared/ipc/system';
import { DEMO_TEMPLATE_DIR, RealmProcess, realmProcessEntry } from '../server/process/supervisor';
import type { FirstRealmPlan } from '../server/process/fork-realm.mjs';
import { DEMO_SEED_NOTE_FILE, demoOwner } from '../shared/demo-seed';
import type { SeedKind } from '../server/config';
import { AccountStore } from './accounts/account-store';
import { readJsonFile, writeJsonFile } from './storage/json-file';
import { signInToLocalRealm } from './bootstrap';
import { demoSeedForPlan } from './cache/account-seed';
import type { MainServices } from './services';

/** What MainServices needs of it: the status for the window, Retry, changes, and the demo account. */
export interface LocalRealmControl {
  status(): LocalRealmStatus;
  retry(): Promise<LocalRealmStatus>;
  /** Calls back on every change; returns the unsubscribe function. */
  subscribe(listener: (status: LocalRealmStatus) => void): () => void;
  /** Whether an account's site is this server (on its current or its remembered port). */
  isLocalSite(site: string): boolean;
  /** The person removed the demo account: later launches with no account open sign-in instead. */
  declineDemo(): void;
  /** Signs in as the demo owner (or finds that account) once the server runs; the account's id. */
  openDemo(services: MainServices): Promise<string>;
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
  /**
   * A first launch's realm as the launcher decided it before forking (fork-realm.mjs,
   * planFirstRealm): its port, the demo owner's key and the copy's time. With it, the demo owner
   * signs in before the realm listens (signInWhenRunning).
   */
  firstRealm?: FirstRealmPlan;
}

export class LocalRealm implements LocalRealmControl {
  readonly realmDir: string;
  readonly credentialsFile: string;
  private readonly process: RealmProcess;
  private readonly listeners = new Set<(status: LocalRealmStatus) => void>();
  private readonly portFile: string;
  /** Present once the person removed the demo account (until they open it again). */
  private readonly declinedFile: string;
  private readonly remembered: number | undefined;
  /** Whether the remembered port was free just before the process was forked to listen on it. */
  private rememberedFree: Promise<boolean> | null = null;
  private starting: Promise<LocalRealmStatus> | null = null;
  /** Whether signInWhenRunning is still waiting to sign in as the demo owner (said in status). */
  private preparingDemo = false;

  constructor(private readonly options: LocalRealmOptions) {
    this.realmDir = join(options.dataDir, 'local-realm');
    mkdirSync(this.realmDir, { recursive: true, mode: 0o700 });
    this.credentialsFile = join(this.realmDir, 'demo-credentials.json');
    this.portFile = join(this.realmDir, 'port.json');
    this.declinedFile = join(this.realmDir, 'demo-declined.json');
    this.remembered = readJsonFile<{ port?: number }>(this.portFile, {}).port;
    this.process = new RealmProcess({
      root: options.root,
      dataDir: this.realmDir,
      seed: options.seed,
      largeScale: options.largeScale,
      port: this.remembered ?? options.firstRealm?.port ?? 0,
      anyPortIfTaken: true,
      demoOwnerKey: options.firstRealm?.ownerKey,
      copyAt: options.firstRealm?.copyAt,
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
    return this.preparingDemo
      ? { ...this.process.status, preparingDemo: true }
      : this.process.status;
  }

  /** Starts its process; resolves once it listens or could not start (never rejects). */
  start(): Promise<LocalRealmStatus> {
    this.rememberedFree ??=
      this.remembered === undefined ? Promise.resolve(false) : portIsFree(this.remembered);
    this.starting ??= this.rememberedFree.then(() => this.process.start());
    return this.starting;
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
   * Call it before the services' sessions start. When the stored accounts' server is coming back
   * on the port they name (remembered, and free just before the process was forked), it resolves
   * at once: the sessions start while the server boots (their first requests are refused until it
   * listens, and MainServices wakes them then), so its boot is off the path to the window. If the
   * port was taken after all, `repoint` moves the running sessions. Otherwise (a first launch, or
   * a port already taken) it waits for the start and repoints the stored accounts before any
   * session reads them.
   */
  async settle(accounts: AccountStore, repoint: (from: string, to: string) => void): Promise<void> {
    const started = this.start();
    // With no account (a first launch) there is nothing to repoint: the window opens while the
    // realm is created, and signInWhenRunning adds its account at whatever address it gets.
    if (accounts.list().length === 0) return;
    if (await this.rememberedFree) {
      void started.then((status) => {
        const moved = this.movedFrom(status);
        if (moved !== null && status.state === 'running') repoint(moved, status.url);
      });
      return;
    }
    const status = await started;
    const moved = this.movedFrom(status);
    if (moved === null || status.state !== 'running') return;
    for (const account of accounts.list()) {
      if (account.site === moved) accounts.upsert({ ...account, site: status.url });
    }
  }

  /** The remembered site, if the server now runs elsewhere. */
  private movedFrom(status: LocalRealmStatus): string | null {
    if (status.state !== 'running' || this.remembered === undefined) return null;
    const old = `http://127.0.0.1:${this.remembered}`;
    return old === status.url ? null : old;
  }

  /**
   * Signs in as the demo owner once it runs, on a launch that started with no account (a first
   * launch, or one whose server could not start until Retry). Only until this launch has had an
   * account: after the person removed the last one, a restart of the server must not sign them
   * back in. Resolves after the attempt for the current status. Call it once the services'
   * sessions have started.
   */
  signInWhenRunning(services: MainServices): Promise<void> {
    if (services.accounts.list().length > 0 || this.demoDeclined()) return Promise.resolve();
    const current = this.status();
    if (current.state !== 'failed' && current.state !== 'stopped' && this.signInFromPlan(services))
      return Promise.resolve();
    let unsubscribe = () => {};
    const stop = () => {
      unsubscribe();
      this.setPreparingDemo(false);
    };
    const signIn = async (status: LocalRealmStatus) => {
      if (services.accounts.list().length > 0) return stop();
      // A realm that cannot start leaves the page its sign-in form (and the banner's Retry).
      if (status.state === 'failed' || status.state === 'stopped') this.setPreparingDemo(false);
      if (status.state !== 'running') return;
      await signInToLocalRealm(services, status.url, this.credentialsFile).catch((error: unknown) =>
        console.error('Tributary: signing in to the local realm failed', error),
      );
      // Cleared after the account is added, so the page goes from waiting to the chat directly.
      if (services.accounts.list().length > 0) stop();
      else this.setPreparingDemo(false);
    };
    unsubscribe = this.subscribe((status) => void signIn(status));
    if (current.state !== 'failed' && current.state !== 'stopped') this.setPreparingDemo(true);
    return signIn(current);
  }

  /**
   * A first launch whose realm the launcher planned (its port, the owner's key, the copy's time):
   * the demo owner is signed in now, with the build's seed moved as the copy moves its dates, so
   * the page shows the app while the realm process still loads; the session registers once the
   * realm listens (MainServices wakes it). Once it listens, what the plan assumed is checked: a
   * realm moved to another port (the planned one was taken) moves the account, and a realm that
   * was not copied with the planned key (the template refused, the copy failed) signs in again
   * with the key its credentials file holds. Whether it signed in.
   */
  private signInFromPlan(services: MainServices): boolean {
    const plan = this.options.firstRealm;
    if (!plan) return false;
    const bundle = realmProcessEntry(this.options.root).bundle;
    const site = `http://127.0.0.1:${plan.port}`;
    const seed =
      this.options.seed === 'demo' && bundle
        ? demoSeedForPlan({ dir: join(this.options.root, DEMO_TEMPLATE_DIR), bundle }, plan, site)
        : null;
    if (!seed) return false;
    void services
      .addLocalRealmOwner({
        site,
        email: seed.email,
        apiKey: plan.ownerKey,
        userId: seed.userId,
        seed,
      })
      .then(() => this.whenRunning())
      .then((status) => this.checkPlan(services, site, status))
      .catch((error: unknown) =>
        console.error('Tributary: signing in to the local realm failed', error),
      );
    return true;
  }

  /** The first running status from now (after a failed start, the one a Retry brings). */
  private whenRunning(): Promise<{ state: 'running'; url: string }> {
    return new Promise((resolve) => {
      const check = (status: LocalRealmStatus) => {
        if (status.state !== 'running') return;
        unsubscribe();
        resolve(status);
      };
      const unsubscribe = this.subscribe(check);
      check(this.process.status);
    });
  }

  private async checkPlan(
    services: MainServices,
    planned: string,
    status: { state: 'running'; url: string },
  ): Promise<void> {
    // The realm's note of the seed is for the sign-in made without a plan: this one used it.
    rmSync(join(this.realmDir, DEMO_SEED_NOTE_FILE), { force: true });
    if (status.url !== planned) await services.repointSite(planned, status.url);
    const users = (
      JSON.parse(readFileSync(this.credentialsFile, 'utf8')) as {
        users: Array<{ role: number; is_bot: boolean; api_key: string }>;
      }
    ).users;
    const owner = demoOwner(users);
    if (owner && owner.api_key !== this.options.firstRealm?.ownerKey) {
      await signInToLocalRealm(services, status.url, this.credentialsFile, { besideOthers: true });
    }
  }

  isLocalSite(site: string): boolean {
    const status = this.status();
    const ports = [
      this.remembered ?? this.options.firstRealm?.port,
      status.state === 'running' ? new URL(status.url).port : null,
    ];
    return ports.some((port) => port != null && site === `http://127.0.0.1:${port}`);
  }

  declineDemo(): void {
    writeJsonFile(this.declinedFile, { declinedAt: Date.now() });
  }

  private demoDeclined(): boolean {
    return readJsonFile<{ declinedAt?: number }>(this.declinedFile, {}).declinedAt !== undefined;
  }

  async openDemo(services: MainServices): Promise<string> {
    const status = await this.start();
    if (status.state !== 'running') {
      throw new Error(
        `The demo organization's server is not running${'reason' in status ? `: ${status.reason}` : ''}`,
      );
    }
    rmSync(this.declinedFile, { force: true });
    const existing = services.accounts.list().find((record) => this.isLocalSite(record.site));
    if (existing) return existing.id;
    const id = await signInToLocalRealm(services, status.url, this.credentialsFile, {
      besideOthers: true,
    });
    if (!id) throw new Error('Signing in to the demo organization failed');
    return id;
  }

  private setPreparingDemo(preparing: boolean): void {
    if (this.preparingDemo === preparing) return;
    this.preparingDemo = preparing;
    this.changed(this.process.status);
  }

  private changed(status: LocalRealmStatus): void {
    // Its port is kept for the next launch.
    if (status.state === 'running' && Number(new URL(status.url).port) !== this.remembered) {
      writeJsonFile(this.portFile, { port: Number(new URL(status.url).port) });
    }
    const told = this.preparingDemo ? { ...status, preparingDemo: true } : status;
    for (const listener of this.listeners) listener(told);
  }
}

/** Whether nothing listens on 127.0.0.1:port (a bind that is closed again at once). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () =>
      probe.close(() => resolve(true)),
    );
  });
}
