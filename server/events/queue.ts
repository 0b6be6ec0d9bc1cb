// One client's event queue (created by POST /register). Events get per-queue increasing ids; a
// blocked GET /events is woken as soon as an event arrives (no polling loop), or by a heartbeat after
// a quiet interval. Acknowledgement follows api-notes §2: last_event_id prunes everything up to it.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../http/errors';
import { DirectJson } from '../http/raw-json';

export interface EventBody {
  type: string;
  [key: string]: unknown;
}

/**
 * An event's body as every queue it went to holds it: serialized to JSON once per fan-out (see
 * EventHub.send) and encoded to UTF-8 once, outside the JavaScript heap. A poll answer copies
 * these bytes into its one buffer (eventsAnswer). Kept as a string, each answer built the event's
 * text again three or four times (the events array, the envelope, the flattening for its
 * Content-Length and for the header written before it) and encoded it once more: a quarter of
 * what the server allocated in bench:hostile's hostile phase, whose large events (100-220 KB per
 * answer) go to every queue, and pending events' strings were copied by every scavenge they
 * outlived.
 */
export class EventText {
  /** The body's JSON without its opening brace, as UTF-8: the answer writes `{"id":N,` before it. */
  readonly tail: Buffer;
  /** The JSON's length (characters, or bytes when built from bytes): what bounds and turns count. */
  readonly length: number;

  /** `json`: the body's JSON text, or its UTF-8 pieces (the first starting with its brace). */
  constructor(json: string | readonly Buffer[]) {
    if (typeof json === 'string') {
      this.length = json.length;
      const rest = json.slice(1);
      // Its own memory, not a slice of the shared pool: a small event waiting in an idle queue
      // would otherwise keep the pool's whole 8 KB block alive.
      this.tail = Buffer.allocUnsafeSlow(Buffer.byteLength(rest));
      this.tail.write(rest);
    } else {
      this.length = json.reduce((sum, piece) => sum + piece.length, 0);
      this.tail = Buffer.allocUnsafeSlow(this.length - 1);
      let at = 0;
      json.forEach((piece, i) => (at += piece.copy(this.tail, at, i === 0 ? 1 : 0)));
    }
  }

  /** The body's JSON (tests and diagnostics; answers copy `tail`). */
  get json(): string {
    return `{${this.tail.toString()}`;
  }
}

/** An event as queued: its id and its body (EventText, shared by the queues it went to). */
export interface QueuedEvent {
  id: number;
  type: string;
  text: EventText;
}

/** A poll answer's `events` array, written straight into the answer's buffer (DirectJson). */
class EventsAnswer extends DirectJson {
  readonly byteLength: number;

  constructor(private readonly events: readonly QueuedEvent[]) {
    super();
    // `[`, `]`, the commas, and per event `{"id":` (6), its digits, `,` and the body's tail.
    let length = 2 + Math.max(0, events.length - 1);
    for (const event of events) length += 7 + digitCount(event.id) + event.text.tail.length;
    this.byteLength = length;
  }

  writeTo(target: Buffer, at: number): number {
    target[at++] = 0x5b; // [
    for (let i = 0; i < this.events.length; i++) {
      if (i > 0) target[at++] = 0x2c; // ,
      const event = this.events[i];
      // Byte by byte: a call into write() per event cost more than the event's whole copy.
      for (let j = 0; j < ID_OPENING.length; j++) target[at++] = ID_OPENING.charCodeAt(j);
      const digits = digitCount(event.id);
      for (let j = digits - 1, id = event.id; j >= 0; j--, id = Math.floor(id / 10)) {
        target[at + j] = 0x30 + (id % 10);
      }
      at += digits;
      target[at++] = 0x2c; // ,
      at += event.text.tail.copy(target, at);
    }
    target[at++] = 0x5d; // ]
    return at;
  }
}

const ID_OPENING = '{"id":';

/** Decimal digits of a non-negative integer id. */
function digitCount(id: number): number {
  let digits = 1;
  while (id >= 10) {
    id = Math.floor(id / 10);
    digits += 1;
  }
  return digits;
}

/** A poll answer's `events` array, for the envelope to write into its one buffer. */
export function eventsAnswer(events: readonly QueuedEvent[]): DirectJson {
  return new EventsAnswer(events);
}

export type RegisterNarrow = Array<[string, string]>;

