// HTTP helpers for load benches. They use node:http with keep-alive agents rather than fetch: at
// thousands of requests per second fetch's per-request cost would make the load generator, not the
// server, the limit.
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';

export const pollAgent = new Agent({ keepAlive: true, maxSockets: Infinity });
export const sendAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** Latency histogram in 0.1 ms buckets up to 60 s. */
export class Histogram {
  private readonly buckets = new Uint32Array(600_000);
  count = 0;
  max = 0;
  add(ms: number): void {
    const index = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)));
    this.buckets[index] += 1;
    this.count += 1;
    if (ms > this.max) this.max = ms;
  }
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const target = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= target) return i / 10;
    }
    return this.max;
  }
}

/**
 * One long poll of GET /events. `headersAt` is when the response's headers arrived (before its
 * body was read and parsed), the moment the server answered.
 */
export async function longPoll(
  baseUrl: string,
  authorization: string,
  queueId: string,
  lastEventId: number,
): Promise<{ status: number; headersAt: number; body: { events: unknown[] } }> {
  const { status, headersAt, text } = await pollEventsText(
    baseUrl,
    authorization,
    queueId,
    lastEventId,
  );
  return { status, headersAt, body: JSON.parse(text) as { events: unknown[] } };
}

/** GET /events, its body unparsed; `headersAt` as in longPoll. */
function pollEventsText(
  baseUrl: string,
  authorization: string,
  queueId: string,
  lastEventId: number,
): Promise<{ status: number; headersAt: number; text: string }> {
  const target = new URL(`${baseUrl}/api/v1/events`);
  target.searchParams.set('queue_id', queueId);
  target.searchParams.set('last_event_id', String(lastEventId));
  return new Promise((resolve, reject) => {
    const req = request(target, { agent: pollAgent, headers: { authorization } }, (res) => {
      const headersAt = performance.now();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headersAt,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A form-encoded request (parameters in the query for GET, in the body otherwise: a DELETE's
 * list of 1,000 names does not fit in a URL) whose response body is read only when the status is not 200 (to report
 * the error), so a large answer costs the load generator nothing to parse.
 */
export function formRequest(
  method: string,
  target: string,
  authorization: string,
  form: string,
  agent: Agent = sendAgent,
): Promise<{ status: number; text: string; bytes: number }> {
  const inQuery = method === 'GET';
  const url = inQuery && form ? `${target}?${form}` : target;
  const headers: Record<string, string | number> = { authorization };
  if (!inQuery) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = Buffer.byteLength(form);
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (status !== 200) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, text: Buffer.concat(chunks).toString('utf8'), bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(inQuery ? undefined : form);
  });
}

/** Bodies larger than this are scanned rather than parsed (see longPollMessages). */
const SCAN_ABOVE_BYTES = 256 * 1024;
/**
 * An event in the events array: it starts with its id, then its type (server/events/queue.ts).
 * A message object starts the same way but follows "message":, never [ or },.
 */
const EVENT_START = /(?:\[|\},)\{"id":(\d+),"type":"/g;
/** Raw message contents (queues registered with apply_markdown false). */
const MESSAGE_CONTENT = /"content":"((?:[^"\\]|\\.)*)"/g;

export interface PolledMessages {
  status: number;
  headersAt: number;
  lastEventId: number;
  contents: string[];
  /** How many events the answer carried, and its size (characters of the body). */
  events: number;
  bytes: number;
}

/**
 * One long poll reduced to what a delivery measurement needs: the newest event id and the raw
 * contents of the messages. A body of channel-creation or subscription events for 1,000 channels
 * weighs about a megabyte per queue; parsing 100 of them would stall the load generator's own
 * loop and count as the server's latency, so large bodies are scanned with two patterns instead.
 */
export async function longPollMessages(
  baseUrl: string,
  authorization: string,
  queueId: string,
  lastEventId: number,
): Promise<PolledMessages> {
  const { status, headersAt, text } = await pollEventsText(
    baseUrl,
    authorization,
    queueId,
    lastEventId,
  );
  const bytes = text.length;
  if (status !== 200) return { status, headersAt, lastEventId, contents: [], events: 0, bytes };
  if (text.length <= SCAN_ABOVE_BYTES) {
    const body = JSON.parse(text) as {
      events: Array<{ id: number; message?: { content: string } }>;
    };
    return {
      status,
      headersAt,
      lastEventId: body.events.at(-1)?.id ?? lastEventId,
      contents: body.events.flatMap((e) => (e.message ? [e.message.content] : [])),
      events: body.events.length,
      bytes,
    };
  }
  let newest = lastEventId;
  let events = 0;
  for (const match of text.matchAll(EVENT_START)) {
    newest = Number(match[1]);
    events += 1;
  }
  const contents = [...text.matchAll(MESSAGE_CONTENT)].map((m) => m[1]);
  return { status, headersAt, lastEventId: newest, contents, events, bytes };
}

const EVENT_OPENING = Buffer.from('{"id":');
const EVENT_TYPE_AFTER_ID = Buffer.from(',"type":"');
const OPEN_BRACKET = '['.charCodeAt(0);
const CLOSE_BRACE = '}'.charCodeAt(0);
const COMMA = ','.charCodeAt(0);
const QUOTE = '"'.charCodeAt(0);
const DIGIT_0 = '0'.charCodeAt(0);

export interface MarkedPoll {
  status: number;
  /** performance.timeOrigin + performance.now() when the headers arrived: comparable across processes. */
  headersAtEpochMs: number;
  lastEventId: number;
  /** N of every message whose raw content is `${marker}N`. */
  marked: number[];
  events: number;
  bytes: number;
}

/** The events' count and newest id, and the numbers after `marker` in message contents. */
function scanEvents(
  body: Buffer,
  lastEventId: number,
  marker: Buffer,
): { lastEventId: number; marked: number[]; events: number } {
  let events = 0;
  let newest = lastEventId;
  for (let at = body.indexOf(EVENT_OPENING); at > 0; at = body.indexOf(EVENT_OPENING, at + 1)) {
    const before = body[at - 1];
    const opensEvent =
      before === OPEN_BRACKET || (before === COMMA && at > 1 && body[at - 2] === CLOSE_BRACE);
    if (!opensEvent) continue;
    const digits = at + EVENT_OPENING.length;
    const [id, end] = readInt(body, digits);
    if (
      end === digits ||
      end + EVENT_TYPE_AFTER_ID.length > body.length ||
      body.compare(
        EVENT_TYPE_AFTER_ID,
        0,
        EVENT_TYPE_AFTER_ID.length,
        end,
        end + EVENT_TYPE_AFTER_ID.length,
      ) !== 0
    )
      continue;
    events += 1;
    newest = id;
  }
  const marked: number[] = [];
  for (let at = body.indexOf(marker); at >= 0; at = body.indexOf(marker, at + marker.length)) {
    const digits = at + marker.length;
    const [n, end] = readInt(body, digits);
    // Only a content that is the marker and a number, nothing after.
    if (end > digits && body[end] === QUOTE) marked.push(n);
  }
  return { lastEventId: newest, marked, events };
}

/** The decimal integer at `from` (ASCII digits, no sign) and where it ends. */
function readInt(body: Buffer, from: number): [number, number] {
  let n = 0;
  let at = from;
  while (at < body.length && body[at] >= DIGIT_0 && body[at] <= DIGIT_0 + 9) {
    n = n * 10 + body[at] - DIGIT_0;
    at += 1;
  }
  return [n, at];
}

const HEADERS_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

/**
 * One client's long polls of GET /events over a socket of its own, written and read by hand: the
 * request is the bytes node:http sends for longPoll's (request line, authorization, Host,
 * Connection: keep-alive), and the answer is taken as bytes by its Content-Length (the server
 * answers /events with one; a chunked answer fails the poll). node:http's own client cost about
 * 100 µs of the load generator's CPU per answer, as much as the server spent making it, and on 2
 * cores that is taken from the server (bench/hostile-load, seventh pass).
 */
export class PollConnection {
  private socket: Socket | null = null;
  private waiting: {
    resolve: (poll: MarkedPoll) => void;
    reject: (error: Error) => void;
    marker: Buffer;
    lastEventId: number;
  } | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  /** Once the headers are in: the status, when they came, and where the body ends. */
  private head: {
    status: number;
    headersAtEpochMs: number;
    bodyStart: number;
    end: number;
  } | null = null;

  constructor(private readonly origin: { hostname: string; port: string }) {}

  poll(
    authorization: string,
    queueId: string,
    lastEventId: number,
    marker: Buffer,
  ): Promise<MarkedPoll> {
    const path = `/api/v1/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=${lastEventId}`;
    const host = `${this.origin.hostname}:${this.origin.port}`;
    const socket = (this.socket ??= this.open());
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject, marker, lastEventId };
      socket.write(
        `GET ${path} HTTP/1.1\r\nauthorization: ${authorization}\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`,
      );
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private open(): Socket {
    const socket = connect(Number(this.origin.port), this.origin.hostname);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.take(chunk));
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = null;
      this.chunks = [];
      this.received = 0;
      this.head = null;
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    return socket;
  }

  private take(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (!this.head) {
      const buffered = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
      this.chunks = [buffered];
      const headersEnd = buffered.indexOf(HEADERS_END);
      if (headersEnd < 0) return;
      const headers = buffered.toString('latin1', 0, headersEnd);
      const length = CONTENT_LENGTH.exec(headers)?.[1];
      if (length === undefined) {
        this.socket?.destroy(new Error('an answer without Content-Length'));
        return;
      }
      const bodyStart = headersEnd + HEADERS_END.length;
      this.head = {
        status: Number(headers.slice(9, 12)),
        headersAtEpochMs: performance.timeOrigin + performance.now(),
        bodyStart,
        end: bodyStart + Number(length),
      };
    }
    if (this.received < this.head.end) return;
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const { status, headersAtEpochMs, bodyStart, end } = this.head;
    const body = all.subarray(bodyStart, end);
    // Nothing follows an answer until the next request (one poll at a time on this socket).
    this.chunks = [];
    this.received = 0;
    this.head = null;
    const waiting = this.waiting!;
    this.waiting = null;
    const { lastEventId, marker } = waiting;
    const poll = {
      status,
      headersAtEpochMs,
      lastEventId,
      marked: [],
      events: 0,
      bytes: body.length,
    };
    waiting.resolve(status === 200 ? { ...poll, ...scanEvents(body, lastEventId, marker) } : poll);
  }
}
