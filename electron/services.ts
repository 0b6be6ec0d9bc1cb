// The main-process services, shared by the Electron app and the browser-mode host: accounts and their
// sessions, uploads, launch requests, and the handler for every IPC contract method. Runtime-specific
// parts (dialogs, opening links, the vault backend) are injected.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { endpoints } from '../shared/api/endpoints';
import type { AccountSummary, AccountsChanged, ServerCheck } from '../shared/ipc/accounts';
import type { AppInfo, OpenManifestRequest } from '../shared/ipc/system';
import { IpcCodes } from '../shared/ipc/errors';
import type { MethodHandlers, PushSink } from '../shared/ipc/contract';
import { ApiClient, normalizeSite, type ApiClientOptions } from './api/client';
import type { RegisterResponse } from '../shared/api/types';
import { ApiError } from './api/errors';
import { AccountStore, type AccountRecord } from './accounts/account-store';
import { AccountSession, type SessionOptions } from './accounts/session';
import { deleteAccountFolder } from './accounts/account-files';
import { accountHandlers, type NewAccount } from './accounts/account-handlers';
import { VaultError, type Vault } from './accounts/vault';
import { FileIntake } from './uploads/intake';
import { UploadManager } from './uploads/uploads';
import { uploadHandlers } from './uploads/upload-handlers';
import { chatHandlers } from './chat/chat-handlers';
import { scheduledHandlers } from './chat/scheduled-handlers';
import { ManifestService, type ManifestDialogs } from './manifest-service';
import { meetingShareHandlers } from './manifest-service/share';
import { fetchRealmMedia } from './media/media-proxy';
import { MeetingMessages } from './meetings/service';
import { openUploadExternally } from './media/open-upload';
import { fetchExternalMedia } from './media/external-media';
import { saveUpload } from './media/save-upload';
import { isAllowedExternalUrl } from './shell/external-urls';
import { ActivityTracker } from './presence/activity';
import { peopleHandlers } from './presence/people-handlers';
import { DesktopShell, type DesktopIntegration } from './shell/desktop-shell';
import { DESKTOP_PREFERENCES_FILE } from './shell/desktop-preferences';
import { DesktopBridge } from './notifications/desktop-bridge';
import { adminExtrasHandlers } from './admin/extras-handlers';
import { adminIconHandlers } from './admin/icon-handlers';
import { adminPeopleHandlers } from './admin/people-handlers';
import { adminRealmHandlers } from './admin/realm-handlers';
import { cacheHandlers, deleteAccountCache, openAccountCache } from './cache/cache-service';
import { fillCacheFromSeed } from './cache/account-seed';
import type { AccountSeed } from '../shared/demo-seed';
import { personalHandlers } from './settings/personal-handlers';
import type { LocalRealmControl } from './local-realm';
import { FirstScreenStore } from './first-screen/first-screen-store';
import { firstScreenNarrowView } from '../shared/ipc/first-screen';
import { logTiming } from './timing';

export interface MainServicesOptions {
  dataDir: string;
  vault: Vault;
  push: PushSink;
  appInfo: AppInfo;
  /** Opens a vetted URL in the system handler. */
  openExternal: (url: string) => Promise<void> | void;
  /** Shows the native open dialog and returns the chosen paths (Electron only). */
  chooseFilePaths?: (multiple: boolean) => Promise<string[]>;
  /** Shows the native save dialog and returns the chosen path, or null (Electron only). */
  chooseSavePath?: (defaultName: string) => Promise<string | null>;
  /** Native dialogs of the manifest viewer (Electron only). */
  manifestDialogs?: ManifestDialogs;
  clientOptions?: Partial<ApiClientOptions>;
  pollTimeoutMs?: number;
  /** Spread of re-registration after a server `restart` event (default: by site). */
  restartSpreadMs?: number;
  tusThresholdBytes?: number;
  tusRetryDelaysMs?: number[];
  /** Seconds since the last input on the machine (Electron's powerMonitor); browser mode has none. */
  systemIdleSeconds?: () => number;
  /** Overrides the server's presence ping interval (tests). */
  presenceIntervalMs?: number;
  /** The login item and window zoom (Electron only; browser mode lists them as desktop-only). */
  desktop?: DesktopIntegration;
  /** Keep no local cache (each launch waits for the server). */
  noCache?: boolean;
  /** Overrides background sync's pacing (tests, benchmarks). */
  syncOptions?: SessionOptions['syncOptions'];
  /** How long a cached account's first register waits for the page (session.ts; tests: 0). */
  cachedRegisterWaitMs?: number;
  /** How long a first sign-in's people wait for the page's paint (session.ts; tests: 0). */
  peopleWaitMs?: number;
  /** Per-account cap of meetings downloaded from messages (default 2 GiB). */
  meetingCapBytes?: number;
  /** The local realm server's process, when this launch runs one (local-realm.ts). */
  localRealm?: LocalRealmControl;
}

