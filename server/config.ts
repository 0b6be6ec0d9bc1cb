// Server-wide constants and the options createRealmServer accepts. Values the public API documents
// (limits, typing periods) come from /work/shared/spec/api-notes.md; see server/README.md "Conformance".

export const ZULIP_FEATURE_LEVEL = 400;
export const ZULIP_VERSION = '11.0-tributary-local';
export const ZULIP_MERGE_BASE = '';

export const LIMITS = {
  maxMessageLength: 10000,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxStatusTextLength: 60,
  maxDraftsInRegister: 1000,
  maxUnreadMessages: 50000,
  passwordMinLength: 6,
  passwordMaxLength: 100,
  // Caps this server sets where the public API names none, so no single request can hold the event
  // loop for long or fan out unboundedly (server/README.md "Bounded work per request").
  maxChannelsPerSubscriptionRequest: 1000,
  maxPrincipalsPerRequest: 10000,
  /** Channels one subscribe may create (the rest of its 1,000 names must exist). */
  maxNewChannelsPerRequest: 100,
  /**
   * Channels × principals in one subscribe or unsubscribe: the rows one request may write, and the
   * subscription objects its events carry. At 100,000 one request was 5 s of server work and 100 MB
   * of events (bench/hostile-load); 10,000 still adds a 2,000-member group to 5 channels at once.
   */
  maxSubscriptionChangesPerRequest: 10000,
  maxNarrowTerms: 100,
  /** Ids in one narrow operand (a group DM's users, an id list). */
  maxNarrowOperandIds: 1000,
  /** Message ids in one flag change, as many as one fetch may return. */
  maxMessageIdsPerRequest: 5000,
} as const;

export const TYPING = {
  startedExpiryMs: 45000,
  stoppedWaitMs: 12000,
  startedWaitMs: 30000,
  maxChannelSubscribersForTyping: 100,
} as const;

/** The public server's presence timings (its settings of the same names), in seconds. */
export const PRESENCE = {
  pingIntervalSeconds: 60,
  offlineThresholdSeconds: 200,
  /** A report this soon after the last stored one changes nothing (PRESENCE_UPDATE_MIN_FREQ_SECONDS). */
  updateMinFreqSeconds: 55,
  /** Legacy shapes call a user active while last activity is this close to the last connection. */
  legacyActivityOffsetSeconds: 70,
  /** Above this many active users no presence events are sent (only polling shows changes). */
  userLimitForEvents: 100,
  defaultHistoryLimitDays: 14,
} as const;

export interface RateLimitOptions {
  /** Requests allowed per user (or per IP when unauthenticated) in one window. */
  requests: number;
  windowMs: number;
}

/** Server time per user (http/server-time-budget.ts): what each request costs, not how many. */
export interface ServerTimeBudgetOptions {
  /** What a user may spend at once, and what a new or rested user has (ms). */
  burstMs: number;
  /** What a user earns back per second: the share of the server's thread one user may hold. */
  refillMsPerSecond: number;
  /** Charge per megabyte of events a request queues (summed over the recipients' queues). */
  msPerEventMegabyte: number;
}

export const DEFAULT_SERVER_TIME_BUDGET: ServerTimeBudgetOptions = {
  burstMs: 2000,
  refillMsPerSecond: 50,
  msPerEventMegabyte: 20,
};

/** Bounds of the event queues' memory (events/hub.ts); see server/README.md, "Memory bounds". */
export interface EventQueueBounds {
  /** Pending event JSON one queue may hold; past it the queue is dropped (BAD_EVENT_QUEUE_ID). */
  maxPendingBytes: number;
  /** Pending event JSON all queues together may hold; past it the largest queue is dropped. */
  maxPendingBytesTotal: number;
  /** Queues one user may hold; a new one past it drops their least recently polled queue. */
  maxQueuesPerUser: number;
  /** Queues in all; a new one past it drops the least recently polled queue of anyone. */
  maxQueues: number;
}

/**
 * A client that polls keeps its queue near empty; these are reached only by clients that stopped
 * polling (or never acknowledge) while events kept coming. 16 MiB is tens of thousands of
 * messages, more than the client could want to replay rather than register again.
 */
export const DEFAULT_EVENT_QUEUE_BOUNDS: EventQueueBounds = {
  maxPendingBytes: 16 * 1024 * 1024,
  maxPendingBytesTotal: 256 * 1024 * 1024,
  maxQueuesPerUser: 64,
  maxQueues: 10_000,
};

export const SEED_KINDS = ['demo', 'empty', 'large'] as const;
export type SeedKind = (typeof SEED_KINDS)[number];

