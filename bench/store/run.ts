// Store benchmark (npm run bench:store): apply 100,000 message events, in batches of 100, into a
// store already holding 1,000 messages and into one holding 100,000; report events per second for
// each and the ratio of cost per event (bars: >= 200,000 events/s at 100k, ratio within 1.3x).
// Also the sidebar's work per incoming message (its selectors after each one-message batch) holding
// 1,000 and 100,000 messages, and that ratio: it must not grow with the messages held either.
//
// The store lives in renderer/ (TypeScript project tsconfig.web.json), which this Node-side
// project may not import statically, so it is loaded by URL at run time; tsx compiles it.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { MessageFlag, RegisterResponse, Subscription, User } from '../../shared/api/types';
import type { MessageEvent, ServerEvent } from '../../shared/api/events';
import { writeBenchFigures } from '../support/output';

interface StoreModule {
  createChatStore(): {
    getState(): {
      replaceSnapshot(accountId: string, reg: RegisterResponse): void;
      applyEventBatch(accountId: string, events: readonly ServerEvent[]): void;
      mergeFetchedMessages(
        accountId: string,
        narrowKey: string,
        messages: readonly never[],
        range: { foundOldest: boolean; foundNewest: boolean },
      ): void;
      accounts: Record<string, { messages: { byId: Map<number, unknown> } }>;
    };
    subscribe(listener: () => void): () => void;
  };
}
/** The sidebar's selectors, loaded by URL like the store (renderer/features/sidebar/sidebar-model.ts). */
interface SidebarModule {
  selectChannelSections(account: unknown): Record<'pinned' | 'active' | 'muted', unknown[]>;
  selectChannelTopics(
    account: unknown,
    streamId: number,
    serverTopics: readonly { name: string; max_id: number }[],
  ): unknown;
  selectDmConversations(account: unknown): unknown;
}
interface SelectorsModule {
  selectActiveAccount(state: unknown): unknown;
  selectUnreadCounts(account: unknown): {
    total: number;
    mentions: number;
    channels: ReadonlyMap<number, { count: number }>;
  };
}
interface NarrowModule {
  narrowKey(narrow: { operator: string; operand: string | number | number[] }[]): string;
}

const SELF = 1;
const USERS = 50;
const CHANNELS = 20;
const TOPICS_PER_CHANNEL = 10;
const BATCH = 100;
const EVENTS = 100_000;
/** Single-message batches timed for the sidebar figure, per round and store size. */
const SIDEBAR_MESSAGES = 1000;
const ACCOUNT = 'bench';

function user(id: number): User {
  return {
    user_id: id,
    delivery_email: `user${id}@example.test`,
    email: `user${id}@example.test`,
    full_name: `User ${id}`,
    date_joined: '2024-01-01T00:00:00Z',
    is_active: true,
    is_owner: id === SELF,
    is_admin: id === SELF,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    role: id === SELF ? 100 : 400,
    timezone: 'UTC',
    avatar_url: null,
    avatar_version: 1,
  };
}

function subscription(id: number): Subscription {
  return {
    stream_id: id,
    name: `channel ${id}`,
    is_archived: false,
    description: '',
    rendered_description: '',
    date_created: 1_700_000_000,
    creator_id: SELF,
    invite_only: false,
    is_web_public: false,
    message_retention_days: null,
    history_public_to_subscribers: true,
    topics_policy: 'inherit',
    first_message_id: null,
    can_add_subscribers_group: 1,
    can_remove_subscribers_group: 1,
    can_administer_channel_group: 1,
    color: '#c2c2c2',
    is_muted: id === CHANNELS, // one muted channel, as in real accounts
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
  };
}