export class MainServices {
  readonly accounts: AccountStore;
  readonly intake: FileIntake;
  readonly uploads: UploadManager;
  readonly manifests: ManifestService;
  /** Meetings shared in messages: cards and downloads into DATA/meetings/<account>/. */
  readonly meetings: MeetingMessages;
  readonly activity: ActivityTracker;
  readonly shell: DesktopShell;
  /** Notifications, the unread badge and tray preferences; Electron attaches its runtime to it. */
  readonly desktop: DesktopBridge;
  /** The active account's last chat screen, shown by the next launch's page before the app runs. */
  readonly firstScreens: FirstScreenStore;
  private readonly sessions = new Map<string, AccountSession>();
  private readonly launchRequests: OpenManifestRequest[] = [];
  private stopWatchingLocalRealm: (() => void) | null = null;
  /** Set by stop(): a start in turns still under way starts nothing more. */
  private stopped = false;

  constructor(private readonly options: MainServicesOptions) {
    this.accounts = new AccountStore(options.dataDir);
    this.firstScreens = new FirstScreenStore({
      dataDir: options.dataDir,
      vault: options.vault,
      activeAccountId: () => this.accounts.activeAccountId,
      known: (accountId) => this.accounts.get(accountId) !== undefined,
      disabled: options.noCache,
      reopens: (accountId) => {
        const narrow = this.sessions.get(accountId)?.rememberedNarrow;
        return narrow ? firstScreenNarrowView(narrow) : null;
      },
    });
    this.activity = new ActivityTracker({ systemIdleSeconds: options.systemIdleSeconds });
    // Tributary's own state in the data folder: never readable through a user-supplied path.
    this.intake = new FileIntake(
      [
        'secrets.json',
        'secrets.enc.json',
        'accounts.json',
        'accounts',
        'window-state.json',
        'local-realm',
        DESKTOP_PREFERENCES_FILE,
      ].map((name) => join(options.dataDir, name)),
    );
    this.uploads = new UploadManager({
      intake: this.intake,
      onProgress: (progress) => options.push('uploadProgress', progress),
      tusThresholdBytes: options.tusThresholdBytes,
      tusRetryDelaysMs: options.tusRetryDelaysMs,
    });
    this.desktop = new DesktopBridge({ push: options.push });
    this.manifests = new ManifestService({
      dataDir: options.dataDir,
      dialogs: options.manifestDialogs,
      resolveToken: (token) => this.intake.get(token),
      releaseToken: (token) => this.intake.release(token),
      allowTypedPaths: options.appInfo.runtime === 'browser',
    });
    this.meetings = new MeetingMessages({
      meetingsDir: join(options.dataDir, 'meetings'),
      push: options.push,
      client: (accountId) => {
        const session = this.session(accountId);
        session.assertSignedIn();
        return session.client;
      },
      manifests: this.manifests,
      capBytes: options.meetingCapBytes,
    });
    this.shell = new DesktopShell({
      dataDir: options.dataDir,
      push: options.push,
      integration: options.desktop,
    });
  }

