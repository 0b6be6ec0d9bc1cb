// Everything main runs for one signed-in account: its API client, event loop, outbox and drafts.
// It also keeps the latest snapshot and the events delivered since, so a renderer that (re)loads can
// catch up with getSnapshot without a gap; with a local cache (electron/cache) both survive a restart,
// and until the server answers the renderer starts from the cached ones.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import {
  DEFAULT_REGISTER_PARAMS,
  messagesParams,
  PEOPLE_REGISTER_PARAMS,
  PEOPLE_STATE_TYPE,
  REGISTER_WITHOUT_PEOPLE_PARAMS,
} from '../../shared/api/register-params';
import { endpoints, type GetMessagesResponse } from '../../shared/api/endpoints';
import type { RegisterResponse } from '../../shared/api/types';
import type { ServerEvent, DraftsEvent } from '../../shared/api/events';
import type { ConnectionState } from '../../shared/ipc/common';
import type { SnapshotMessage } from '../../shared/ipc/accounts';
import { DEFAULT_OFFLINE_SETTINGS } from '../../shared/ipc/cache';
import type { MessagesPage, OutboxEntry, OutgoingMessage } from '../../shared/ipc/chat';
import { cachedPageIsDecisive } from '../../shared/ipc/cached-page';
import type { NarrowMatchContext, NarrowTerm } from '../../shared/narrow';
import { isDiskFull, MAX_EVENT_BYTES, type AccountCache } from '../cache/account-cache';
import type { PageRequest } from '../cache/cached-pages';
import type { PushSink } from '../../shared/ipc/contract';
import { ApiClient, type ApiClientOptions } from '../api/client';
import { ApiError } from '../api/errors';
import { EventLoop, restartSpreadFor } from '../events/event-loop';
import { Outbox, type DeliveryQuery } from '../outbox/outbox';
import { OfflineActions } from '../outbox/offline-actions';
import { sameMessage } from '../outbox/delivery-match';
import { DraftStore } from '../drafts/drafts';
import type { AccountRecord } from './account-store';
import { accountFolder } from './account-files';
import type { ActivityTracker } from '../presence/activity';
import { PresenceReporter } from '../presence/presence-reporter';
import { eventsWithoutBotKeys, registerWithoutBotKeys } from '../admin/bot-keys';
import type { ApplyContext } from '../cache/apply-events';
import { OfflineSync, type OfflineSyncOptions } from '../sync/offline-sync';
import { syncRecordPath } from '../sync/sync-record';
import { RawJson, withKnownJson } from '../ipc/raw-json';
import { logTiming } from '../timing';

/** Beyond this many events since the snapshot, a fresh registration is cheaper than the backlog. */
const MAX_BACKLOG_EVENTS = 20_000;
/** Messages of ours in one conversation read per page when the outbox looks for a delivery. */
const DELIVERY_PAGE_MESSAGES = 200;
/**
 * How long a session started from the cache waits at most for the page to show the cached snapshot
 * (snapshotShown) before it registers with the server anyway: no page, a hidden one, or an older page.
 */
export const CACHED_REGISTER_WAIT_MS = 5_000;
/**
 * How long a first sign-in's people (fetchPeople) wait at most for the page to have painted the
 * snapshot without them (snapshotShown): no page, or a hidden one. As long as a cached start's
 * register waits, for the same reason.
 */
export const PEOPLE_WAIT_MS = CACHED_REGISTER_WAIT_MS;
/**
 * How long a register without the people waits, once answered, for the own user asked beside it
 * (ownUserFields) before its snapshot goes without them. Sent first and a fraction of the
 * register's size, it is normally there already.
 */
const OWN_USER_GRACE_MS = 1_000;
/** The page the renderer opens a conversation with (renderer/features/messages/useMessagePages). */
const FIRST_PAGE = {
  anchor: 'first_unread',
  numBefore: 50,
  numAfter: 50,
  includeAnchor: true,
} as const;

export interface SessionOptions {
  record: AccountRecord;
  apiKey: string;
  dataDir: string;
  push: PushSink;
  clientOptions?: Partial<ApiClientOptions>;
  pollTimeoutMs?: number;
  /** Spread of re-registration after a server `restart` event (default: by site, see event-loop). */
  restartSpreadMs?: number;
  /** Told when the account's connection state changes (the account list shows it). */
  onConnection?: (state: ConnectionState) => void;
  /** Whether the person is at the machine; without it the account reports no presence. */
  activity?: ActivityTracker;
  /** Overrides the server's presence ping interval (tests). */
  presenceIntervalMs?: number;
  /** The account's local cache; without it nothing outlives the process. */
  cache?: AccountCache | null;
  /** The cache was just filled from the build's demo seed, not kept by an earlier run. */
  seeded?: boolean;
  /** Overrides background sync's pacing (tests, benchmarks). */
  syncOptions?: Partial<OfflineSyncOptions>;
  /**
   * Started from the cache, how long the first register waits for the page to have shown the cached
   * snapshot (snapshotShown); 0 registers at once. Default CACHED_REGISTER_WAIT_MS.
   */
  cachedRegisterWaitMs?: number;
  /** Overrides PEOPLE_WAIT_MS (tests). */
  peopleWaitMs?: number;
  /** Told each register's answer (main keeps the realm's name and feature level from it). */
  onRegister?: (register: RegisterResponse) => void;
}

