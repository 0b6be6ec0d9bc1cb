// The event hub: every queue in memory, indexed by id and by user, with idle expiry and bounds on
// how many queues there are and how many bytes of events they hold (EventQueueBounds). Resources emit
// through send(): one event for all recipients, or a builder called per recipient queue so each can
// get its own variant (flags, local_message_id, capability-dependent shapes). Returning null from a
// builder skips that queue.
import type { EventQueueBounds } from '../config';
import { badEventQueueId } from '../http/errors';
import { JsonBytes, objectJsonPieces, RawJson } from '../http/raw-json';
import { EventQueue, EventText, type ClientOptions, type EventBody, type QueueView } from './queue';
import { messageMatchesRegisterNarrow } from './narrow-filter';

export type EventBuilder = (queue: QueueView) => EventBody | null;

export interface EventHubOptions {
  queueIdleTimeoutMs: number;
  queueGcIntervalMs: number;
  heartbeatMs: number;
  heartbeatJitterMs: number;
  /** Least time between two event-carrying responses to one queue (see EventQueue). */
  pollCoalesceMs: number;
  /** Bounds of the queues' memory (see enforceByteBounds and register). */
  queueBounds: EventQueueBounds;
}

export class EventHub {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  /** Queues registered with all_public_streams (rare: bots), so senders can skip looking for them. */
  private allPublicStreamsQueues = 0;
  private gcTimer: ReturnType<typeof setInterval> | null = null;
  /** Bytes of event JSON queued since start, summed over queues: what delivery will write. */
  private bytesQueuedTotal = 0;
  /** Bytes of event JSON waiting in all queues now (kept by the queues as they change). */
  private pendingBytesTotal = 0;
  private readonly pendingBytesChanged = (delta: number) => (this.pendingBytesTotal += delta);

  constructor(private readonly options: EventHubOptions) {}

  start(): void {
    if (this.gcTimer) return;
    this.gcTimer = setInterval(
      () => this.collectGarbage(Date.now()),
      this.options.queueGcIntervalMs,
    );
    this.gcTimer.unref();
  }

  /** Stops the sweep and releases every blocked poll (server shutdown). */
  stop(): void {
    if (this.gcTimer) clearInterval(this.gcTimer);
    this.gcTimer = null;
    for (const queue of this.queues.values()) queue.close();
  }

  register(userId: number, options: ClientOptions): EventQueue {
    const { maxQueuesPerUser, maxQueues } = this.options.queueBounds;
    const own = this.byUser.get(userId);
    if (own && own.size >= maxQueuesPerUser) this.remove(leastRecentlyPolled(own.values()));
    if (this.queues.size >= maxQueues) this.remove(leastRecentlyPolled(this.queues.values()));
    const queue = new EventQueue(
      userId,
      options,
      () => this.heartbeatDelay(),
      Date.now(),
      this.options.pollCoalesceMs,
      this.pendingBytesChanged,
    );
    this.queues.set(queue.id, queue);
    if (options.allPublicStreams) this.allPublicStreamsQueues += 1;
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(queue);
    return queue;
  }