export interface RealmServerOptions {
  /** Folder holding realm.sqlite3 and uploads/. Created if missing. */
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Seeds an empty data folder on first start; ignored when the database already holds a realm. */
  seed?: SeedKind;
  /** Size of the 'large' seed relative to its full size (10,000 users...); default 1. */
  largeScale?: number;
  /** Idle time after which an event queue with no pending poll is dropped (default 10 min). */
  queueIdleTimeoutMs?: number;
  /** How often expired queues are swept (default 60 s). */
  queueGcIntervalMs?: number;
  /** Bounds of the event queues' memory (default DEFAULT_EVENT_QUEUE_BOUNDS). */
  queueBounds?: Partial<EventQueueBounds>;
  /**
   * Quiet time after a burst of requests before memory is given back (memory/idle-release.ts;
   * default 5 s, 0 turns it off).
   */
  idleReleaseMs?: number;
  /**
   * How long after the start the WAL checkpointer's worker starts (db/checkpointer.ts; default 0:
   * at once). The app's realm process waits until its first screen has been served.
   */
  checkpointerDelayMs?: number;
  /** Quiet time before a blocked GET /events gets a heartbeat (default 45 s). */
  heartbeatMs?: number;
  /** Random extra added to heartbeatMs, spreading heartbeats (default 10 s; tests use 0). */
  heartbeatJitterMs?: number;
  /**
   * Least time between two event-carrying responses to the same busy queue (default 20 ms). A
   * queue whose last response carried a single event is answered at once; a busy one gets
   * batches.
   */
  pollCoalesceMs?: number;
  /**
   * Server time one POST /streams/{id}/delete_topic may spend before answering complete: false
   * (default 100 ms; at least one batch is always deleted). The client repeats the request.
   */
  deleteTopicBudgetMs?: number;
  /**
   * Least time between the end of one group commit of sends and the start of the next while sends
   * overlap (default 20 ms). After a commit of a single send the next is committed at once; under
   * load, sends arriving meanwhile share the next commit, whose cost is mostly per commit (pages
   * of the per-user indexes rewritten in the WAL), not per message.
   */
  groupCommitIntervalMs?: number;
  /** max_file_upload_size_mib announced by /register and enforced by uploads (default 100). */
  maxFileUploadSizeMib?: number;
  /** Largest non-file request body (default 4 MiB). */
  bodyLimitBytes?: number;
  /** Per-user request rate limit; false disables it. Generous by default. */
  rateLimit?: RateLimitOptions | false;
  /** Per-user budget of server time; false disables it. On by default. */
  serverTimeBudget?: ServerTimeBudgetOptions | false;
  /** Logs each request through fastify's logger (default false). */
  logRequests?: boolean;
  /**
   * A camo image proxy for previews of external images and videos in messages, as the public
   * server's CAMO_URI and key: previews then load `${url}${hmac}/${hex url}`. Off by default
   * (previews load the original URL).
   */
  camo?: { url: string; key: string };
  /**
   * The demo realm's people come online for a while after each start and others were seen hours
   * ago (server/demo/demo-presence.ts). Default true; the test helpers turn it off, as their
   * tests expect people who have never reported.
   */
  demoPresence?: boolean;
  /** Outgoing webhook delivery (timeout, retries, caps); tests shorten the waits. */
  outgoingWebhooks?: Partial<OutgoingWebhookOptions>;
}

/** How the server calls outgoing webhook bots (resources/webhooks/, server/README.md). */
export interface OutgoingWebhookOptions {
  /** Time a call may take, answer included (the public server's OUTGOING_WEBHOOK_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Waits before each retry of a call that timed out, failed to connect or got a 5xx. */
  retryDelaysMs: readonly number[];
  /** Largest answer read; a longer one is dropped unread past this size. */
  maxResponseBytes: number;
  /** Calls in flight at once to one bot, and in the whole realm. */
  perBotConcurrency: number;
  realmConcurrency: number;
}

export const DEFAULT_OUTGOING_WEBHOOKS: OutgoingWebhookOptions = {
  timeoutMs: 10_000,
  // The public server retries three times (MAX_REQUEST_RETRIES); here with growing waits.
  retryDelaysMs: [1_000, 5_000, 25_000],
  maxResponseBytes: 1024 * 1024,
  perBotConcurrency: 4,
  realmConcurrency: 32,
};

export interface RealmConfig {
  dataDir: string;
  host: string;
  port: number;
  seed: SeedKind;
  largeScale: number;
  queueIdleTimeoutMs: number;
  queueGcIntervalMs: number;
  queueBounds: EventQueueBounds;
  idleReleaseMs: number;
  checkpointerDelayMs: number;
  heartbeatMs: number;
  heartbeatJitterMs: number;
  pollCoalesceMs: number;
  deleteTopicBudgetMs: number;
  groupCommitIntervalMs: number;
  maxFileUploadSizeMib: number;
  bodyLimitBytes: number;
  rateLimit: RateLimitOptions | false;
  serverTimeBudget: ServerTimeBudgetOptions | false;
  logRequests: boolean;
  camo: { url: string; key: string } | undefined;
  demoPresence: boolean;
  outgoingWebhooks: OutgoingWebhookOptions;
}

export function resolveConfig(options: RealmServerOptions): RealmConfig {
  return {
    dataDir: options.dataDir,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    seed: options.seed ?? 'demo',
    largeScale: options.largeScale ?? 1,
    queueIdleTimeoutMs: options.queueIdleTimeoutMs ?? 10 * 60 * 1000,
    queueGcIntervalMs: options.queueGcIntervalMs ?? 60 * 1000,
    queueBounds: { ...DEFAULT_EVENT_QUEUE_BOUNDS, ...options.queueBounds },
    idleReleaseMs: options.idleReleaseMs ?? 5000,
    checkpointerDelayMs: options.checkpointerDelayMs ?? 0,
    heartbeatMs: options.heartbeatMs ?? 45 * 1000,
    heartbeatJitterMs: options.heartbeatJitterMs ?? 10 * 1000,
    pollCoalesceMs: options.pollCoalesceMs ?? 20,
    deleteTopicBudgetMs: options.deleteTopicBudgetMs ?? 100,
    groupCommitIntervalMs: options.groupCommitIntervalMs ?? 20,
    maxFileUploadSizeMib: options.maxFileUploadSizeMib ?? 100,
    bodyLimitBytes: options.bodyLimitBytes ?? 4 * 1024 * 1024,
    rateLimit: options.rateLimit ?? { requests: 20000, windowMs: 60 * 1000 },
    serverTimeBudget: options.serverTimeBudget ?? DEFAULT_SERVER_TIME_BUDGET,
    logRequests: options.logRequests ?? false,
    camo: options.camo,
    demoPresence: options.demoPresence ?? true,
    outgoingWebhooks: { ...DEFAULT_OUTGOING_WEBHOOKS, ...options.outgoingWebhooks },
  };
}
