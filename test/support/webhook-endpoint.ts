/**
 * A real HTTP endpoint on 127.0.0.1 for outgoing webhook tests: it records every call and answers
 * each with what the test's handler says (default: 200 `{}`).
 *
 *   const endpoint = await startWebhookEndpoint();
 *   endpoint.answerWith(() => ({ status: 200, body: { content: 'pong' } }));
 *   const call = await endpoint.nextCall();          // { body (raw text), json, form, headers }
 *
 * answerWith also forgets calls not yet taken by nextCall, so each test starts afresh.
 *   await endpoint.close();
 *
 * A handler may return a promise (to hold the call open), or `'hang'` to never answer.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookCall {
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** The body parsed as a form. */
  form: URLSearchParams;
}

export type WebhookReply =
  { status?: number; body?: unknown; raw?: string | Buffer; contentType?: string } | 'hang';

export interface WebhookEndpoint {
  url: string;
  calls: WebhookCall[];
  answer: (call: WebhookCall) => WebhookReply | Promise<WebhookReply>;
  /** Sets how later calls are answered; nextCall then waits for a call made after this. */
  answerWith(answer: (call: WebhookCall) => WebhookReply | Promise<WebhookReply>): void;
  /** The next call not yet returned by nextCall (waits for it). */
  nextCall(): Promise<WebhookCall>;
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: Exclude<WebhookReply, 'hang'>): void {
  const payload = reply.raw ?? JSON.stringify(reply.body ?? {});
  res.writeHead(reply.status ?? 200, {
    'content-type': reply.contentType ?? 'application/json',
  });
  res.end(payload);
}

export async function startWebhookEndpoint(): Promise<WebhookEndpoint> {
  const calls: WebhookCall[] = [];
  let handedOut = 0;
  const waiters: Array<() => void> = [];
  const endpoint: WebhookEndpoint = {
    url: '',
    calls,
    answer: () => ({ status: 200, body: {} }),
    answerWith(answer) {
      endpoint.answer = answer;
      handedOut = calls.length;
    },
    async nextCall() {
      while (calls.length <= handedOut) await new Promise<void>((r) => waiters.push(r));
      return calls[handedOut++];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const call: WebhookCall = {
        headers: req.headers,
        body,
        json,
        form: new URLSearchParams(body),
      };
      calls.push(call);
      for (const wake of waiters.splice(0)) wake();
      void Promise.resolve(endpoint.answer(call)).then((reply) => {
        if (reply !== 'hang' && !res.destroyed) send(res, reply);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return endpoint;
}