  /** The caller's queue, or BAD_EVENT_QUEUE_ID for unknown, expired or someone else's queues. */
  get(queueId: string, userId: number): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueueId(queueId);
    return queue;
  }

  delete(queueId: string, userId: number): void {
    const queue = this.get(queueId, userId);
    this.remove(queue);
  }

  /**
   * Delivers an event (or a per-queue variant) to every queue of the given users. Objects shared
   * between variants (e.g. one message object for many recipients) are serialized once per call,
   * so builders must not mutate an object after returning it.
   */
  send(userIds: Iterable<number>, event: EventBody | EventBuilder): void {
    const memo = new WeakMap<object, string>();
    const texts = new WeakMap<EventBody, EventText>();
    for (const userId of new Set(userIds)) {
      const queues = this.byUser.get(userId);
      if (!queues) continue;
      for (const queue of queues) this.deliver(queue, event, memo, texts);
    }
  }

  /** Delivers to one queue only (e.g. the sender's queue for local echo). */
  sendToQueue(queueId: string, event: EventBody | EventBuilder): void {
    const queue = this.queues.get(queueId);
    if (queue) this.deliver(queue, event, new WeakMap(), new WeakMap());
  }

  /** Users with at least one queue; lets a resource skip building events nobody will receive. */
  hasQueues(userId: number): boolean {
    return (this.byUser.get(userId)?.size ?? 0) > 0;
  }

  /** Whether any queue asked for all_public_streams (see messages-events). */
  get hasAllPublicStreamsQueues(): boolean {
    return this.allPublicStreamsQueues > 0;
  }

  queuesOf(userId: number): readonly QueueView[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** Bytes of events queued so far; the difference over a request is what it fanned out. */
  get bytesQueued(): number {
    return this.bytesQueuedTotal;
  }

  get queueCount(): number {
    return this.queues.size;
  }

  /** Bytes of event JSON waiting in all queues (bounded by queueBounds.maxPendingBytesTotal). */
  get pendingBytes(): number {
    return this.pendingBytesTotal;
  }

  collectGarbage(now: number): void {
    for (const queue of this.queues.values()) {
      if (!queue.isPolled && now - queue.lastConnectionMs >= this.options.queueIdleTimeoutMs) {
        this.remove(queue);
      }
    }
  }

  private deliver(
    queue: EventQueue,
    event: EventBody | EventBuilder,
    memo: WeakMap<object, string>,
    texts: WeakMap<EventBody, EventText>,
  ): void {
    const body = typeof event === 'function' ? event(queue) : event;
    if (!body || !queue.accepts(body.type)) return;
    if (body.type === 'message' && queue.options.narrow.length > 0) {
      if (!messageMatchesRegisterNarrow(queue.options.narrow, body)) return;
    }
    // One text per body in a fan-out: the queues that get the same event share its bytes.
    let text = texts.get(body);
    if (!text) texts.set(body, (text = eventText(body, memo)));
    this.bytesQueuedTotal += text.length;
    queue.push(body, text);
    this.enforceByteBounds(queue);
  }

  /**
   * A queue holding more than its share is dropped, as the public server drops a queue it gave up
   * on: its client's next poll gets BAD_EVENT_QUEUE_ID and registers again, fetching current state
   * instead of a backlog (a client that stopped polling, or one that never acknowledges). Past the
   * total, the largest queues go first: they are the ones furthest behind.
   */
  private enforceByteBounds(pushedTo: EventQueue): void {
    const { maxPendingBytes, maxPendingBytesTotal } = this.options.queueBounds;
    if (pushedTo.pendingBytes > maxPendingBytes) this.remove(pushedTo);
    while (this.pendingBytesTotal > maxPendingBytesTotal && this.queues.size > 0) {
      let largest: EventQueue | null = null;
      for (const queue of this.queues.values()) {
        if (!largest || queue.pendingBytes > largest.pendingBytes) largest = queue;
      }
      this.remove(largest!);
    }
  }

  private remove(queue: EventQueue): void {
    queue.close();
    if (this.queues.delete(queue.id) && queue.options.allPublicStreams) {
      this.allPublicStreamsQueues -= 1;
    }
    const set = this.byUser.get(queue.userId);
    set?.delete(queue);
    if (set && set.size === 0) this.byUser.delete(queue.userId);
  }

  private heartbeatDelay(): number {
    return this.options.heartbeatMs + Math.random() * this.options.heartbeatJitterMs;
  }
}

/** The queue whose client polled least recently (the first of equals). */
function leastRecentlyPolled(queues: Iterable<EventQueue>): EventQueue {
  let oldest: EventQueue | null = null;
  for (const queue of queues) {
    if (!oldest || queue.lastConnectionMs < oldest.lastConnectionMs) oldest = queue;
  }
  return oldest!;
}

/**
 * The body's JSON.stringify as an EventText, reusing the serialization of any top-level object
 * member already serialized during the same fan-out (the body itself is made once per fan-out:
 * EventHub.send). A member already encoded (JsonBytes, e.g. a subscription add event's list) is
 * copied as bytes, never made a string.
 */
function eventText(body: EventBody, memo: WeakMap<object, string>): EventText {
  const text = (value: unknown) => memberText(value, memo);
  if (Object.values(body).some((value) => value instanceof JsonBytes)) {
    return new EventText(objectJsonPieces(body, text));
  }
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const json = text(value);
    // Like JSON.stringify: undefined and function members are left out.
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return new EventText(`{${parts.join(',')}}`);
}

function memberText(value: unknown, memo: WeakMap<object, string>): string | undefined {
  if (value instanceof RawJson) return value.text;
  if (value !== null && typeof value === 'object') {
    let text = memo.get(value);
    if (text === undefined) {
      text = JSON.stringify(value) as string | undefined;
      if (text !== undefined) memo.set(value, text);
    }
    return text;
  }
  return JSON.stringify(value) as string | undefined;
}