export interface ClientOptions {
  /** null = every event type. */
  eventTypes: ReadonlySet<string> | null;
  capabilities: Readonly<Record<string, boolean>>;
  applyMarkdown: boolean;
  clientExtavatar: boolean;
  narrow: RegisterNarrow;
  allPublicStreams: boolean;
  clientName: string;
  /** presence data keyed by user id (modern shape); presence events leave out `email`. */
  slimPresence?: boolean;
}

/** What an event builder sees about the queue it is building for. */
export interface QueueView {
  readonly id: string;
  readonly userId: number;
  readonly options: ClientOptions;
  hasCapability(name: string): boolean;
}

interface Waiter {
  resolve: (events: QueuedEvent[]) => void;
  heartbeat: ReturnType<typeof setTimeout>;
}

export class EventQueue implements QueueView {
  readonly id: string = randomUUID();
  lastConnectionMs: number;
  private events: QueuedEvent[] = [];
  /** The JSON length of `events`, kept as they are pushed and pruned. */
  private eventsBytes = 0;
  private nextEventId = 0;
  private newestPrunedId = -1;
  private waiter: Waiter | null = null;
  private wakeScheduled = false;
  private wakeTimer: ReturnType<typeof setTimeout> | null = null;
  private lastResponseMs = 0;
  /** Events in the last response that carried any: more than one means the queue is busy. */
  private lastResponseEvents = 0;

  constructor(
    readonly userId: number,
    readonly options: ClientOptions,
    private readonly heartbeatDelayMs: () => number,
    now: number,
    /**
     * Least time between two responses carrying events to this queue's polls, while the queue is
     * busy (its last response carried several events). A quiet queue is answered at once; a busy
     * one gets its events in batches instead of one HTTP round trip per event, which is what keeps
     * hundreds of pollers affordable at high message rates.
     */
    private readonly minResponseIntervalMs = 0,
    /** Told of every change of pendingBytes (the hub keeps the total over its queues). */
    private readonly pendingBytesChanged: (delta: number) => void = () => {},
  ) {
    this.lastConnectionMs = now;
  }

  hasCapability(name: string): boolean {
    return this.options.capabilities[name] === true;
  }

  accepts(type: string): boolean {
    return (
      type === 'heartbeat' || this.options.eventTypes === null || this.options.eventTypes.has(type)
    );
  }

  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  get pendingCount(): number {
    return this.events.length;
  }

  /** The size of the events waiting to be fetched (their JSON), which bounds a response's work. */
  get pendingBytes(): number {
    return this.eventsBytes;
  }

  get isPolled(): boolean {
    return this.waiter !== null;
  }

  /** Queues an event; `text` is the body serialized without its id (never an empty object). */
  push(body: EventBody, text: EventText = new EventText(JSON.stringify(body))): void {
    this.events.push({ id: this.nextEventId++, type: body.type, text });
    this.eventsBytes += text.length;
    this.pendingBytesChanged(text.length);
    if (this.waiter && !this.wakeScheduled) {
      this.wakeScheduled = true;
      const delay =
        this.lastResponseEvents > 1
          ? this.lastResponseMs + this.minResponseIntervalMs - Date.now()
          : 0;
      if (delay <= 0) scheduleWake(this);
      else this.wakeTimer = setTimeout(() => this.wake(), delay);
    }
  }

  /**
   * Acknowledges through lastEventId, then returns pending events at once, or waits for the next
   * event (or heartbeat) when there are none and dontBlock is false.
   */
  fetch(
    lastEventId: number,
    dontBlock: boolean,
    now: number,
  ): QueuedEvent[] | Promise<QueuedEvent[]> {
    this.prune(lastEventId);
    this.lastConnectionMs = now;
    this.releaseWaiter([]);
    // A backlog past what is left of this turn's bytes waits for a later turn, as woken polls do:
    // a hundred clients polling again together after a large event (channels created for all of
    // them) were otherwise all answered in one turn of the loop, and everybody else waited for it.
    // A poll that asked not to block is answered now whatever its size.
    const deferred = this.events.length > 0 && !dontBlock && !turnBytesAllow(this.eventsBytes);
    if (!deferred && (this.events.length > 0 || dontBlock)) {
      if (this.events.length > 0) {
        this.answered(this.events.length, now);
        spendTurnBytes(this.eventsBytes);
      }
      return this.events.slice();
    }
    return new Promise<QueuedEvent[]>((resolve) => {
      const heartbeat = setTimeout(() => this.push({ type: 'heartbeat' }), this.heartbeatDelayMs());
      this.waiter = { resolve, heartbeat };
      if (deferred) {
        this.wakeScheduled = true;
        scheduleWake(this);
      }
    });
  }