/** What getSnapshot answers (shared/ipc/accounts.ts). */
export interface SessionSnapshot<S> {
  snapshot: S | null;
  events: ServerEvent[];
  connection: ConnectionState;
  fromCache: boolean;
  /** With fromCache: the cache holds the build's demo seed (a first launch), not an earlier run's. */
  seeded: boolean;
  lastNarrow: NarrowTerm[] | null;
  lastPage: MessagesPage | null;
}

export class AccountSession {
  readonly id: string;
  readonly client: ApiClient;
  readonly loop: EventLoop;
  readonly outbox: Outbox;
  readonly drafts: DraftStore;
  /** Stars, reactions, edits... done while offline, replayed when the server is back. */
  readonly actions: OfflineActions;
  readonly presence: PresenceReporter | null;
  /** Background sync of the cache (electron/sync); null without a cache. */
  readonly offline: OfflineSync | null;
  private parsedSnapshot: SnapshotMessage | null = null;
  /**
   * The cache's snapshot as the UTF-8 JSON it was stored as, until something in main needs it as an
   * object (see `snapshot`): the page is handed those bytes as they are (snapshotForPage), so a
   * large organization's start does not wait for main to decode, parse and serialize megabytes.
   */
  private snapshotJson: Buffer | null = null;
  private backlog: ServerEvent[] = [];
  private signedOut = false;
  /** The newest message id seen (snapshot, message events, our sends): the outbox's watermark. */
  private newestMessageId: number | null = null;
  /** The snapshot is the cache's, from an earlier run: no registration has answered yet. */
  private fromCache = false;
  private lastNarrow: NarrowTerm[] | null = null;
  private cache: AccountCache | null;
  private matchContextCache: { register: RegisterResponse; ctx: NarrowMatchContext } | null = null;
  /**
   * The newest event id delivered (real or made here): events made here number after it. Null while
   * it is the cache's snapshot's, not read yet (see lastEventId).
   */
  private knownLastEventId: number | null = -1;
  /**
   * Cache writes left for later, in order: a fresh snapshot (onSnapshot) and the pages the renderer
   * was already answered with (getMessages). See writeDeferred.
   */
  private deferredWrites: Array<() => void> = [];
  /**
   * Set while a session started from the cache holds its first register until the page has shown
   * the cached snapshot (see start): the fresh register of a large organization (megabytes built by
   * the server, parsed here, sent to the page, applied and rendered again) would otherwise race the
   * page's first paint for the machine's cores, and land in the middle of it.
   */
  private registerWait: ReturnType<typeof setTimeout> | null = null;
  /** The register in flight was asked without the people (registerParams). */
  private askedWithoutPeople = false;
  /** `GET /users/me`, asked beside a register without the people; null if it failed. */
  private ownUser: Promise<Record<string, unknown> | null> | null = null;
  private ownUserAnswer: Record<string, unknown> | null = null;
  /**
   * A snapshot without the people (a first sign-in) until they are fetched (fetchPeople): its
   * queue, and that queue's `realm_user` events, held back from the page and the cache until the
   * people they change are there. Null otherwise.
   */
  private peoplePending: {
    queueId: string;
    held: ServerEvent[];
    /** The register's text as the server sent it (with the user's id), for the cache's snapshot. */
    registerJson: string | undefined;
  } | null = null;
  /** Set while the people wait for the page to paint what came without them (snapshotShown). */
  private peopleWait: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: SessionOptions) {
    const { record, push } = options;
    this.id = record.id;
    const folder = accountFolder(options.dataDir, record.id);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    this.cache = options.cache ?? null;
    const cached = this.cache?.loadRaw();
    if (cached?.snapshotJson) {
      this.snapshotJson = cached.snapshotJson;
      this.backlog = cached.events;
      this.fromCache = true;
      this.knownLastEventId = null;
    }
    this.lastNarrow = cached?.lastNarrow ?? null;
    this.client = new ApiClient({
      site: record.site,
      credentials: { email: record.email, apiKey: options.apiKey },
      userAgent: 'Tributary',
      featureLevel: () => this.snapshot?.register.zulip_feature_level ?? record.featureLevel,
      // A 401 on any call (not only the poll) signs the account out once: no retry storm.
      onUnauthorized: (error) => {
        this.signedOut = true;
        this.loop?.signOut(error.message);
      },
      ...options.clientOptions,
    });
    this.outbox = new Outbox(
      join(folder, 'outbox.json'),
      record.id,
      {
        isOnline: () => this.isOnline(),
        send: (entry) => this.postMessage(entry),
        findDelivered: (query) => this.findDelivered(query),
        newestMessageId: () => this.newestMessageId,
      },
      (entries) => push('outbox', { accountId: record.id, entries }),
    );
    this.drafts = new DraftStore(
      join(folder, 'drafts.json'),
      {
        isOnline: () => this.isOnline(),
        create: async (draft) =>
          (await this.client.call(endpoints.createDrafts, { drafts: [draft] })).ids[0],
        edit: async (id, draft) => {
          await this.client.call(endpoints.editDraft, { draft_id: id, draft });
        },
        remove: async (id) => {
          await this.client.call(endpoints.deleteDraft, { draft_id: id });
        },
      },
      (drafts) => push('drafts', { accountId: record.id, drafts }),
    );
    this.actions = new OfflineActions({
      file: join(folder, 'actions.json'),
      accountId: record.id,
      client: this.client,
      drafts: this.drafts,
      isOnline: () => this.isOnline(),
      // Messages sent before an action go out before it (see offline-actions.ts).
      beforeReplay: () => this.outbox.flush(),
      register: () => this.snapshot?.register ?? null,
      backlog: () => this.backlog,
      cachedIds: (narrow, request) =>
        this.cachedPage(narrow, request)?.messages.map((m) => m.id) ?? [],
      deliver: (events) => this.deliverLocal(events),
      push,
    });
    // Started from the cache: actions still queued are shown even if the cache lost their events.
    if (this.hasSnapshot) this.backlog.push(...this.numbered(this.actions.shownEvents()));
    this.loop = new EventLoop({
      client: this.client,
      registerParams: () => this.registerParams(),
      beforeSnapshot: () => this.ownUserArrived(),
      pollTimeoutMs: options.pollTimeoutMs,
      restartSpreadMs: options.restartSpreadMs ?? restartSpreadFor(record.site),
      onSnapshot: (queueId, register, json) => this.onSnapshot(queueId, register, json),
      onEvents: (queueId, events) => this.onEvents(queueId, events),
      onState: (state) => this.onState(state),
    });
    const cache = this.cache;
    this.offline = cache
      ? new OfflineSync({
          accountId: record.id,
          host: this,
          cache,
          recordPath: syncRecordPath(folder),
          activity: options.activity,
          push: (status) => push('offlineStatus', status),
          ...options.syncOptions,
        })
      : null;
    if (cache) {
      cache.onDiskFull = () => this.offline?.noteDiskFull();
      if (this.hasSnapshot) cache.applyContext = applyContextOf(() => this.snapshot?.register);
    }
    this.presence = options.activity
      ? new PresenceReporter({
          accountId: record.id,
          client: this.client,
          activity: options.activity,
          intervalMs: options.presenceIntervalMs,
          onUpdate: (update) => push('presence', update),
          canReport: () => !this.signedOut && this.loop.connection.status !== 'signed_out',
        })
      : null;
  }

  start(): void {
    this.signedOut = false;
    const wait = this.options.cachedRegisterWaitMs ?? CACHED_REGISTER_WAIT_MS;
    if (this.fromCache && wait > 0 && !this.registerWait) {
      this.registerWait = setTimeout(() => this.snapshotShown(), wait);
      return;
    }
    this.loop.start();
  }

  /**
   * The page has painted this account's snapshot (or the wait for it is over): a session started
   * from the cache registers with the server now, and one whose snapshot came without the people
   * asks for them. Otherwise nothing to do.
   */
  snapshotShown(): void {
    this.askPeople();
    if (!this.registerWait) return;
    clearTimeout(this.registerWait);
    this.registerWait = null;
    this.loop.start();
  }

  /**
   * The account is being removed: its outbox and drafts stop writing their files (a send or a sync
   * still in flight would otherwise write them again after the folder is gone). Call before stop().
   */
  forgetLocalState(): void {
    this.outbox.forget();
    this.drafts.forget();
    this.actions.forget();
  }

  async stop(): Promise<void> {
    if (this.registerWait) clearTimeout(this.registerWait);
    this.registerWait = null;
    if (this.peopleWait) clearTimeout(this.peopleWait);
    this.peopleWait = null;
    this.presence?.stop();
    this.offline?.stop();
    this.outbox.dispose();
    this.actions.dispose();
    await this.loop.close();
    this.writeDeferred();
    this.cache?.close();
  }

  get connection(): ConnectionState {
    // Holding the first register for the page is part of connecting, as the page shows it.
    return this.registerWait ? { status: 'connecting' } : this.loop.connection;
  }

  get register(): RegisterResponse | null {
    return this.snapshot?.register ?? null;
  }

  getSnapshot(): SessionSnapshot<SnapshotMessage> {
    return { ...this.snapshotForPage(), snapshot: this.snapshot };
  }

  /**
   * getSnapshot's answer for the page: a cached snapshot main has not needed yet goes as the JSON
   * bytes the cache kept (the transports hand it over as that value, electron/ipc/raw-json.ts).
   */
  snapshotForPage(): SessionSnapshot<SnapshotMessage | RawJson> {
    // Taken first: answering the last conversation from the cache parses the snapshot (its realm
    // lookups), and the page should still get the bytes rather than that object serialized again.
    const json = this.snapshotJson;
    if (this.fromCache) logTiming('cached-snapshot-answered');
    const lastPage =
      this.fromCache && this.lastNarrow ? this.cachedPage(this.lastNarrow, FIRST_PAGE) : null;
    return {
      snapshot: json !== null ? new RawJson(json) : this.snapshot,
      events: [...this.backlog],
      connection: this.connection,
      fromCache: this.fromCache,
      seeded: this.fromCache && !!this.options.seeded,
      lastNarrow: this.lastNarrow,
      lastPage: lastPage ?? null,
    };
  }

  /** The latest snapshot; the cache's is parsed from its text when main first needs it. */
  private get snapshot(): SnapshotMessage | null {
    if (this.snapshotJson !== null) {
      this.parsedSnapshot = JSON.parse(this.snapshotJson.toString('utf8')) as SnapshotMessage;
      this.snapshotJson = null;
    }
    return this.parsedSnapshot;
  }

  private set snapshot(snapshot: SnapshotMessage | null) {
    this.snapshotJson = null;
    this.parsedSnapshot = snapshot;
  }

  private get hasSnapshot(): boolean {
    return this.snapshotJson !== null || this.parsedSnapshot !== null;
  }

  private get lastEventId(): number {
    if (this.knownLastEventId === null) {
      // The cache's: its snapshot's id, or a cached event's after it (every event since the
      // launch is in the backlog too, so the newest of them counts as it would have).
      const snapshotEventId = this.snapshot?.register.last_event_id ?? -1;
      this.knownLastEventId = this.backlog.reduce((id, e) => Math.max(id, e.id), snapshotEventId);
    }
    return this.knownLastEventId;
  }

  private set lastEventId(id: number) {
    this.knownLastEventId = id;
  }

  /** The conversation the next launch reopens (null: the home view decides). */
  get rememberedNarrow(): NarrowTerm[] | null {
    return this.lastNarrow;
  }

  rememberOpenNarrow(narrow: NarrowTerm[] | null): void {
    this.lastNarrow = narrow;
    this.cache?.setLastNarrow(narrow);
  }

  /**
   * A page of messages: from the server, kept in the cache; from the cache while the account is not
   * live (starting, or the server unreachable) or when the server cannot be reached.
   */
  async getMessages(narrow: NarrowTerm[], request: PageRequest): Promise<MessagesPage> {
    const fromCache = () => this.cachedPage(narrow, request);
    // A page the cache cannot settle is asked of the server; the cache still answers if the
    // server cannot be reached.
    if (!this.isOnline()) {
      const cached = fromCache();
      if (cached && cachedPageIsDecisive(cached)) return cached;
    }
    try {
      const page = await this.client.call(endpoints.getMessages, messagesParams(narrow, request));
      // Kept after the answer has gone: indexing a page's text for search would delay it.
      this.deferWrite(() => this.recordPage(narrow, request, page));
      return page;
    } catch (error) {
      const unreachable =
        error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
      const cached = unreachable ? fromCache() : null;
      if (cached) return cached;
      throw error;
    }
  }

  /** A channel's topics; from the cached messages when the server cannot be reached. */
  async getStreamTopics(
    streamId: number,
  ): Promise<{ result: 'success'; msg: string; topics: { name: string; max_id: number }[] }> {
    try {
      return await this.client.call(endpoints.getStreamTopics, {
        stream_id: streamId,
        allow_empty_topic_name: true,
      });
    } catch (error) {
      const unreachable =
        error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
      if (!unreachable || !this.cache || this.cache.isClosed) throw error;
      this.writeDeferred();
      this.cache.flush();
      return { result: 'success', msg: '', topics: this.cache.store.topics(streamId) };
    }
  }

  /**
   * The first page of a conversation as getMessages would answer it now from the cache, before the
   * session is online; null when it would ask the server (online, or a page the cache cannot settle).
   */
  cachedFirstPage(narrow: NarrowTerm[]): MessagesPage | null {
    if (this.isOnline()) return null;
    const page = this.cachedPage(narrow, FIRST_PAGE);
    return page && cachedPageIsDecisive(page) ? page : null;
  }

  /** A page from the cache, which first keeps the pages answered before (getMessages). */
  private cachedPage(narrow: NarrowTerm[], request: PageRequest): MessagesPage | null {
    this.writeDeferred();
    return this.cache?.cachedPage(narrow, request, this.matchContext(), this.horizon()) ?? null;
  }

  /** Keeps a page the server answered (the renderer's or background sync's) in the cache. */
  recordPage(narrow: NarrowTerm[], request: PageRequest, page: GetMessagesResponse): void {
    if (!this.cache || this.cache.isClosed) return;
    try {
      this.cache.recordPage(narrow, request, page, this.matchContext());
    } catch (error) {
      // The page is shown either way; a full disk stops background sync, which says so.
      if (!isDiskFull(error)) throw error;
      this.offline?.noteDiskFull();
    }
  }

  /** Cached history newer than this (unix seconds) counts as the conversation's recent history. */
  private horizon(): number {
    const days = this.offline?.settings.days ?? DEFAULT_OFFLINE_SETTINGS.days;
    return Math.floor(Date.now() / 1000) - days * 86_400;
  }

  /** Realm lookups for matching cached messages against a narrow (offline search). */
  matchContext(): NarrowMatchContext {
    const register = this.snapshot?.register;
    if (!register) return { selfUserId: 0 };
    if (this.matchContextCache?.register === register) return this.matchContextCache.ctx;
    const channels = new Map<string, number>();
    for (const sub of register.subscriptions ?? [])
      channels.set(sub.name.toLowerCase(), sub.stream_id);
    const users = new Map<string, number>();
    for (const user of register.realm_users ?? [])
      users.set(user.email.toLowerCase(), user.user_id);
    const ctx: NarrowMatchContext = {
      selfUserId: register.user_id,
      channelIdByName: (name) => channels.get(name.toLowerCase()),
      userIdByEmail: (email) => users.get(email.toLowerCase()),
    };
    this.matchContextCache = { register, ctx };
    return ctx;
  }

  isOnline(): boolean {
    return !this.signedOut && this.loop.connection.status === 'live';
  }

  assertSignedIn(): void {
    if (this.signedOut || this.loop.connection.status === 'signed_out') {
      throw new ApiError('auth', 'SIGNED_OUT', 'This account is signed out; sign in again.', 401);
    }
  }

  /** Queues a message and tries it at once when online. */
  async send(
    message: OutgoingMessage,
    localId?: string,
  ): Promise<{ localId: string; messageId: number | null; state: 'sent' | 'queued' }> {
    const { entry, messageId } = await this.outbox.submit(message, localId);
    return { localId: entry.localId, messageId, state: messageId === null ? 'queued' : 'sent' };
  }

  private async postMessage(entry: OutboxEntry): Promise<number> {
    const queueId = this.loop.currentQueueId;
    const { message } = entry;
    const response = await this.client.call(
      endpoints.sendMessage,
      {
        type: message.type,
        to: message.to,
        content: message.content,
        ...(message.type === 'channel' ? { topic: message.topic } : {}),
        ...(queueId ? { queue_id: queueId, local_id: entry.localId } : {}),
      },
      { retry: false },
    );
    this.noteMessageId(response.id);
    return response.id;
  }

  private noteMessageId(id: number | undefined): void {
    if (typeof id === 'number' && id > (this.newestMessageId ?? -1)) this.newestMessageId = id;
  }

  /**
   * Was this entry delivered by an attempt whose answer we lost? Reads our messages in that
   * conversation after the entry's watermark and takes the first one with the same text that no
   * other entry has claimed (see outbox.ts). Without a watermark (entries from before it existed),
   * messages since five minutes before the entry was made.
   */
  private async findDelivered({ entry, afterId, exclude }: DeliveryQuery): Promise<number | null> {
    const me = this.snapshot?.register.user_id;
    const { message } = entry;
    const conversation =
      message.type === 'channel'
        ? { operator: 'channel', operand: message.to }
        : { operator: 'dm', operand: message.to };
    const since = Math.floor(entry.createdAt / 1000) - 300; // tolerate clock skew
    let anchor: number | 'newest' = afterId ?? 'newest';
    for (;;) {
      const response = await this.client.call(endpoints.getMessages, {
        anchor,
        include_anchor: false,
        num_before: afterId === null ? DELIVERY_PAGE_MESSAGES : 0,
        num_after: afterId === null ? 0 : DELIVERY_PAGE_MESSAGES,
        narrow: [conversation, { operator: 'sender', operand: me ?? this.options.record.email }],
        apply_markdown: false,
        allow_empty_topic_name: true,
      });
      const page = [...response.messages].sort((a, b) => a.id - b.id);
      for (const candidate of page) {
        if (exclude.has(candidate.id)) continue;
        if (afterId !== null ? candidate.id <= afterId : candidate.timestamp < since) continue;
        if (sameMessage(candidate, message, this.emptyTopicName(), me)) return candidate.id;
      }
      if (afterId === null || response.found_newest || page.length === 0) return null;
      anchor = page[page.length - 1]!.id;
    }
  }

  /** The realm's name for the empty topic, which older servers store in its place. */
  private emptyTopicName(): string {
    return this.snapshot?.register.realm_empty_topic_display_name ?? 'general chat';
  }

  /**
   * What the next register asks. With nothing to show yet (no snapshot, from the cache or the
   * build's seed: a first sign-in), everything but the people: a large organization's people are
   * most of its register (4.2 of 5.8 MB), which the server builds and main and the page move,
   * parse and store before the first screen, which needs none of them. They are asked right after
   * (fetchPeople). Only when the account's own id is known (stored at sign-in), since the register
   * says it only with the people. Every later register (a lost queue, a resync) asks for it all.
   */
  private registerParams() {
    this.askedWithoutPeople = !this.hasSnapshot && this.options.record.userId !== null;
    // Who the user is (role, name, address) comes with the people too; without them the page
    // would show an owner the member's screens until they came. Asked first: a small answer,
    // which a single-threaded server gives before it builds the register.
    this.ownUserAnswer = null;
    this.ownUser = this.askedWithoutPeople
      ? this.client.call(endpoints.getOwnUser, {}, { retry: false, timeoutMs: 10_000 }).then(
          (me) => (this.ownUserAnswer = me),
          (error: unknown) => {
            console.error(
              `Tributary: ${this.id}'s own user was not read; the people say it`,
              error,
            );
            return null;
          },
        )
      : null;
    return this.askedWithoutPeople ? REGISTER_WITHOUT_PEOPLE_PARAMS : DEFAULT_REGISTER_PARAMS;
  }

  /** The own user asked beside the register, waited for a moment at most (beforeSnapshot). */
  private ownUserArrived(): Promise<unknown> | null {
    const asked = this.ownUser;
    if (!asked || this.ownUserAnswer) return null;
    return Promise.race([asked, new Promise((resolve) => setTimeout(resolve, OWN_USER_GRACE_MS))]);
  }

  private onSnapshot(queueId: string, fullRegister: RegisterResponse, registerJson?: string): void {
    const withoutPeople = this.askedWithoutPeople && this.options.record.userId !== null;
    this.askedWithoutPeople = false;
    if (withoutPeople) {
      // The register says the user's own id, role, name and address only with the people: the
      // id from the account, the rest from /users/me (ownUserFields). Where the server did send
      // one, its own wins: first in the text (JSON.parse keeps the last), not set on the object.
      const own = {
        user_id: this.options.record.userId!,
        ...(this.ownUserAnswer ? ownUserFields(this.ownUserAnswer) : {}),
      };
      const target = fullRegister as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(own)) if (!(key in target)) target[key] = value;
      if (registerJson?.startsWith('{'))
        registerJson = `{${JSON.stringify(own).slice(1, -1)},${registerJson.slice(1)}`;
    }
    this.ownUser = null;
    this.ownUserAnswer = null;
    const register = registerWithoutBotKeys(fullRegister);
    if (this.peopleWait) clearTimeout(this.peopleWait);
    this.peopleWait = null;
    this.peoplePending = withoutPeople
      ? { queueId, held: [], registerJson: register === fullRegister ? registerJson : undefined }
      : null;
    this.snapshot = withoutPeople
      ? { accountId: this.id, queueId, register, peoplePending: true }
      : { accountId: this.id, queueId, register };
    // The page and the cache get the snapshot's JSON made around the server's own text, when main
    // has it and it is the register as kept (no bot's key taken out): serializing a 10,000-user
    // organization's 5.8 MB again cost main 25-35 ms, once for the page and once for the cache.
    const json =
      registerJson !== undefined && register === fullRegister
        ? `{"accountId":${JSON.stringify(this.id)},"queueId":${JSON.stringify(queueId)},${withoutPeople ? '"peoplePending":true,' : ''}"register":${registerJson}}`
        : undefined;
    this.noteMessageId(register.max_message_id);
    this.fromCache = false;
    this.presence?.onSnapshot(register);
    // Reports start once the account is registered: a signed-out key would only collect 401s.
    this.presence?.start();
    this.backlog = [];
    const snapshot = this.snapshot;
    if (json === undefined) this.options.push('snapshot', snapshot);
    else withKnownJson(snapshot, json, () => this.options.push('snapshot', snapshot));
    this.drafts.applySnapshot(
      register.user_settings?.enable_drafts_synchronization ?? false,
      register.drafts ?? [],
    );
    // Written to the cache a little later: for a large organization the write (serializing and
    // sealing megabytes) would otherwise hold up the page's first calls, which arrive while main
    // handles the register. The next events write it first (deliver), so the cache's order holds.
    // One without the people is written too (marked peoplePending), so that an app closed before
    // they arrive still starts from the cache next time (whose register then asks for everything),
    // and again with them once they are in (fetchPeople).
    if (this.cache) {
      this.cache.applyContext = applyContextOf(() => register);
      this.deferWrite(() => this.saveSnapshot(snapshot, json));
    }
    this.lastEventId = register.last_event_id;
    // The new snapshot does not have what is still queued: show it again on top.
    this.deliverLocal(this.actions.shownEvents());
    this.options.onRegister?.(register);
    // Asked once the page has painted without them: their register (a large organization's 4 MB,
    // built by the server, then read and parsed here and in the page) would otherwise compete
    // with that first paint for the machine's two cores, and land in its middle.
    if (withoutPeople)
      this.peopleWait = setTimeout(
        () => this.askPeople(),
        this.options.peopleWaitMs ?? PEOPLE_WAIT_MS,
      );
  }

  /** Asks for the people a snapshot came without, if it still waits for them. */
  private askPeople(): void {
    if (!this.peopleWait || !this.peoplePending) return;
    clearTimeout(this.peopleWait);
    this.peopleWait = null;
    void this.fetchPeople(this.peoplePending.queueId);
  }

  /**
   * The people a first sign-in's register left out: a register of them alone, made after the
   * account's queue exists, so a change to someone since is either in the list or among that
   * queue's `realm_user` events, held meanwhile (deliver) and applied over the list in order: they
   * are upserts and last-writer updates, so applying one the list already shows changes nothing.
   * The page gets the people and those events (the `people` push); main's snapshot and the
   * cache's get the people spliced in, with every event since the snapshot after it. A failure
   * registers again (a full register: main has a snapshot now).
   */
  private async fetchPeople(queueId: string): Promise<void> {
    let people: RegisterResponse;
    let peopleJson: string | undefined;
    try {
      people = await this.client.call(endpoints.register, PEOPLE_REGISTER_PARAMS, {
        retry: false,
        onText: (text) => (peopleJson = text),
      });
    } catch (error) {
      if (this.peoplePending?.queueId !== queueId || this.signedOut) return;
      console.error(`Tributary: fetching ${this.id}'s people failed; registering again`, error);
      this.loop.resync();
      return;
    }
    if (people.queue_id) {
      void this.client
        .call(
          endpoints.deleteQueue,
          { queue_id: people.queue_id },
          { timeoutMs: 2_000, retry: false },
        )
        .catch(() => undefined);
    }
    const pending = this.peoplePending;
    const current = this.snapshot;
    // Registered again meanwhile (a lost queue, a resync): that register had the people.
    if (!pending || pending.queueId !== queueId || !current) return;
    this.peoplePending = null;
    // The people and the user's own fields (email, full_name, role...) join the register; where
    // both have a key (queue_id, last_event_id, the server's version...) the account's own wins.
    const register = { ...people, ...current.register } as RegisterResponse;
    const snapshot: SnapshotMessage = { accountId: this.id, queueId, register };
    this.snapshot = snapshot;
    // The held events take their places among those delivered since, as the server numbered them.
    if (pending.held.length > 0) {
      this.backlog = [...this.backlog, ...pending.held].sort((a, b) => a.id - b.id);
    }
    const message = { accountId: this.id, queueId, people, events: pending.held };
    const push = () => this.options.push('people', message);
    if (peopleJson === undefined) push();
    else {
      const head = `{"accountId":${JSON.stringify(this.id)},"queueId":${JSON.stringify(queueId)}`;
      withKnownJson(
        message,
        `${head},"people":${peopleJson},"events":${JSON.stringify(pending.held)}}`,
        push,
      );
    }
    if (!this.cache) return;
    // The cache's snapshot as text: both answers' keys, the register's last, so that its own win
    // where both have one (JSON.parse keeps the last of a repeated key), as in the object above.
    const json =
      peopleJson !== undefined && pending.registerJson !== undefined
        ? `{"accountId":${JSON.stringify(this.id)},"queueId":${JSON.stringify(queueId)},"register":${peopleJson.slice(0, -1)},${pending.registerJson.slice(1)}}`
        : undefined;
    const since = this.backlog;
    this.deferWrite(() => {
      this.saveSnapshot(snapshot, json);
      this.cache?.appendEvents(since);
    });
  }

  private onEvents(queueId: string, fullEvents: ServerEvent[]): void {
    const events = eventsWithoutBotKeys(fullEvents);
    if (
      this.backlog.length + events.length > MAX_BACKLOG_EVENTS ||
      (this.cache?.storedEventBytes ?? 0) > MAX_EVENT_BYTES
    ) {
      this.loop.resync();
      return;
    }
    this.actions.heardFromServer();
    this.deliver(queueId, events);
  }

  /**
   * Events made here for actions done offline (offline-actions.ts), numbered after the last one
   * delivered, so the renderer applies them and still takes the server's next event.
   */
  private deliverLocal(events: readonly Omit<ServerEvent, 'id'>[]): void {
    if (events.length === 0 || !this.snapshot) return;
    this.deliver(this.loop.currentQueueId ?? this.snapshot.queueId, this.numbered(events));
  }

  /**
   * Ids strictly between the last event's and the next integer: 0.5, 0.67, 0.75... above it. The
   * server's ids are integers, so its next event still numbers above every event made here.
   */
  private numbered(events: readonly Omit<ServerEvent, 'id'>[]): ServerEvent[] {
    return events.map((event) => {
      const base = Math.floor(this.lastEventId);
      const step = 1 / (1 - (this.lastEventId - base)); // 1 after an integer, 2 after .5, ...
      this.lastEventId = base + 1 - 1 / (step + 1);
      return { ...event, id: this.lastEventId } as ServerEvent;
    });
  }

  /** Queues a cache write for a turn of the event loop after the current task (writeDeferred). */
  private deferWrite(write: () => void): void {
    if (this.deferredWrites.push(write) !== 1) return;
    afterPendingIo(() => {
      try {
        this.writeDeferred();
      } catch (error) {
        // Out of any call's path, a failed write must not take main down: the cache only lags.
        console.error(`Tributary: writing ${this.id}'s cache failed`, error);
      }
    });
  }

  private saveSnapshot(snapshot: SnapshotMessage, json?: string): void {
    if (!this.cache || this.cache.isClosed) return;
    try {
      this.cache.saveSnapshot(snapshot, json);
    } catch (error) {
      // As for a page: the renderer has the snapshot either way; background sync says the disk is full.
      if (!isDiskFull(error)) throw error;
      this.offline?.noteDiskFull();
    }
  }

  /**
   * Runs the deferred cache writes, in the order they were queued: soon after they were, and at
   * once before the next events (which must follow a snapshot or a page in the cache), before a
   * read of the cache, and at stop.
   */
  private writeDeferred(): void {
    const writes = this.deferredWrites;
    this.deferredWrites = [];
    if (!this.cache || this.cache.isClosed) return;
    for (const write of writes) write();
  }

  /** The session's one path for events, the server's or made here: backlog, renderer, cache. */
  private deliver(queueId: string, allEvents: ServerEvent[]): void {
    // Events after a snapshot or a page follow them in the cache too.
    this.writeDeferred();
    const pending = this.peoplePending?.queueId === queueId ? this.peoplePending : null;
    let events = allEvents;
    if (pending) {
      // Until the people are in (fetchPeople), changes to them wait with them.
      events = allEvents.filter((event) => event.type !== PEOPLE_STATE_TYPE);
      for (const event of allEvents) if (event.type === PEOPLE_STATE_TYPE) pending.held.push(event);
      if (events.length === 0) return;
    }
    for (const event of events) {
      this.backlog.push(event); // no spread: a batch may be huge
      if (event.id > this.lastEventId) this.lastEventId = event.id;
      if (event.type === 'message')
        this.noteMessageId((event as { message: { id: number } }).message.id);
    }
    this.options.push('events', { accountId: this.id, queueId, events });
    // The held changes to people reach the cache with the people (fetchPeople), which writes the
    // snapshot again with every event since.
    this.cache?.appendEvents(events);
    for (const event of events) {
      if (event.type === 'drafts') this.drafts.applyEvent(event as DraftsEvent);
      if (
        event.type === 'user_settings' &&
        'property' in event &&
        event.property === 'enable_drafts_synchronization'
      ) {
        this.drafts.setSyncEnabled(Boolean((event as { value: unknown }).value));
      }
    }
  }

  private onState(state: ConnectionState): void {
    if (state.status === 'signed_out') {
      this.signedOut = true;
      // Signed out (the key was revoked or the user deactivated): nothing of the realm stays on disk.
      this.offline?.stop();
      this.deferredWrites = [];
      this.cache?.destroy();
      this.cache = null;
    }
    this.options.push('connection', { accountId: this.id, state });
    this.options.onConnection?.(state);
    this.actions.connectionChanged(state.status === 'live');
    if (state.status === 'live') {
      this.offline?.wake();
      void this.outbox.flush();
      void this.actions.flush();
      void this.drafts.sync();
    }
  }
}

