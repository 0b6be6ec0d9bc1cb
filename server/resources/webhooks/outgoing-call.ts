// One HTTP call to a bot's endpoint, bounded in time (the whole call, answer included) and in the
// size of the answer read, so a slow or huge answer costs the server nothing but a socket. The
// outcome says what happened; deciding what to do about it is the delivery worker's.
//
// undici's request rather than fetch: fetch refuses the ports the browsers block (6000, 6667,
// ...), where a bot server may well listen, and follows the process's global dispatcher (the
// desktop shell's proxy); a webhook call goes straight to the URL its bot's owner gave.
//
// undici is imported on the first call, not with the server: evaluating it was about 18 ms of a
// first launch's boot to listening, which the window waits for, and most realms never call a bot.
import type { Agent } from 'undici';
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

type Undici = typeof import('undici');
let undici: Promise<Undici> | null = null;
const loadUndici = () => (undici ??= import('undici'));

/** The connections of one delivery worker, made at its first call; destroyed with it. */
export class WebhookAgent {
  private agent: Promise<Agent> | null = null;
  private destroyed = false;

  get(): Promise<Agent> {
    this.agent ??= loadUndici().then(
      ({ Agent }) => new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 }),
    );
    return this.agent;
  }

  /** So shutdown never waits on its connections. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    void this.agent?.then((agent) => agent.destroy()).catch(() => {});
  }
}

/** Errors of the connection itself: refused, reset, unresolvable, closed early. */
function isConnectionError(error: unknown, { errors }: Undici): boolean {
  if (error instanceof errors.SocketError || error instanceof errors.ConnectTimeoutError)
    return true;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' && /^(E[A-Z]+|UND_ERR_(SOCKET|CLOSED|CONNECT_TIMEOUT))$/.test(code)
  );
}

/** Posts the request to url through agent; `stop` aborts it (server shutdown). Never throws. */
export async function callWebhook(
  agent: WebhookAgent,
  url: string,
  call: WebhookRequest,
  limits: CallLimits,
  stop: AbortSignal,
): Promise<CallOutcome> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  let lib: Undici | undefined;
  try {
    lib = await loadUndici();
    const response = await lib.request(url, {
      dispatcher: await agent.get(),
      method: 'POST',
      headers: call.headers,
      body: call.body,
      signal: AbortSignal.any([stop, timeout]),
    });
    const declared = Number(response.headers['content-length']);
    if (declared > limits.maxResponseBytes) {
      response.body.destroy();
      return { kind: 'too_large' };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).byteLength;
      if (size > limits.maxResponseBytes) {
        response.body.destroy();
        throw new AnswerTooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return {
      kind: 'answered',
      status: response.statusCode,
      text: Buffer.concat(chunks).toString('utf8'),
    };
  } catch (error) {
    if (stop.aborted) return { kind: 'aborted' };
    if (timeout.aborted) return { kind: 'timeout' };
    if (error instanceof AnswerTooLarge) return { kind: 'too_large' };
    if (lib && isConnectionError(error, lib)) return { kind: 'connection' };
    return { kind: 'error', error: error instanceof Error ? error : new Error(String(error)) };
  }
}
