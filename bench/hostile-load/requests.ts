// The hostile member's requests (bench/hostile-load/run.ts, phases 1 and 3), shared by the bench
// and the process the member runs in during phase 3 (member.ts): each the largest the server
// accepts, and the names of the channels they create, never reused within a run.
import { LIMITS } from '../../server/config';
import { formRequest } from '../support/http-load';

export const CHANNEL = 'hostile-bench';
/** Existing channels: a subscribe of 1,000 names is these and the most new ones allowed. */
export const POOL = Array.from(
  { length: LIMITS.maxChannelsPerSubscriptionRequest - LIMITS.maxNewChannelsPerRequest },
  (_, i) => `pool ${i}`,
);

export function form(params: Record<string, unknown>): string {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    body.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  return body.toString();
}

/** The wait a RATE_LIMIT_HIT body asks for (at most 30 s), in ms. */
export function retryAfterMs(body: string | undefined): number {
  const seconds = Number((JSON.parse(body ?? '{}') as { 'retry-after'?: number })['retry-after']);
  return Math.min(30, Number.isFinite(seconds) ? seconds : 1) * 1000;
}

/** The largest subscribe by channel count: the most new names allowed, the rest existing. */
export function largestSubscribeNames(): string[] {
  return [...newNames(LIMITS.maxNewChannelsPerRequest), ...POOL];
}

export const LARGEST_SUBSCRIBE = `subscribe_${LIMITS.maxChannelsPerSubscriptionRequest}_names_${LIMITS.maxNewChannelsPerRequest}_new`;

let nameCounter = 0;
/** How many names newNames has handed out: another process continues from there (useNamesFrom). */
export function namesUsed(): number {
  return nameCounter;
}
export function useNamesFrom(count: number): void {
  nameCounter = count;
}

/** `count` channel names never used before in this run. */
export function newNames(count: number): string[] {
  const first = nameCounter;
  nameCounter += count;
  return Array.from({ length: count }, (_, i) => `flood ${first + i}`);
}

export interface Timed {
  status: number;
  bytesSent: number;
  bytesReceived: number;
  ms: number;
  startedEpochMs: number;
  endedEpochMs: number;
  error?: string;
}

export async function timed(
  url: string,
  authorization: string,
  method: string,
  path: string,
  params: Record<string, unknown>,
): Promise<Timed> {
  const startedEpochMs = Date.now();
  const start = performance.now();
  const body = form(params);
  const res = await formRequest(method, `${url}/api/v1${path}`, authorization, body);
  return {
    status: res.status,
    bytesSent: body.length,
    bytesReceived: res.bytes,
    ms: Math.round((performance.now() - start) * 10) / 10,
    startedEpochMs,
    endedEpochMs: Date.now(),
    error: res.status === 200 ? undefined : res.text.slice(0, 200),
  };
}

/** New names per request that subscribes every receiver: as many as the pair cap allows. */
export function namesForEveryone(receivers: number): number {
  return Math.min(
    LIMITS.maxNewChannelsPerRequest,
    Math.floor(LIMITS.maxSubscriptionChangesPerRequest / receivers),
  );
}

/** The hostile member's requests, in turn: each the largest the server accepts. */
export function hostileRequests(receivers: number[], messageIds: number[]) {
  let flagOp = 'add';
  const longContent = Array.from({ length: 2000 }, (_, i) =>
    i % 50 === 49 ? '\n\n' : i % 7 === 0 ? '**bold** ' : 'word ',
  )
    .join('')
    .slice(0, LIMITS.maxMessageLength);
  // The unsubscribe names the channels of the last subscribe the server let in: after a refused
  // one (429), its new names were never made and the unsubscribe would be a 400 of the bench's own.
  let asked: string[] = [];
  let lastCreated: string[] = POOL;
  return [
    {
      label: LARGEST_SUBSCRIBE,
      next: () => {
        asked = largestSubscribeNames();
        return {
          method: 'POST',
          path: '/users/me/subscriptions',
          params: { subscriptions: asked.map((name) => ({ name })) },
        };
      },
      done: (status: number) => {
        if (status === 200) lastCreated = asked;
      },
    },
    {
      label: 'unsubscribe_1000',
      next: () => ({
        method: 'DELETE',
        path: '/users/me/subscriptions',
        params: { subscriptions: lastCreated },
      }),
    },
    {
      label: `subscribe_${namesForEveryone(receivers.length)}_new_names_x_${receivers.length}_users`,
      next: () => ({
        method: 'POST',
        path: '/users/me/subscriptions',
        params: {
          subscriptions: newNames(namesForEveryone(receivers.length)).map((name) => ({ name })),
          principals: receivers,
        },
      }),
    },
    {
      label: 'messages_100_narrow_terms_5000',
      next: () => ({
        method: 'GET',
        path: '/messages',
        params: {
          anchor: 'newest',
          num_before: 5000,
          num_after: 0,
          narrow: [
            { operator: 'channel', operand: CHANNEL },
            ...Array.from({ length: LIMITS.maxNarrowTerms - 1 }, (_, i) => ({
              operator: 'topic',
              operand: `not ${i}`,
              negated: true,
            })),
          ],
        },
      }),
    },
    {
      label: 'flags_5000_ids',
      next: () => {
        flagOp = flagOp === 'add' ? 'remove' : 'add';
        return {
          method: 'POST',
          path: '/messages/flags',
          params: { messages: messageIds, op: flagOp, flag: 'starred' },
        };
      },
    },
    {
      label: 'send_10000_chars',
      next: () => ({
        method: 'POST',
        path: '/messages',
        params: { type: 'stream', to: CHANNEL, topic: 'hostile', content: longContent },
      }),
    },
  ];
}
