// Everything main runs for one signed-in account: its API client, event loop, outbox and drafts.
// It also keeps the latest snapshot and the events delivered since, so a renderer that (re)loads can
// catch up with getSnapshot without a gap.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { endpoints } from '../../shared/api/endpoints';
import type { RegisterResponse } from '../../shared/api/types';
import type { ServerEvent, DraftsEvent } from '../../shared/api/events';
import type { ConnectionState } from '../../shared/ipc/common';
import type { SnapshotMessage } from '../../shared/ipc/accounts';
import type { OutboxEntry, OutgoingMessage } from '../../shared/ipc/chat';
import type { PushSink } from '../../shared/ipc/contract';
import { ApiClient, type ApiClientOptions } from '../api/client';
import { ApiError } from '../api/errors';
import { EventLoop, restartSpreadFor } from '../events/event-loop';
import { Outbox, type DeliveryQuery } from '../outbox/outbox';
import { sameMessage } from '../outbox/delivery-match';
import { DraftStore } from '../drafts/drafts';
import type { AccountRecord } from './account-store';
import type { ActivityTracker } from '../presence/activity';
import { PresenceReporter } from '../presence/presence-reporter';
import { eventsWithoutBotKeys, registerWithoutBotKeys } from '../admin/bot-keys';

/** Beyond this many events since the snapshot, a fresh registration is cheaper than the backlog. */
const MAX_BACKLOG_EVENTS = 20_000;
/** Messages of ours in one conversation read per page when the outbox looks for a delivery. */
const DELIVERY_PAGE_MESSAGES = 200;

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
}

export class AccountSession {
  readonly id: string;
  readonly client: ApiClient;
  readonly loop: EventLoop;
  readonly outbox: Outbox;
  readonly drafts: DraftStore;
  readonly presence: PresenceReporter | null;
  private snapshot: SnapshotMessage | null = null;
  private backlog: ServerEvent[] = [];
  private signedOut = false;
  /** The newest message id seen (snapshot, message events, our sends): the outbox's watermark. */
  private newestMessageId: number | null = null;

  constructor(private readonly options: SessionOptions) {
    const { record, push } = options;
    this.id = record.id;
    const folder = join(options.dataDir, 'accounts', record.id);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    this.client = new ApiClient({
      site: record.site,
      credentials: { email: record.email, apiKey: options.apiKey },
      userAgent: 'Tributary',
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
    this.loop = new EventLoop({
      client: this.client,
      pollTimeoutMs: options.pollTimeoutMs,
      restartSpreadMs: options.restartSpreadMs ?? restartSpreadFor(record.site),
      onSnapshot: (queueId, register) => this.onSnapshot(queueId, register),
      onEvents: (queueId, events) => this.onEvents(queueId, events),
      onState: (state) => this.onState(state),
    });
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
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.presence?.stop();
    this.outbox.dispose();
    await this.loop.close();
  }

  get connection(): ConnectionState {
    return this.loop.connection;
  }

  get register(): RegisterResponse | null {
    return this.snapshot?.register ?? null;
  }

  getSnapshot(): {
    snapshot: SnapshotMessage | null;
    events: ServerEvent[];
    connection: ConnectionState;
  } {
    return { snapshot: this.snapshot, events: [...this.backlog], connection: this.connection };
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

  private onSnapshot(queueId: string, fullRegister: RegisterResponse): void {
    const register = registerWithoutBotKeys(fullRegister);
    this.snapshot = { accountId: this.id, queueId, register };
    this.noteMessageId(register.max_message_id);
    this.presence?.onSnapshot(register);
    // Reports start once the account is registered: a signed-out key would only collect 401s.
    this.presence?.start();
    this.backlog = [];
    this.options.push('snapshot', this.snapshot);
    this.drafts.applySnapshot(
      register.user_settings?.enable_drafts_synchronization ?? false,
      register.drafts ?? [],
    );
  }

  private onEvents(queueId: string, fullEvents: ServerEvent[]): void {
    const events = eventsWithoutBotKeys(fullEvents);
    if (this.backlog.length + events.length > MAX_BACKLOG_EVENTS) {
      this.loop.resync();
      return;
    }
    for (const event of events) {
      this.backlog.push(event); // no spread: a batch may be huge
      if (event.type === 'message')
        this.noteMessageId((event as { message: { id: number } }).message.id);
    }
    this.options.push('events', { accountId: this.id, queueId, events });
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
    if (state.status === 'signed_out') this.signedOut = true;
    this.options.push('connection', { accountId: this.id, state });
    this.options.onConnection?.(state);
    if (state.status === 'live') {
      void this.outbox.flush();
      void this.drafts.sync();
    }
  }
}