  /** Starts every stored account's session: all accounts stay connected at once. */
  start(): void {
    for (const record of this.accounts.list()) this.startSession(record);
    this.watchLocalRealm();
  }

  /**
   * start() in turns of the event loop: each account's cache is opened in a turn of its own and
   * its session made in the next, the active account's first. Each is synchronous work (the
   * cache's file opened and read, its first cipher, the outbox's and drafts' files) that would
   * otherwise run as one stretch; a request that comes meanwhile (the page's files, the bridge's
   * handshake) is answered between the turns instead of after all of them.
   */
  async startInTurns(): Promise<void> {
    const active = this.accounts.activeAccountId;
    const records = [...this.accounts.list()].sort(
      (a, b) => Number(b.id === active) - Number(a.id === active),
    );
    for (const record of records) {
      await nextTurn();
      if (this.stopped) return;
      // Signed in meanwhile (a first launch's demo account): started by then.
      if (this.sessions.has(record.id)) continue;
      const apiKey = this.options.vault.get(record.id);
      if (!apiKey) continue;
      const cache = this.openCache(record);
      await nextTurn();
      if (this.stopped || this.sessions.has(record.id)) {
        cache?.close();
        if (this.stopped) return;
        continue;
      }
      this.startSession(record, { apiKey, cache });
    }
    this.watchLocalRealm();
  }

  /**
   * The window hears of the local server's outages; once it is back, its accounts poll at once
   * instead of waiting out their backoff. Only when it comes back: the same running server told
   * again (a first launch's demo sign-in done) must not interrupt the register the new account's
   * session has just sent, which then went to the server a second time.
   */
  private watchLocalRealm(): void {
    let wasRunning = this.options.localRealm?.status().state === 'running';
    this.stopWatchingLocalRealm ??=
      this.options.localRealm?.subscribe((status) => {
        this.options.push('localRealm', status);
        const cameBack = status.state === 'running' && !wasRunning;
        wasRunning = status.state === 'running';
        if (!cameBack) return;
        for (const record of this.accounts.list()) {
          if (normalizeSite(record.site) === normalizeSite(status.url)) {
            this.sessions.get(record.id)?.loop.wake();
          }
        }
      }) ?? null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopWatchingLocalRealm?.();
    this.stopWatchingLocalRealm = null;
    await Promise.all([...this.sessions.values()].map((session) => session.stop()));
    this.sessions.clear();
    this.intake.releaseAll();
    this.manifests.closeAll();
    this.desktop.closeAll();
  }

  /** After sleep or a network change: every account polls again at once. */
  wakeAll(): void {
    for (const session of this.sessions.values()) session.loop.wake();
  }

  session(accountId: string): AccountSession {
    const session = this.sessions.get(accountId);
    if (!session) {
      throw new ApiError('server', IpcCodes.unknownAccount, `No account ${accountId}`, 404);
    }
    return session;
  }

  /** A launch request (e.g. a manifest path on the command line) for the renderer. */
  requestOpenManifest(path: string): void {
    this.manifests.allowPath(path);
    this.launchRequests.push({ path });
    this.options.push('openManifest', { path });
  }

  /**
   * Fetches an image or file of an account's realm with its credentials, for the renderer's media
   * protocol (Electron) or /media route (browser mode): the renderer itself never reaches the server.
   */
  async fetchMedia(
    accountId: string,
    realmPath: string,
    signal?: AbortSignal,
    range?: string | null,
  ): Promise<Response> {
    const session = this.sessions.get(accountId);
    if (!session) return new Response('Not found', { status: 404 });
    return fetchRealmMedia(session.client, realmPath, signal, range);
  }

