// One HTTP call to a bot's endpoint, bounded in time (the whole call, answer included) and in the
// size of the answer read, so a slow or huge answer costs the server nothing but a socket. The
// outcome says what happened; deciding what to do about it is the delivery worker's.
import type { WebhookRequest } from './outgoing-payload';

export type CallOutcome =
  | { kind: 'answered'; status: number; text: string }
  | { kind: 'timeout' }
  | { kind: 'connection' }
  | { kind: 'too_large' }
  | { kind: 'aborted' }
  | { kind: 'error'; error: Error };

export interface CallLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

class AnswerTooLarge extends Error {}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) throw new AnswerTooLarge();
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new AnswerTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Posts the request to url; `stop` aborts it (server shutdown). Never throws. */
export async function callWebhook(
  url: string,
  request: WebhookRequest,
  limits: CallLimits,
  stop: AbortSignal,
): Promise<CallOutcome> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      // A redirect is answered as the failure it is for a POST, not followed.
      redirect: 'manual',
      signal: AbortSignal.any([stop, timeout]),
    });
    const text = await readCapped(response, limits.maxResponseBytes);
    return { kind: 'answered', status: response.status, text };
  } catch (error) {
    if (stop.aborted) return { kind: 'aborted' };
    if (timeout.aborted) return { kind: 'timeout' };
    if (error instanceof AnswerTooLarge) return { kind: 'too_large' };
    // fetch reports refused, reset and unresolvable connections as a TypeError with a cause.
    if (error instanceof TypeError) return { kind: 'connection' };
    return { kind: 'error', error: error instanceof Error ? error : new Error(String(error)) };
  }
}