/**
 * Runs `task` once the I/O that became ready meanwhile has been handled: a second turn of the event
 * loop, so the page's calls that arrived during a long task are answered before the next one.
 */
function afterPendingIo(task: () => void): void {
  setImmediate(() => setImmediate(task));
}

/**
 * The register's own-user fields (those it gives with `realm_user`, named as the public server
 * names them) from a `GET /users/me` answer, which says `role` instead of `is_moderator` (a
 * server before feature level 59 says neither, and had no moderators).
 */
export function ownUserFields(me: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ['email', 'delivery_email', 'full_name', 'avatar_url']) {
    if (me[key] !== undefined) fields[key] = me[key];
  }
  for (const key of ['is_admin', 'is_owner', 'is_guest']) fields[key] = me[key] === true;
  fields.is_moderator = me.role === 300;
  return fields;
}

/** Channel names for messages moved between channels while the cache applies events. */
function applyContextOf(register: () => RegisterResponse | undefined): ApplyContext {
  // Built at the first event that needs it: a cached snapshot need not be parsed before.
  let names: Map<number, string> | null = null;
  return {
    channelName: (id) => {
      if (!names) {
        names = new Map();
        for (const sub of register()?.subscriptions ?? []) names.set(sub.stream_id, sub.name);
      }
      return names.get(id);
    },
  };
}