  async checkServer(site: string): Promise<ServerCheck> {
    const client = this.newClient(site);
    const settings = await client.call(endpoints.serverSettings, {});
    return {
      site: client.site,
      realmName: settings.realm_name ?? new URL(client.site).host,
      featureLevel: settings.zulip_feature_level ?? 0,
      version: settings.zulip_version ?? 'unknown',
      realmIcon: settings.realm_icon ?? null,
      emailAuthEnabled: settings.email_auth_enabled ?? true,
    };
  }

  /** Adds an account (or replaces the key of the same site and email) after checking the server. */
  async addAccount(input: NewAccount): Promise<AccountSummary> {
    logTiming('add-account');
    const { server, email, apiKey, me } = input.apiKey
      ? await this.checkServerAndKey(input.site, input.email, input.apiKey)
      : await this.checkServerAndPassword(input);
    logTiming('add-account-checked');
    return this.storeAccount({
      site: server.site,
      email,
      apiKey,
      userId: typeof me.user_id === 'number' ? me.user_id : null,
      realmName: server.realmName,
      featureLevel: server.featureLevel,
      allowWeakEncryption: input.allowWeakEncryption,
    });
  }

  /**
   * Adds the owner of the realm server this app runs itself (a first launch's demo sign-in,
   * electron/bootstrap.ts), with the key that server's own seed wrote in its folder: nothing is
   * asked of the server first. Its name and feature level were asked only to be stored, and come
   * with the session's register (noteRegister), which also proves the key: a refused one signs
   * the session out as on any call. A remote server is still checked first (addAccount). Asking
   * them cost a first launch 50-240 ms against the just-started server, before its register.
   */
  async addLocalRealmOwner(input: {
    site: string;
    email: string;
    apiKey: string;
    userId: number | null;
    /** What the new account's cache starts from (a first launch: electron/cache/account-seed.ts). */
    seed?: AccountSeed | null;
  }): Promise<AccountSummary> {
    logTiming('add-account');
    const site = normalizeSite(input.site);
    const existing = this.accounts.findBySiteAndEmail(site, input.email);
    return this.storeAccount({
      ...input,
      site,
      realmName: existing?.realmName ?? new URL(site).host,
      featureLevel: existing?.featureLevel ?? 0,
      // The demo key already sits in plain text in the realm's own data folder, so storing it with
      // a weak backend exposes nothing new; real accounts still need the user's consent.
      allowWeakEncryption: true,
    });
  }

  /** Stores an account checked (or known) and starts its session, in place of the same one. */
  private async storeAccount(input: {
    site: string;
    email: string;
    apiKey: string;
    userId: number | null;
    realmName: string;
    featureLevel: number;
    allowWeakEncryption?: boolean;
    seed?: AccountSeed | null;
  }): Promise<AccountSummary> {
    const { site, email, apiKey } = input;
    const existing = this.accounts.findBySiteAndEmail(site, email);
    const id = existing?.id ?? randomBytes(8).toString('hex');
    let secretBackend;
    try {
      secretBackend = this.options.vault.put(id, apiKey, { allowWeak: input.allowWeakEncryption });
    } catch (error) {
      if (error instanceof VaultError) throw new ApiError('server', error.code, error.message, 400);
      throw error;
    }
    const record: AccountRecord = {
      id,
      site,
      email,
      userId: input.userId,
      realmName: input.realmName,
      featureLevel: input.featureLevel,
      secretBackend,
      addedAt: existing?.addedAt ?? Date.now(),
    };
    this.accounts.upsert(record);
    logTiming('add-account-stored');
    if (existing) await this.stopSession(id);
    this.startSession(record, undefined, input.seed ?? undefined);
    this.pushAccounts();
    return this.summary(record);
  }

  /**
   * With a key (a first launch's demo owner, a zuliprc), the server's check and the key's proof
   * (`/users/me`) go together: one round trip's wait instead of two. When both fail, the server's
   * failure is the one said (not a Zulip server says more than a refused key).
   */
  private async checkServerAndKey(site: string, email: string, apiKey: string) {
    const client = this.newClient(site);
    client.setCredentials({ email, apiKey });
    const [server, me] = await Promise.allSettled([
      this.checkServer(site),
      client.call(endpoints.getOwnUser, {}),
    ]);
    if (server.status === 'rejected') throw server.reason;
    if (me.status === 'rejected') throw me.reason;
    return { server: server.value, email, apiKey, me: me.value };
  }