  /** The HTTP request behind the blocked poll went away. */
  abandonPoll(now: number): void {
    this.releaseWaiter([]);
    this.lastConnectionMs = now;
  }

  /** Ends a blocked poll with no events and lets go of the pending ones (queue deleted or dropped). */
  close(): void {
    this.releaseWaiter([]);
    this.pendingBytesChanged(-this.eventsBytes);
    this.events = [];
    this.eventsBytes = 0;
  }

  private prune(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw new ApiError(
        'BAD_REQUEST',
        `An event newer than ${lastEventId} has already been pruned!`,
        400,
      );
    }
    let removed = 0;
    let removedBytes = 0;
    while (removed < this.events.length && this.events[removed].id <= lastEventId) {
      this.newestPrunedId = this.events[removed].id;
      removedBytes += this.events[removed].text.length;
      removed += 1;
    }
    if (removed > 0) {
      this.events.splice(0, removed);
      this.eventsBytes -= removedBytes;
      this.pendingBytesChanged(-removedBytes);
    }
    if (lastEventId !== this.newestPrunedId) {
      throw new ApiError('BAD_REQUEST', `Event ${lastEventId} was not in this queue`, 400);
    }
  }

  /** Answers the blocked poll with everything pending (see scheduleWake). */
  wake(): void {
    if (!this.wakeScheduled) return;
    this.wakeScheduled = false;
    this.wakeTimer = null;
    if (this.events.length === 0) return;
    spendTurnBytes(this.eventsBytes);
    this.releaseWaiter(this.events.slice());
  }

  private releaseWaiter(events: QueuedEvent[]): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    clearTimeout(waiter.heartbeat);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
    this.wakeScheduled = false;
    queuesToWake.delete(this);
    if (events.length > 0) this.answered(events.length, Date.now());
    waiter.resolve(events);
  }

  private answered(eventCount: number, now: number): void {
    this.lastResponseMs = now;
    this.lastResponseEvents = eventCount;
  }
}

/**
 * Blocked polls woken by new events are answered together once the current turn of the event
 * loop is over (setImmediate), not in a microtask per event: a group commit announces several
 * messages one after another as its senders' promises resolve, and each queue should get all of
 * them in one response rather than the first alone and the rest on its next poll (one HTTP round
 * trip per event was the largest cost at high message rates).
 *
 * One turn answers polls carrying up to WAKE_BYTES_PER_TURN of events, whether woken or answered
 * as they arrive (EventQueue.fetch); the rest wait for the next turn, after other clients'
 * requests. A large event sent to many queues (1,000 channels created for 100 subscribers)
 * otherwise had every response built and written in one turn: 420 ms in which nobody else was
 * served (bench/hostile-load).
 */
const WAKE_BYTES_PER_TURN = 1024 * 1024;

const queuesToWake = new Set<EventQueue>();

/** Bytes of events answered since the last turn's end (reset by a setImmediate). */
let turnBytes = 0;
let turnEndScheduled = false;

function spendTurnBytes(bytes: number): void {
  turnBytes += bytes;
  if (turnEndScheduled) return;
  turnEndScheduled = true;
  setImmediate(() => {
    turnBytes = 0;
    turnEndScheduled = false;
  });
}

/** Whether a response of `bytes` fits in this turn (the first always does: nothing starves). */
function turnBytesAllow(bytes: number): boolean {
  return turnBytes === 0 || turnBytes + bytes <= WAKE_BYTES_PER_TURN;
}

function scheduleWake(queue: EventQueue): void {
  if (queuesToWake.size === 0) setImmediate(wakeScheduledQueues);
  queuesToWake.add(queue);
}

function wakeScheduledQueues(): void {
  // Its own turn: what polls answered at once spent before it is not counted against it.
  turnBytes = 0;
  for (const queue of queuesToWake) {
    queuesToWake.delete(queue);
    queue.wake();
    if (turnBytes >= WAKE_BYTES_PER_TURN) break;
  }
  if (queuesToWake.size > 0) setImmediate(wakeScheduledQueues);
}