function register(): RegisterResponse {
  return {
    result: 'success',
    msg: '',
    queue_id: 'bench-queue',
    last_event_id: -1,
    zulip_feature_level: 400,
    zulip_version: 'bench',
    max_message_length: 10000,
    max_topic_length: 60,
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_file_upload_size_mib: 100,
    event_queue_longpoll_timeout_seconds: 90,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 12000,
    server_typing_started_wait_period_milliseconds: 30000,
    user_id: SELF,
    email: user(SELF).email,
    delivery_email: user(SELF).email,
    full_name: 'User 1',
    is_admin: true,
    is_owner: true,
    is_guest: false,
    realm_users: Array.from({ length: USERS }, (_, i) => user(i + 1)),
    realm_non_active_users: [],
    subscriptions: Array.from({ length: CHANNELS }, (_, i) => subscription(i + 1)),
    unsubscribed: [],
    never_subscribed: [],
    unread_msgs: {
      count: 0,
      pms: [],
      streams: [],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
    drafts: [],
    user_settings: {},
    realm_user_groups: [],
    user_topics: [],
    user_status: {},
    recent_private_conversations: [],
    starred_messages: [],
  };
}

/** A realistic message event: 90% channel messages over 200 topics, 10% direct messages. */
function messageEvent(id: number): MessageEvent {
  const sender = 2 + (id % (USERS - 1));
  const flags: MessageFlag[] = id % 3 === 0 ? [] : ['read'];
  if (id % 50 === 0) flags.push('mentioned');
  const base = {
    id,
    sender_id: sender,
    sender_email: `user${sender}@example.test`,
    sender_full_name: `User ${sender}`,
    sender_realm_str: 'bench',
    avatar_url: null,
    client: 'website',
    content: `<p>Message number ${id} with a little text in it.</p>`,
    content_type: 'text/html' as const,
    recipient_id: 0,
    topic_links: [],
    timestamp: 1_700_000_000 + id,
    is_me_message: false,
    reactions: [],
    submessages: [],
  };
  if (id % 10 === 0) {
    return {
      id,
      type: 'message',
      flags,
      message: {
        ...base,
        type: 'private',
        subject: '',
        display_recipient: [
          { id: SELF, email: 'user1@example.test', full_name: 'User 1', is_mirror_dummy: false },
          {
            id: sender,
            email: base.sender_email,
            full_name: base.sender_full_name,
            is_mirror_dummy: false,
          },
        ],
      },
    };
  }
  const channel = 1 + (id % CHANNELS);
  return {
    id,
    type: 'message',
    flags,
    message: {
      ...base,
      type: 'stream',
      stream_id: channel,
      display_recipient: `channel ${channel}`,
      subject: `topic ${Math.floor(id / CHANNELS) % TOPICS_PER_CHANNEL}`,
    },
  };
}

/**
 * One batch as the store receives it: decoded from the wire (the browser-mode bridge JSON-parses,
 * Electron IPC structured-clones; both give plain, fast-mode objects, unlike object spreads).
 */
function batchOf(firstId: number): ServerEvent[] {
  const batch: ServerEvent[] = [];
  for (let i = 0; i < BATCH; i++) batch.push(messageEvent(firstId + i));
  return JSON.parse(JSON.stringify(batch)) as ServerEvent[];
}

async function run() {
  const store = (await import(
    String(new URL('../../renderer/store/index.ts', import.meta.url))
  )) as StoreModule;
  const narrowMod = (await import(
    String(new URL('../../shared/narrow/index.ts', import.meta.url))
  )) as NarrowModule;
  const selectors = store as unknown as SelectorsModule;
  const sidebar = (await import(
    String(new URL('../../renderer/features/sidebar/sidebar-model.ts', import.meta.url))
  )) as SidebarModule;
  const openNarrows = [
    [],
    [{ operator: 'channel', operand: 1 }],
    [
      { operator: 'channel', operand: 2 },
      { operator: 'topic', operand: 'topic 3' },
    ],
    [{ operator: 'dm', operand: [3] }],
    [{ operator: 'is', operand: 'mentioned' }],
  ].map((n) => narrowMod.narrowKey(n));

  /** Build a store holding `stored` messages with five open narrows, then time EVENTS new events. */
  interface Measured {
    /** Events per second of wall-clock time spent in applyEventBatch. */
    wall: number;
    /** Events per second of process CPU time (user + system) spent in applyEventBatch. */
    cpu: number;
  }

  /** A store holding `stored` messages, with five open narrows. */
  function filledStore(stored: number) {
    const s = store.createChatStore();
    const api = s.getState();
    api.replaceSnapshot(ACCOUNT, register());
    for (const key of openNarrows) {
      api.mergeFetchedMessages(ACCOUNT, key, [], { foundOldest: true, foundNewest: true });
    }
    for (let id = 1; id <= stored; id += BATCH) api.applyEventBatch(ACCOUNT, batchOf(id));
    return s;
  }

  function measure(stored: number): Measured {
    const s = filledStore(stored);
    const api = s.getState();
    // One subscriber, as a mounted message list would have.
    let notified = 0;
    s.subscribe(() => notified++);
    // Each batch is built just before it is applied (as IPC hands them over) and only the apply
    // is timed, so building the payloads neither counts nor piles up on the heap.
    let ms = 0;
    let cpuMicros = 0;
    const batchCount = EVENTS / BATCH;
    for (let b = 0; b < batchCount; b++) {
      const batch = batchOf(stored + 1 + b * BATCH);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      api.applyEventBatch(ACCOUNT, batch);
      ms += performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      cpuMicros += cpu.user + cpu.system;
    }
    const held = s.getState().accounts[ACCOUNT].messages.byId.size;
    if (held !== stored + EVENTS || notified !== batchCount) {
      throw new Error(`bench sanity check failed: ${held} messages, ${notified} notifications`);
    }
    return {
      wall: Math.round((EVENTS / ms) * 1000),
      cpu: Math.round((EVENTS / cpuMicros) * 1_000_000),
    };
  }

  // The topics the server lists for the open channel (GET /users/me/{stream_id}/topics).
  const serverTopics = Array.from({ length: TOPICS_PER_CHANNEL }, (_, t) => ({
    name: `topic ${t}`,
    max_id: 0,
  }));
  const channelIds = Array.from({ length: CHANNELS }, (_, i) => i + 1);
  /**
   * What the mounted sidebar's selectors compute on each store update, with channel 1's topics
   * open: the sections, the view counts, each channel row's count, the open channel's topics and
   * the direct-message conversations.
   */
  const sidebarRecompute = (state: unknown) => {
    const account = selectors.selectActiveAccount(state);
    const sections = sidebar.selectChannelSections(account);
    const counts = selectors.selectUnreadCounts(account);
    let shown = counts.total + counts.mentions;
    for (const id of channelIds) shown += counts.channels.get(id)?.count ?? 0;
    sidebar.selectChannelTopics(account, 1, serverTopics);
    sidebar.selectDmConversations(account);
    return shown + sections.active.length;
  };

  /**
   * The sidebar's work per incoming message: each message arrives as its own batch (as on a quiet
   * realm), then everything the sidebar shows is derived again; only the derivation is timed.
   * Returns milliseconds per message.
   */
  function measureSidebar(stored: number): Measured {
    const s = filledStore(stored);
    sidebarRecompute(s.getState());
    let ms = 0;
    let cpuMicros = 0;
    for (let i = 1; i <= SIDEBAR_MESSAGES; i++) {
      const batch = JSON.parse(JSON.stringify([messageEvent(stored + i)])) as ServerEvent[];
      s.getState().applyEventBatch(ACCOUNT, batch);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      sidebarRecompute(s.getState());
      ms += performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      cpuMicros += cpu.user + cpu.system;
    }
    return { wall: ms / SIDEBAR_MESSAGES, cpu: cpuMicros / 1000 / SIDEBAR_MESSAGES };
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  measure(1_000); // warm-up (JIT)
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
  const at1k: Measured[] = [];
  const at100k: Measured[] = [];
  // Interleave the two sizes so machine noise affects both alike.
  const sidebarAt1k: Measured[] = [];
  const sidebarAt100k: Measured[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    at1k.push(measure(1_000));
    at100k.push(measure(100_000));
    sidebarAt1k.push(measureSidebar(1_000));
    sidebarAt100k.push(measureSidebar(100_000));
  }
  /** Heap held by a store of 50,000 messages (the design's memory bar is for the whole renderer). */
  function heapFor50k(): number | null {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) return null; // without a forced GC the figure would mostly be garbage
    gc();
    const before = process.memoryUsage().heapUsed;
    const s = store.createChatStore();
    s.getState().replaceSnapshot(ACCOUNT, register());
    for (const key of openNarrows) {
      s.getState().mergeFetchedMessages(ACCOUNT, key, [], { foundOldest: true, foundNewest: true });
    }
    for (let id = 1; id <= 50_000; id += BATCH) s.getState().applyEventBatch(ACCOUNT, batchOf(id));
    gc();
    const used = process.memoryUsage().heapUsed - before;
    if (s.getState().accounts[ACCOUNT].messages.byId.size !== 50_000) throw new Error('heap check');
    return Math.round(used / 1024 / 1024);
  }
  const heapMB = heapFor50k();

  const summary = (kind: keyof Measured) => {
    const r1k = median(at1k.map((m) => m[kind]));
    const r100k = median(at100k.map((m) => m[kind]));
    const ratio = Math.round((r1k / r100k) * 100) / 100;
    return {
      eventsPerSecondAt1k: r1k,
      eventsPerSecondAt100k: r100k,
      runsAt1k: at1k.map((m) => m[kind]),
      runsAt100k: at100k.map((m) => m[kind]),
      costRatio100kTo1k: ratio,
      passes: { rateAt100k: r100k >= 200_000, ratio: ratio <= 1.3 },
    };
  };
  const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
  const sidebarSummary = (kind: keyof Measured) => {
    const ms1k = median(sidebarAt1k.map((m) => m[kind]));
    const ms100k = median(sidebarAt100k.map((m) => m[kind]));
    return {
      msPerMessageAt1k: round4(ms1k),
      msPerMessageAt100k: round4(ms100k),
      runsAt1k: sidebarAt1k.map((m) => round4(m[kind])),
      runsAt100k: sidebarAt100k.map((m) => round4(m[kind])),
      costRatio100kTo1k: Math.round((ms100k / ms1k) * 100) / 100,
    };
  };
  const sidebarFigures = {
    messagesPerRound: SIDEBAR_MESSAGES,
    wallClock: sidebarSummary('wall'),
    cpuTime: sidebarSummary('cpu'),
  };
  const wall = summary('wall');
  const cpu = summary('cpu');
  let loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const result = {
    benchmark: 'store',
    date: new Date().toISOString(),
    machine: {
      nproc: os.availableParallelism(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage,
    },
    events: EVENTS,
    batchSize: BATCH,
    openNarrows: openNarrows.length,
    rounds: ROUNDS,
    bars: { eventsPerSecondAt100k: 200_000, costRatio: 1.3 },
    // Medians over the rounds. Wall clock is the bar's measure; CPU time is also given because on a
    // shared machine (load average above nproc) wall clock mostly measures other people's work.
    wallClock: wall,
    cpuTime: cpu,
    /** The sidebar's selectors after each single incoming message, one channel open (ms). */
    sidebarRecompute: sidebarFigures,
    /** Only measured when run with node --expose-gc (null otherwise). */
    storeHeapMBFor50kMessages: heapMB,
  };
  loadAverage = result.machine.loadAverage;
  const fmt = (n: number) => n.toLocaleString('en');
  console.log(
    `machine: ${result.machine.nproc} cores, ${result.machine.cpu}, node ${process.version}, ${result.date}, load ${loadAverage.join(' ')}`,
  );
  console.log(
    heapMB === null
      ? 'store heap holding 50,000 messages: not measured (run: node --expose-gc --import tsx bench/store/run.ts)'
      : `store heap holding 50,000 messages: ${heapMB} MB`,
  );
  for (const [label, r] of [
    ['wall clock', wall],
    ['CPU time  ', cpu],
  ] as const) {
    console.log(
      `${label}: ${fmt(r.eventsPerSecondAt1k)} events/s holding 1k, ${fmt(r.eventsPerSecondAt100k)} events/s holding 100k ` +
        `(bar 200,000: ${r.passes.rateAt100k ? 'pass' : 'FAIL'}); cost ratio 100k/1k ${r.costRatio100kTo1k}x (bar 1.3: ${r.passes.ratio ? 'pass' : 'FAIL'})`,
    );
    console.log(
      `            runs 1k: ${r.runsAt1k.map(fmt).join(', ')}; runs 100k: ${r.runsAt100k.map(fmt).join(', ')}`,
    );
  }
  for (const [label, r] of [
    ['wall clock', sidebarFigures.wallClock],
    ['CPU time  ', sidebarFigures.cpuTime],
  ] as const) {
    console.log(
      `sidebar recompute per incoming message, ${label}: ${r.msPerMessageAt1k} ms holding 1k, ` +
        `${r.msPerMessageAt100k} ms holding 100k; cost ratio 100k/1k ${r.costRatio100kTo1k}x`,
    );
    console.log(
      `            runs 1k: ${r.runsAt1k.join(', ')}; runs 100k: ${r.runsAt100k.join(', ')}`,
    );
  }
  writeBenchFigures('store', result);
}

await run();