  /** The server checked, then the password exchanged for the key, then the key proven. */
  private async checkServerAndPassword(input: NewAccount) {
    const server = await this.checkServer(input.site);
    const client = this.newClient(server.site);
    const fetched = await client.call(endpoints.fetchApiKey, {
      username: input.email,
      password: input.password ?? '',
    });
    const email = fetched.email || input.email;
    client.setCredentials({ email, apiKey: fetched.api_key });
    // Proves the key works before anything is stored.
    const me = await client.call(endpoints.getOwnUser, {});
    return { server, email, apiKey: fetched.api_key, me };
  }

  /**
   * The server of `from` now answers at `to` (the local realm server had to leave its port): its
   * accounts are stored with the new site and their sessions started anew on it.
   */
  async repointSite(from: string, to: string): Promise<void> {
    for (const { id } of this.accounts.list()) {
      // Read afresh after each wait: an account removed meanwhile must not come back.
      const record = this.accounts.get(id);
      if (!record || normalizeSite(record.site) !== normalizeSite(from)) continue;
      const moved = { ...record, site: normalizeSite(to) };
      this.accounts.upsert(moved);
      if (!this.sessions.has(id)) continue;
      await this.stopSession(id);
      if (this.accounts.get(id)) this.startSession(this.accounts.get(id)!);
    }
    this.pushAccounts();
  }

  /**
   * Removes an account from this computer: its session stops (the others go on), then its key, its
   * cache and the cache's key, its outbox and drafts, its meeting downloads and its entry go. The
   * entry goes last, so a removal cut short can be done again. Nothing changes on the server.
   */
  async removeAccount(accountId: string): Promise<AccountsChanged> {
    if (!this.accounts.get(accountId)) {
      throw new ApiError('server', IpcCodes.unknownAccount, `No account ${accountId}`, 404);
    }
    const record = this.accounts.get(accountId)!;
    // Without this, the next launch with no account would sign the demo owner in again.
    if (this.options.localRealm?.isLocalSite(record.site)) this.options.localRealm.declineDemo();
    this.sessions.get(accountId)?.forgetLocalState();
    await this.stopSession(accountId);
    deleteAccountCache(this.options.dataDir, this.options.vault, accountId);
    this.firstScreens.forget(accountId);
    await this.meetings.forgetAccount(accountId);
    deleteAccountFolder(this.options.dataDir, accountId);
    this.options.vault.delete(accountId);
    this.accounts.remove(accountId);
    return this.pushAccounts();
  }

  /** Puts an account at another place in the account list (the rail shows them in this order). */
  moveAccount(accountId: string, toIndex: number): AccountsChanged {
    if (!this.accounts.get(accountId)) {
      throw new ApiError('server', IpcCodes.unknownAccount, `No account ${accountId}`, 404);
    }
    this.accounts.move(accountId, toIndex);
    return this.pushAccounts();
  }

  switchAccount(accountId: string): AccountsChanged {
    this.session(accountId);
    this.accounts.setActive(accountId);
    return this.pushAccounts();
  }

  async openDemoRealm(): Promise<AccountsChanged> {
    const realm = this.options.localRealm;
    if (!realm) {
      throw new ApiError(
        'server',
        IpcCodes.unsupported,
        'This app was started without a demo organization',
        400,
      );
    }
    let accountId: string;
    try {
      accountId = await realm.openDemo(this);
    } catch (error) {
      throw new ApiError('server', IpcCodes.unsupported, (error as Error).message, 503);
    }
    return this.switchAccount(accountId);
  }

  listAccounts(): AccountsChanged {
    return {
      accounts: this.accounts.list().map((record) => this.summary(record)),
      activeAccountId: this.accounts.activeAccountId,
    };
  }

  get handlers(): MethodHandlers {
    const session = (payload: { accountId: string }) => {
      const found = this.session(payload.accountId);
      found.assertSignedIn();
      return found;
    };
    return {
      ...accountHandlers({
        listAccounts: () => this.listAccounts(),
        checkServer: (site) => this.checkServer(site),
        addAccount: (input) => this.addAccount(input),
        removeAccount: (accountId) => this.removeAccount(accountId),
        moveAccount: (accountId, toIndex) => this.moveAccount(accountId, toIndex),
        switchAccount: (accountId) => this.switchAccount(accountId),
        openDemoRealm: () => this.openDemoRealm(),
        record: (accountId) => this.accounts.get(accountId),
        session: (accountId) => this.session(accountId),
        allSessions: () => this.sessions.values(),
      }),
      ...chatHandlers(this),
      ...scheduledHandlers(this),
      ...peopleHandlers({
        activity: this.activity,
        signedInSession: (accountId) => session({ accountId }),
        sessions: () => this.sessions.values(),
      }),
      ...adminRealmHandlers({ signedInSession: (accountId) => session({ accountId }) }),
      ...cacheHandlers({
        session: (accountId) => this.session(accountId),
        // The screen made of the offline copy goes with it.
        cleared: (accountId) => this.firstScreens.forget(accountId),
      }),
      ...this.firstScreens.handlers,

      // drafts
      listDrafts: ({ accountId }) => this.session(accountId).drafts.list(),
      saveDraft: ({ accountId, key, draft }) => this.session(accountId).drafts.save(key, draft),
      deleteDraft: ({ accountId, key }) => {
        this.session(accountId).drafts.delete(key);
        return null;
      },

      ...uploadHandlers({
        signedInSession: (accountId) => session({ accountId }),
        uploads: this.uploads,
        intake: this.intake,
        chooseFilePaths: this.options.chooseFilePaths,
      }),

      // system
      getAppInfo: () => this.options.appInfo,
      openExternal: async ({ url }) => {
        if (!isAllowedExternalUrl(url)) {
          throw new ApiError(
            'server',
            'BAD_REQUEST',
            'Only http, https and mailto links open outside Tributary',
            400,
          );
        }
        await this.options.openExternal(url);
        return null;
      },
      openUpload: async ({ accountId, path }) => {
        await openUploadExternally(session({ accountId }).client, path, this.options.openExternal);
        return null;
      },
      takeLaunchRequests: () => ({
        openManifest: this.launchRequests.splice(0),
        openLink: this.shell.takeLinks(),
      }),
      getLocalRealm: () => this.options.localRealm?.status() ?? null,
      retryLocalRealm: async () => {
        await this.options.localRealm?.retry();
        return null;
      },

      // media in messages
      fetchExternalMedia: ({ url }) => fetchExternalMedia(url),
      saveUpload: async ({ accountId, path }) => {
        const choose = this.options.chooseSavePath;
        if (!choose) {
          throw new ApiError(
            'server',
            IpcCodes.unsupported,
            'No native save dialog in browser mode; the page downloads the file instead.',
            400,
          );
        }
        return saveUpload(session({ accountId }).client, path, choose);
      },

      // manifest viewer, and meetings shared in messages
      ...this.manifests.handlers,
      ...meetingShareHandlers({
        manifests: this.manifests,
        intake: this.intake,
        uploads: this.uploads,
        signedInSession: (accountId) => session({ accountId }),
      }),
      ...this.meetings.handlers,

      // desktop shell preferences
      ...this.shell.handlers,
      ...this.desktop.handlers,
      ...adminExtrasHandlers({
        signedInSession: (accountId) => session({ accountId }),
        intake: this.intake,
      }),
      ...adminPeopleHandlers({
        signedInSession: (accountId) => session({ accountId }),
        intake: this.intake,
        chooseSavePath: this.options.chooseSavePath,
      }),
      ...personalHandlers({
        signedInSession: (accountId) => session({ accountId }),
        record: (accountId) => this.accounts.get(accountId),
        intake: this.intake,
      }),
      ...adminIconHandlers({
        signedInSession: (accountId) => session({ accountId }),
        intake: this.intake,
      }),
    };
  }

  private newClient(site: string): ApiClient {
    return new ApiClient({
      site: normalizeSite(site),
      userAgent: 'Tributary',
      ...this.options.clientOptions,
    });
  }

  private openCache(record: AccountRecord) {
    return this.options.noCache
      ? null
      : openAccountCache(this.options.dataDir, this.options.vault, record);
  }

  /**
   * `opened`: its key and cache, when startInTurns read them a turn before. `seed`: what a new
   * account's empty cache starts from (a first launch's demo owner).
   */
  private startSession(
    record: AccountRecord,
    opened?: { apiKey: string; cache: ReturnType<typeof openAccountCache> },
    seed?: AccountSeed,
  ): void {
    const apiKey = opened?.apiKey ?? this.options.vault.get(record.id);
    if (!apiKey) return;
    const cache = opened ? opened.cache : this.openCache(record);
    const seeded = !!seed && !!cache && fillCacheFromSeed(cache, record.id, seed);
    if (seeded) logTiming('cache-seeded');
    // The build's screens of the demo: the page's early script shows one before the app runs.
    const screens = seeded ? seed.firstScreens : undefined;
    if (
      screens &&
      this.firstScreens.seedFromBuild(record.id, screens.screens, screens.shiftSeconds)
    )
      logTiming('first-screen-seeded');
    const session = new AccountSession({
      record,
      apiKey,
      dataDir: this.options.dataDir,
      push: this.options.push,
      clientOptions: this.options.clientOptions,
      pollTimeoutMs: this.options.pollTimeoutMs,
      restartSpreadMs: this.options.restartSpreadMs,
      onConnection: (state) => {
        // Signed out: the session destroyed its cache; nothing of the realm stays on disk.
        if (state.status === 'signed_out') this.firstScreens.forget(record.id);
        this.pushAccounts();
      },
      activity: this.activity,
      presenceIntervalMs: this.options.presenceIntervalMs,
      cache,
      seeded,
      syncOptions: this.options.syncOptions,
      cachedRegisterWaitMs: this.options.cachedRegisterWaitMs,
      peopleWaitMs: this.options.peopleWaitMs,
      onRegister: (register) => this.noteRegister(record.id, register),
    });
    this.sessions.set(record.id, session);
    session.start();
  }

  /**
   * The account's stored realm name and feature level as its server's register says them: the
   * local realm's owner is stored before anything was asked (addLocalRealmOwner), and a realm
   * renamed since it was added shows its new name in the account list.
   */
  private noteRegister(accountId: string, register: RegisterResponse): void {
    const record = this.accounts.get(accountId);
    if (!record) return;
    const realmName = register.realm_name ?? record.realmName;
    const featureLevel = register.zulip_feature_level ?? record.featureLevel;
    if (realmName === record.realmName && featureLevel === record.featureLevel) return;
    this.accounts.upsert({ ...record, realmName, featureLevel });
    this.pushAccounts();
  }

  private async stopSession(accountId: string): Promise<void> {
    const session = this.sessions.get(accountId);
    this.sessions.delete(accountId);
    await session?.stop();
  }

  private summary(record: AccountRecord): AccountSummary {
    return {
      id: record.id,
      site: record.site,
      email: record.email,
      userId: record.userId,
      realmName: record.realmName,
      featureLevel: record.featureLevel,
      secretBackend: record.secretBackend,
      connection: this.sessions.get(record.id)?.connection ?? {
        status: 'signed_out',
        reason: 'No stored key',
      },
    };
  }

  private pushAccounts(): AccountsChanged {
    const changed = this.listAccounts();
    this.options.push('accounts', changed);
    return changed;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
